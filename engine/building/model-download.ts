import * as Comlink from 'comlink'
import type { PostedBytesMessage, PostedModelSource } from '../../workers/sbm/posted-bytes'
import type {
  FetchedModelSource,
  FetchInstruction,
  FetchReport,
  ForwardedMessage,
  ForwardedModelSource,
} from '../../workers/sbm/fetched-bytes'
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
import { type FileAddressBook, fileAddresses } from '../core/file-addresses'
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
 * Starts a decode of a download a decode worker makes itself (or of the bytes it passes on, for
 * the other share of a split decode), or answers null when no worker is free right now (then
 * nothing was sent). `signal` stops a job whose bytes will never come.
 */
export type StartFetchedDecode = (
  source: FetchedModelSource | ForwardedModelSource,
  options: DecodeRequestOptions,
  signal?: AbortSignal,
) => Promise<DecodeSbmOutcome> | null

/** Options of {@link decodeFetchedByWorker}. */
export interface WorkerDownloadOptions extends DownloadOptions {
  /** The page's address book (tests pass their own). */
  addresses?: FileAddressBook
  /**
   * Split the decode across two free workers (issue 23.2, `splitDecode`): the one that
   * downloads decodes positions and BVHs and passes every chunk on to the other, which decodes
   * indices, normals and uvs; joined as {@link decodeForDrawingAndPicking} joins them.
   */
  split?: boolean
}

/** What to list as transferred when a fetched or forwarded source is posted to a worker. */
export function transferablesOfFetched(
  source: FetchedModelSource | ForwardedModelSource,
): Transferable[] {
  return 'forwardTo' in source && source.forwardTo ? [source.port, source.forwardTo] : [source.port]
}

/**
 * Downloads an SBM model **inside the decode worker** that decodes it, streaming (issue 23.2):
 * the body goes from the network into the worker's file buffer with no hop through this thread
 * (no read of 28 MB here, no message per chunk), and the decode starts on the views already in.
 * This thread keeps what it alone has (workers/sbm/fetched-bytes.ts): it picks the address with
 * the freshest grant and renews a refused one once, as {@link openDownload} does
 * (`FileAddressBook.request`), it cancels on `signal`, and it reports the worker's progress.
 * Failures are the page's own: no answer or an error status rejects with a
 * {@link DownloadError} worded alike, a cut body is the decode's `sbm.downloadFailed`. Answers
 * null at once when `startDecode` has no worker free: a download must not wait for a decode
 * worker (the caller downloads here and posts, {@link fetchAndDecodeSbm}). With `split`, two
 * free workers share the decode; with one free, it decodes alone.
 */
export function decodeFetchedByWorker(
  url: string,
  startDecode: StartFetchedDecode,
  options: WorkerDownloadOptions = {},
): Promise<DecodeSbmOutcome> | null {
  const channel = new MessageChannel()
  const unused = (...ports: MessagePort[]) => {
    for (const port of ports) port.close()
  }
  if (options.split) {
    const onward = new MessageChannel()
    // The receiving half first: it only waits on its port, so it can take a worker before the
    // downloading half is sure to get one.
    const stopSecond = new AbortController()
    const second = startDecode(
      { kind: 'forwarded', port: onward.port2 },
      { forPicking: true, share: 'indicesNormalsAndUvs', withoutBvhs: true },
      stopSecond.signal,
    )
    if (second) {
      const first = startDecode(
        { kind: 'fetchHere', port: channel.port2, forwardTo: onward.port1 },
        { forPicking: true, share: 'positionsAndBvhs' },
      )
      if (first) {
        // A downloading half that fails or dies never sends the rest: let the other go.
        first.then(
          (outcome) => {
            if (!outcome.ok) stopSecond.abort()
          },
          () => stopSecond.abort(),
        )
        return followWorkerDownload(url, channel.port1, joinShares(first, second), options)
      }
      // Only one worker was free: the waiting half is let go, and the caller posts the bytes
      // to whichever worker frees up first.
      onward.port1.postMessage({
        kind: 'failed',
        message: 'download failed: no second worker',
      } satisfies ForwardedMessage)
      second.catch(() => undefined)
      unused(onward.port1, channel.port1, channel.port2)
      return null
    }
    unused(onward.port1, onward.port2)
  }
  const decoding = startDecode({ kind: 'fetchHere', port: channel.port2 }, { forPicking: true })
  if (!decoding) {
    unused(channel.port1, channel.port2)
    return null
  }
  return followWorkerDownload(url, channel.port1, decoding, options)
}

async function followWorkerDownload(
  url: string,
  port: MessagePort,
  decoding: Promise<DecodeSbmOutcome>,
  { addresses = fileAddresses, signal, onProgress, expectedSizeBytes }: WorkerDownloadOptions,
): Promise<DecodeSbmOutcome> {
  const instruct = (instruction: FetchInstruction) => port.postMessage(instruction)
  const answers: ((report: FetchReport) => void)[] = []
  port.onmessage = ({ data }: MessageEvent<FetchReport>) => {
    if (data.kind === 'progress') {
      const total = data.totalBytes ?? Math.max(expectedSizeBytes ?? 0, data.doneBytes)
      onProgress?.(data.doneBytes, Math.max(total, data.doneBytes))
    } else {
      answers.shift()?.(data)
    }
  }
  // The worker's last progress report may come after its answer, on the other channel.
  const withLastProgress = (outcome: DecodeSbmOutcome) => {
    if (outcome.ok) onProgress?.(outcome.value.fileBytes, outcome.value.fileBytes)
    return outcome
  }
  const cancel = () => instruct({ kind: 'cancel' })
  signal?.addEventListener('abort', cancel, { once: true })
  // The decode may end before it answers (a worker that failed to start): its end is the answer.
  const ended = decoding.then(
    () => null,
    () => null,
  )
  // Open until the decode settles: the worker may still need an instruction (a refusal
  // standing, a cancel) after this function has its answer.
  void ended.then(() => {
    signal?.removeEventListener('abort', cancel)
    port.onmessage = null
    port.close()
  })
  if (signal?.aborted) cancel()
  const answer = await addresses.request(url, async (address) => {
    // A worker resolves a relative address against its script, not this page.
    const absolute =
      typeof location === 'undefined' ? address : new URL(address, location.href).href
    instruct({ kind: 'fetch', url: absolute })
    const report = await Promise.race([
      new Promise<FetchReport>((resolve) => answers.push(resolve)),
      ended,
    ])
    if (report === null) return { status: 0, failure: null }
    return report.kind === 'answered'
      ? { status: report.status, failure: null }
      : { status: 0, failure: report.kind === 'unreachable' ? report.message : '' }
  })
  if (answer.status === 0 && answer.failure === null) {
    // The decode's answer came before the worker's word on the response (two channels, no
    // order between them): a failure before the body is still thrown, as the page's own is.
    const outcome = await decoding
    if (!outcome.ok && outcome.error.isBeforeBody) throw new DownloadError(outcome.error.message)
    return withLastProgress(outcome)
  }
  // Failing before the body as the page's own fetch fails (openDownload); the worker's decode
  // fails alike and is not waited for.
  if (answer.failure !== null) throw new DownloadError(answer.failure)
  if (answer.status === 401 || answer.status === 403) instruct({ kind: 'refusalStands' })
  if (answer.status < 200 || answer.status > 299) {
    throw new DownloadError(`download failed: HTTP ${answer.status}`)
  }
  return withLastProgress(await decoding)
}

/**
 * Smallest model (its stored size) a decode worker downloads itself: reading a small body on
 * this thread costs next to nothing, and a worker's download gives the page its progress only
 * with the last bytes, so a small model's progress bar would never be seen to fill.
 */
export const WORKER_DOWNLOAD_MIN_BYTES = 1024 * 1024

/**
 * Downloads one SBM model with progress on the job and decodes it in the decode pool while it
 * arrives. When a decode worker is free (and `workerDownload`, for a model of at least
 * {@link WORKER_DOWNLOAD_MIN_BYTES}), that worker downloads the file itself
 * ({@link decodeFetchedByWorker}; with `splitDecode` and two free, they share the decode);
 * otherwise this thread downloads it and posts the chunks, queued for the first worker to free
 * up, so the download never waits for a worker ({@link fetchAndDecodeSbm}). With
 * `decodeForPicking` the bytes always go through this thread: the picking worker decodes
 * picking's share from them (see {@link decodeForDrawingAndPicking}); otherwise the decode
 * copies positions and indices for the picking worker.
 */
export function downloadAndDecodeSbm(
  model: { url: string; sizeBytes: number },
  job: JobHandle,
  decodePool: WorkerPool<SbmDecodeWorkerApi>,
  decodeForPicking?: (source: PostedModelSource) => void,
  {
    splitDecode = false,
    workerDownload = true,
    workerDownloadMinBytes = WORKER_DOWNLOAD_MIN_BYTES,
  }: { splitDecode?: boolean; workerDownload?: boolean; workerDownloadMinBytes?: number } = {},
): Promise<DecodeSbmOutcome> {
  const onProgress = (doneBytes: number, totalBytes: number) =>
    job.reportProgress(doneBytes, totalBytes)
  if (workerDownload && !decodeForPicking && model.sizeBytes >= workerDownloadMinBytes) {
    const fetched = decodeFetchedByWorker(
      model.url,
      (source, decodeOptions, signal) =>
        decodePool.tryRun<DecodeSbmOutcome>(
          (api) =>
            api.decode(Comlink.transfer(source, transferablesOfFetched(source)), decodeOptions),
          { signal: signal ? AbortSignal.any([job.signal, signal]) : job.signal },
        ),
      {
        expectedSizeBytes: model.sizeBytes,
        signal: job.signal,
        onProgress,
        split: splitDecode,
      },
    )
    if (fetched) return fetched
  }
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
    { expectedSizeBytes: model.sizeBytes, signal: job.signal, onProgress },
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
