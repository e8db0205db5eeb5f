import * as Comlink from 'comlink'
import type { PostedBytesMessage, PostedModelSource } from '../../workers/sbm/posted-bytes'
import { NOT_VALID_SBM_MESSAGE } from '../../workers/sbm/sbm-error'
import type { DecodeSbmOutcome, SbmDecodeWorkerApi } from '../../workers/sbm/sbm-decode.worker'
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
 * arrives, with the copy the picking worker needs (see {@link fetchAndDecodeSbm}).
 */
export function downloadAndDecodeSbm(
  model: { url: string; sizeBytes: number },
  job: JobHandle,
  decodePool: WorkerPool<SbmDecodeWorkerApi>,
): Promise<DecodeSbmOutcome> {
  return fetchAndDecodeSbm(
    model.url,
    (source) =>
      decodePool.run<DecodeSbmOutcome>(
        (api) =>
          api.decode(
            Comlink.transfer(source, [source instanceof ArrayBuffer ? source : source.port]),
            { forPicking: true },
          ),
        { signal: job.signal },
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
