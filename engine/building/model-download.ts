import * as Comlink from 'comlink'
import type { PostedBytesMessage, PostedModelSource } from '../../workers/sbm/posted-bytes'
import { joinSplitDecode } from '../../workers/sbm/decoded-sbm'
import { NOT_VALID_SBM_MESSAGE, SBM_INVALID_CODE } from '../../workers/sbm/sbm-error'
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

/** Starts a decode of `source` in some worker, transferring the buffer or the port. */
export type DecodeModel = (source: ModelSource) => Promise<DecodeSbmOutcome>

/** What to list as transferred when a {@link ModelSource} is posted to a worker. */
export function transferablesOfSource(source: ModelSource): Transferable[] {
  if (source instanceof ArrayBuffer) return [source]
  return source.forwardTo ? [source.port, source.forwardTo] : [source.port]
}

/**
 * One download feeding the decode worker (what drawing needs) and the picking worker (what
 * picking needs) in parallel, on two cores, with no decoded geometry copied (issue 23.2): with
 * `decodeForPicking`, the posted bytes go to it first — the picking worker decodes positions,
 * indices and BVHs as they arrive and passes every chunk on, transferred — and `startDecode`
 * gets the forwarded bytes with `withoutBvhs`. The picking worker goes first because it is the
 * idle one: it passes chunks on between its shorter decode steps, and a decode job that waits
 * for a free pool worker holds nothing back. A response read whole, or no `decodeForPicking`,
 * is decoded once with the picking copy (`forPicking`), as before.
 */
export function decodeForDrawingAndPicking(
  startDecode: (source: ModelSource, options: DecodeRequestOptions) => Promise<DecodeSbmOutcome>,
  decodeForPicking?: (source: PostedModelSource) => void,
  startSecondDecode?: SecondDecode,
): DecodeModel {
  return (source) => {
    if (source instanceof ArrayBuffer || (!decodeForPicking && !startSecondDecode)) {
      return startDecode(source, { forPicking: true })
    }
    const onward = new MessageChannel()
    if (decodeForPicking) {
      decodeForPicking({ ...source, forwardTo: onward.port1 })
      return startDecode(
        { port: onward.port2, byteLength: source.byteLength },
        { withoutBvhs: true },
      )
    }
    const second = startSecondDecode?.(
      { ...source, forwardTo: onward.port1 },
      { forPicking: true, share: 'indicesNormalsAndUvs', withoutBvhs: true },
    )
    if (!second) {
      // No second worker free now: one decode of everything, as without the split.
      onward.port1.close()
      onward.port2.close()
      return startDecode(source, { forPicking: true })
    }
    const first = startDecode(
      { port: onward.port2, byteLength: source.byteLength },
      { forPicking: true, share: 'positionsAndBvhs' },
    )
    return joinShares(first, second)
  }
}

/**
 * Starts the second half of a split decode (issue 23.2) on another worker right away, or
 * answers null when none is free now: it receives the posted bytes first and forwards them to
 * the first half, so it must never wait behind that half (or anything else) for a worker.
 */
export type SecondDecode = (
  source: PostedModelSource,
  options: DecodeRequestOptions,
) => Promise<DecodeSbmOutcome> | null

/**
 * One answer from the two halves of a split decode: the first half's model and picking copy
 * (positions, BVHs, images, tables) with the second half's indices (and their picking copy),
 * normals and uvs moved in (joinSplitDecode). When the file did not split (a primitive without
 * stored normals or indices), the first half decoded everything and the second half's empty
 * answer is dropped. Either half's failure is the load's.
 */
async function joinShares(
  first: Promise<DecodeSbmOutcome>,
  second: Promise<DecodeSbmOutcome>,
): Promise<DecodeSbmOutcome> {
  const [drawing, shading] = await Promise.all([first, second])
  if (!drawing.ok) return drawing
  if (!drawing.value.model.secondShare) return drawing
  const dropDrawing = () => {
    for (const bitmap of drawing.value.imageBitmaps) bitmap?.close()
  }
  if (!shading.ok) {
    dropDrawing()
    return shading
  }
  try {
    const { model, pickingCopy } = joinSplitDecode(drawing.value, shading.value)
    return {
      ok: true,
      value: { ...drawing.value, model, pickingCopy, secondTimings: shading.value.timings },
    }
  } catch (error) {
    dropDrawing()
    return {
      ok: false,
      error: {
        code: SBM_INVALID_CODE,
        message: NOT_VALID_SBM_MESSAGE,
        detail: (error as Error).message,
      },
    }
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
  const decoding = decode({ port: channel.port2, byteLength })
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
      post({ kind: 'chunk', bytes }, [bytes])
      options.onProgress?.(doneBytes, Math.max(byteLength, doneBytes))
    }
    post({ kind: 'end' })
  } catch (error) {
    post({ kind: 'failed', message: `download failed: ${(error as Error).message}` })
  } finally {
    channel.port1.close()
  }
  return decoding
}

/**
 * Downloads one SBM model with progress on the job and decodes it in the decode pool while it
 * arrives; picking's share is decoded by `decodeForPicking` from the same bytes, or copied by
 * the decode when there is none (see {@link decodeForDrawingAndPicking}).
 */
export function downloadAndDecodeSbm(
  model: { url: string; sizeBytes: number },
  job: JobHandle,
  decodePool: WorkerPool<SbmDecodeWorkerApi>,
  decodeForPicking?: (source: PostedModelSource) => void,
  { splitDecode = false }: { splitDecode?: boolean } = {},
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
      decodeForPicking,
      splitDecode
        ? (source, decodeOptions) =>
            decodePool.tryRun<DecodeSbmOutcome>(
              (api) =>
                api.decode(Comlink.transfer(source, transferablesOfSource(source)), decodeOptions),
              { signal: job.signal },
            )
        : undefined,
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
