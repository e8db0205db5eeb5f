import { ArrivingBytes } from './arriving-bytes'
import { type PostedBytesMessage, receivePostedModel } from './posted-bytes'
import { SbmDownloadError } from './sbm-error'

/**
 * A model the decode worker downloads itself, streaming (issue 23.2): the bytes go from the
 * network straight into the file buffer the decode works on, with no hop through the page's
 * main thread and no message per chunk. The page stays in charge of what only it knows, over
 * `port` ({@link FetchInstruction}s in, {@link FetchReport}s out): which address to fetch (it
 * sends the freshest grant, and answers a 401/403 with a renewed address or says the refusal
 * stands, as its own fetches do — engine/core/file-addresses.ts), cancelling, and the progress
 * bar. Cookies go with the request as with the page's own fetch (same origin, default
 * credentials).
 */
export interface FetchedModelSource {
  kind: 'fetchHere'
  port: MessagePort
  /**
   * A second decode worker that decodes the other share of the same file (a split decode,
   * engine/building/model-download.ts): it gets the file's length, then every chunk, transferred
   * once it is copied into place here, or the failure ({@link ForwardedModelSource}).
   */
  forwardTo?: MessagePort
}

/**
 * A model another decode worker downloads and passes on as it arrives: first its length
 * (`{kind: 'start', byteLength}`), then {@link PostedBytesMessage}s, or a failure.
 */
export interface ForwardedModelSource {
  kind: 'forwarded'
  port: MessagePort
}

/** What the fetching worker passes on to a {@link ForwardedModelSource}'s port. */
export type ForwardedMessage = { kind: 'start'; byteLength: number } | PostedBytesMessage

/** What the fetching worker tells the page. */
export type FetchReport =
  /** The server answered (any status); after a 401/403 the worker waits for an instruction. */
  | { kind: 'answered'; status: number }
  /** No answer at all (network error, cancelled before the headers). */
  | { kind: 'unreachable'; message: string }
  /** Bytes received so far, of `totalBytes` (the Content-Length; null when unknown until the end). */
  | { kind: 'progress'; doneBytes: number; totalBytes: number | null }

/** What the page tells the fetching worker. */
export type FetchInstruction =
  /**
   * Fetch this address: first, and again with a renewed one after a refusal. Absolute: a worker
   * resolves relative addresses against its script's URL, not the page's.
   */
  | { kind: 'fetch'; url: string }
  /** After a refusal: no renewed address, the refusal is the answer. */
  | { kind: 'refusalStands' }
  /** Stop: the download fails, whatever state it is in. */
  | { kind: 'cancel' }

/** Fewest bytes between two progress reports, at most a hundredth of the file (the last one is always sent). */
const progressStepBytes = 256 * 1024

/** True for a {@link ForwardedModelSource}. */
export function isForwardedModelSource(source: unknown): source is ForwardedModelSource {
  if (typeof source !== 'object' || source === null) return false
  const { kind, port } = source as Partial<ForwardedModelSource>
  return kind === 'forwarded' && typeof port?.postMessage === 'function'
}

/**
 * Receives a {@link ForwardedModelSource}: resolves with the arriving bytes once their length
 * is known (they then fill as chunks come; an early end or a failure fails them, as
 * receivePostedModel does), or rejects with the download's failure.
 */
export function receiveForwardedModel({ port }: ForwardedModelSource): Promise<ArrivingBytes> {
  return new Promise((resolve, reject) => {
    port.onmessage = ({ data }: MessageEvent<ForwardedMessage>) => {
      if (data.kind === 'start') {
        // From here on the chunks go to the arriving bytes' own handler.
        resolve(receivePostedModel({ port, byteLength: data.byteLength }))
        return
      }
      port.onmessage = null
      port.close()
      reject(
        new SbmDownloadError(
          data.kind === 'failed' ? data.message : 'download failed: no bytes arrived',
        ),
      )
    }
  })
}

/** True for a {@link FetchedModelSource} (what a decode call got instead of bytes). */
export function isFetchedModelSource(source: unknown): source is FetchedModelSource {
  if (typeof source !== 'object' || source === null) return false
  const { kind, port } = source as Partial<FetchedModelSource>
  return (
    kind === 'fetchHere' &&
    typeof port === 'object' &&
    port !== null &&
    typeof port.postMessage === 'function'
  )
}

/**
 * Fetches a {@link FetchedModelSource} here. With a plain Content-Length the body streams into
 * {@link ArrivingBytes} (answered with the headers; the decode starts on what is in while the
 * rest arrives, and yields between its steps so this thread keeps reading the body); a
 * compressed or unsized body is read whole first. Every failure — no answer, an error status
 * (after the page's renewal of a refused grant), a cut or cancelled body — is a
 * {@link SbmDownloadError} worded as the page's own download words it
 * (engine/building/fetch-with-progress.ts). The port is closed once the body is complete or
 * has failed.
 */
export async function fetchModelHere({
  port,
  forwardTo,
}: FetchedModelSource): Promise<ArrivingBytes | Uint8Array> {
  const controller = new AbortController()
  const waitingForInstruction: ((instruction: FetchInstruction) => void)[] = []
  port.onmessage = ({ data }: MessageEvent<FetchInstruction>) => {
    if (data.kind === 'cancel') controller.abort()
    waitingForInstruction.shift()?.(data)
  }
  const report = (message: FetchReport) => port.postMessage(message)
  const forward = (message: ForwardedMessage, transfer: Transferable[] = []) =>
    forwardTo?.postMessage(message, transfer)
  const close = () => {
    port.onmessage = null
    port.close()
    forwardTo?.close()
  }
  const nextInstruction = () =>
    new Promise<FetchInstruction>((resolve) => waitingForInstruction.push(resolve))
  try {
    let instruction = await nextInstruction()
    let response: Response
    for (;;) {
      if (instruction.kind !== 'fetch') {
        report({ kind: 'unreachable', message: 'download failed: cancelled' })
        throw new SbmDownloadError('download failed: cancelled', { isBeforeBody: true })
      }
      const address = instruction.url
      try {
        response = await fetch(address, { signal: controller.signal })
      } catch (error) {
        const message = `download failed: ${(error as Error).message}`
        report({ kind: 'unreachable', message })
        throw new SbmDownloadError(message, { isBeforeBody: true })
      }
      report({ kind: 'answered', status: response.status })
      if (response.status !== 401 && response.status !== 403) break
      instruction = await nextInstruction()
      if (instruction.kind !== 'fetch') break
      void response.body?.cancel().catch(() => undefined)
    }
    if (!response.ok) {
      void response.body?.cancel().catch(() => undefined)
      throw new SbmDownloadError(`download failed: HTTP ${response.status}`, {
        isBeforeBody: true,
      })
    }
    const declared = Number(response.headers.get('content-length'))
    // A compressed response's Content-Length counts encoded bytes, not the bytes read here.
    const isEncoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity'
    const isSized = Number.isSafeInteger(declared) && declared > 0 && !isEncoded
    let reportedBytes = 0
    const stepBytes = isSized ? Math.min(progressStepBytes, declared / 100) : progressStepBytes
    const onReceived = (doneBytes: number, totalBytes: number | null, isLast = false) => {
      if (doneBytes - reportedBytes < stepBytes && doneBytes !== totalBytes && !isLast) {
        return
      }
      reportedBytes = doneBytes
      report({ kind: 'progress', doneBytes, totalBytes })
    }
    if (!response.body || !isSized) {
      const whole = await readWhole(response, onReceived)
      if (forwardTo) {
        const copy = whole.slice().buffer
        forward({ kind: 'start', byteLength: whole.byteLength })
        forward({ kind: 'chunk', bytes: copy }, [copy])
      }
      close()
      return whole
    }
    // No report of 0 bytes: the first is of the first chunk, so a small file's one report is
    // its whole (a report of 0 on its own could be the last one the page's snapshot shows).
    forward({ kind: 'start', byteLength: declared })
    const arriving = new ArrivingBytes(declared, { readsHere: true })
    void arriving
      .fill(
        response.body,
        (doneBytes, chunk) => {
          onReceived(doneBytes, declared)
          if (!forwardTo || !chunk) return
          // Copied into place here, so a chunk that is its buffer's whole moves on as it is.
          const bytes =
            chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength
              ? (chunk.buffer as ArrayBuffer)
              : chunk.slice().buffer
          forward({ kind: 'chunk', bytes }, [bytes])
        },
        // Chunks that move on to another worker must be buffers of their own.
        { reuseChunks: !forwardTo },
      )
      .then(() => {
        const message = arriving.failureMessage
        if (message !== null) forward({ kind: 'failed', message })
      })
      .finally(close)
    // A cancel after the headers fails the body's reads, which fails the bytes (fill).
    return arriving
  } catch (error) {
    forward({ kind: 'failed', message: (error as Error).message })
    close()
    throw error
  }
}

/** Reads a body of unknown length whole, reporting the bytes so far. */
async function readWhole(
  response: Response,
  onReceived: (doneBytes: number, totalBytes: number | null, isLast?: boolean) => void,
): Promise<Uint8Array> {
  try {
    if (!response.body) return new Uint8Array(await response.arrayBuffer())
    const chunks: Uint8Array[] = []
    let doneBytes = 0
    const reader = response.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      doneBytes += value.byteLength
      onReceived(doneBytes, null)
    }
    const whole = new Uint8Array(doneBytes)
    let offset = 0
    for (const chunk of chunks) {
      whole.set(chunk, offset)
      offset += chunk.byteLength
    }
    onReceived(doneBytes, doneBytes, true)
    return whole
  } catch (error) {
    throw new SbmDownloadError(`download failed: ${(error as Error).message}`)
  }
}
