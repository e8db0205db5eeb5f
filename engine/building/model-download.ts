import * as Comlink from 'comlink'
import { BvhChunkTap } from '../../workers/sbm/bvh-chunk-tap'
import type { PostedBytesMessage, PostedModelSource } from '../../workers/sbm/posted-bytes'
import { NOT_VALID_SBM_MESSAGE } from '../../workers/sbm/sbm-error'
import type {
  DecodeRequestOptions,
  DecodeSbmOutcome,
  SbmDecodeWorkerApi,
} from '../../workers/sbm/sbm-decode.worker'
import type { ModelLoadErrorCode } from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import type { JobHandle } from '../core/engine-context'
import type { WorkerPool } from '../workers/create-worker-client'
import {
  type DownloadOptions,
  DownloadError,
  declaredByteLength,
  openDownload,
  readWithProgress,
} from './fetch-with-progress'

/** What a decode is given: the whole file, or bytes this thread posts as they arrive. */
export type ModelSource = ArrayBuffer | PostedModelSource

/**
 * What a download posting its bytes offers the decode it feeds: a copy of the file's tail (the
 * BVH chunk, bvh-chunk-tap.ts) posted to another thread as it arrives. `open` is called once the
 * tail is found, with its own posted source; never for a file that has none.
 */
export interface PostedDownload {
  copyBvhChunk(open: (source: PostedModelSource) => void): void
}

/**
 * Starts a decode of `source` in some worker, transferring the buffer or the port; `download` is
 * there when the bytes are posted as they arrive.
 */
export type DecodeModel = (
  source: ModelSource,
  download?: PostedDownload,
) => Promise<DecodeSbmOutcome>

/** What to list as transferred when a {@link ModelSource} is posted to a worker. */
export function transferablesOfSource(source: ModelSource): Transferable[] {
  if (source instanceof ArrayBuffer) return [source]
  return source.forwardTo ? [source.port, source.forwardTo] : [source.port]
}

/** How the picking worker takes part in a model's decode (see {@link decodeForDrawingAndPicking}). */
export type PickingShare =
  | { decodesStoredBvhs: (source: PostedModelSource) => void }
  | { decodesItsShare: (source: PostedModelSource) => void }

/**
 * One download feeding the decode worker (what drawing needs) and the picking worker (what
 * picking needs) on two cores (issue 23.2). The decode worker decodes the geometry once and
 * copies positions and indices for picking (`forPicking`); with `decodesStoredBvhs` (the app's
 * way) it leaves the stored BVHs — the file's last quarter, decoded last — to the picking
 * worker, which gets a copy of the file's tail from the downloading thread as it arrives and
 * decodes them meanwhile on its own core. With `decodesItsShare` (session 13's way, slower:
 * positions and indices decoded twice) the posted bytes go to the picking worker first, which
 * decodes positions, indices and BVHs and passes every chunk on, and the decode worker decodes
 * `withoutBvhs`. A response read whole, or no share, is decoded once with everything.
 */
export function decodeForDrawingAndPicking(
  startDecode: (source: ModelSource, options: DecodeRequestOptions) => Promise<DecodeSbmOutcome>,
  picking?: PickingShare,
): DecodeModel {
  return (source, download) => {
    if (source instanceof ArrayBuffer || !picking) {
      return startDecode(source, { forPicking: true })
    }
    if ('decodesStoredBvhs' in picking) {
      if (!download) return startDecode(source, { forPicking: true })
      download.copyBvhChunk(picking.decodesStoredBvhs)
      return startDecode(source, { forPicking: true, storedBvhsElsewhere: true })
    }
    const onward = new MessageChannel()
    picking.decodesItsShare({ ...source, forwardTo: onward.port1 })
    return startDecode({ port: onward.port2, byteLength: source.byteLength }, { withoutBvhs: true })
  }
}

/**
 * Downloads an SBM model and decodes it while its bytes arrive (issue 23.2): this thread reads
 * the response and posts each chunk (transferred, not copied) to the decode worker, which
 * decodes every view as soon as its bytes are in. The download never waits for the decode (a
 * worker fetching for itself reads its body only between decode steps, and the network stalls
 * meanwhile), and progress is the bytes really received. A response without a usable
 * Content-Length is read whole first, then decoded. Download failures, before or during the
 * decode, are {@link DownloadError}s or the decode's `sbm.downloadFailed`.
 */
export async function fetchAndDecodeSbm(
  url: string,
  decode: DecodeModel,
  options: DownloadOptions = {},
): Promise<DecodeSbmOutcome> {
  const response = await openDownload(url, options.signal)
  const byteLength = declaredByteLength(response)
  if (byteLength === null || !response.body) {
    return decode(await readWithProgress(response, options))
  }
  const channel = new MessageChannel()
  // Set in a callback, hence a holder (the compiler would take a variable for still unset).
  const copies: { bvhChunkTap?: BvhChunkTap } = {}
  const decoding = decode(
    { port: channel.port2, byteLength },
    {
      copyBvhChunk: (open) => {
        copies.bvhChunkTap = new BvhChunkTap(byteLength, (tailByteLength) => {
          const tail = new MessageChannel()
          open({ port: tail.port2, byteLength: tailByteLength })
          return tail.port1
        })
      },
    },
  )
  const reader = response.body.getReader()
  // A decode that ends early (a refused header, a failed worker) needs no more bytes.
  let isDecodeSettled = false
  const stopReading = () => {
    isDecodeSettled = true
    void reader.cancel().catch(() => undefined)
  }
  decoding.then(stopReading, stopReading)
  const post = (message: PostedBytesMessage, transfer: Transferable[] = []) =>
    channel.port1.postMessage(message, transfer)
  let doneBytes = 0
  options.onProgress?.(0, byteLength)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || isDecodeSettled) break
      // A chunk that is its buffer's whole moves without a copy; any other is copied out.
      const bytes =
        value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
          ? (value.buffer as ArrayBuffer)
          : value.slice().buffer
      doneBytes += value.byteLength
      // Copied before the chunk is transferred away.
      copies.bvhChunkTap?.take(value)
      post({ kind: 'chunk', bytes }, [bytes])
      options.onProgress?.(doneBytes, Math.max(byteLength, doneBytes))
    }
    post({ kind: 'end' })
    copies.bvhChunkTap?.end()
  } catch (error) {
    const message = `download failed: ${(error as Error).message}`
    post({ kind: 'failed', message })
    copies.bvhChunkTap?.fail(message)
  } finally {
    channel.port1.close()
  }
  return decoding
}

/**
 * Downloads one SBM model with progress on the job and decodes it in the decode pool while it
 * arrives, with the picking worker's share as `picking` says (see
 * {@link decodeForDrawingAndPicking}).
 */
export function downloadAndDecodeSbm(
  model: { url: string; sizeBytes: number },
  job: JobHandle,
  decodePool: WorkerPool<SbmDecodeWorkerApi>,
  picking?: PickingShare,
): Promise<DecodeSbmOutcome> {
  return fetchAndDecodeSbm(
    model.url,
    decodeForDrawingAndPicking(
      (source, decodeOptions) =>
        decodePool.run<DecodeSbmOutcome>(
          (api) =>
            api.decode(Comlink.transfer(source, transferablesOfSource(source)), decodeOptions),
          { signal: job.signal },
        ),
      picking,
    ),
    {
      expectedSizeBytes: model.sizeBytes,
      signal: job.signal,
      onProgress: (doneBytes, totalBytes) => job.reportProgress(doneBytes, totalBytes),
    },
  )
}

/** What the snapshot says about a model whose download or decode threw. */
export function modelLoadFailure(error: unknown): { code: ModelLoadErrorCode; message: string } {
  if (error instanceof DownloadError) return { code: 'sbm.downloadFailed', message: error.message }
  if (error instanceof EngineError && error.code === 'engine.workerFailed') {
    return { code: 'engine.workerFailed', message: error.message }
  }
  return { code: 'sbm.invalid', message: NOT_VALID_SBM_MESSAGE }
}
