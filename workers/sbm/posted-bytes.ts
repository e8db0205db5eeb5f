import { ArrivingBytes } from './arriving-bytes'
import { SbmDownloadError } from './sbm-error'

/**
 * A model whose bytes another thread downloads and posts here as they arrive (issue 23.2): the
 * `port` receives {@link PostedBytesMessage}s, and `byteLength` is the file's size (the
 * response's Content-Length). Why not fetch in the decode worker itself: a worker reads its
 * fetch's body only between its own tasks, so while it decodes a view the network's buffer
 * (2 MB in Chromium) fills and the download stalls; posted messages queue without limit, so
 * the download runs at the network's pace while the worker decodes what is already in.
 */
export interface PostedModelSource {
  port: MessagePort
  byteLength: number
  /**
   * Where the bytes go on to as they are received here: each chunk is transferred onward once it
   * is copied into place, so a second thread (the picking worker, which decodes what picking
   * needs from the same file) gets the file without another download or copy. An early end or
   * a failure is passed on as such.
   */
  forwardTo?: MessagePort
}

/** One message of the downloading thread: a chunk (transferred), the end, or a failure. */
export type PostedBytesMessage =
  | { kind: 'chunk'; bytes: ArrayBuffer }
  | { kind: 'end' }
  | { kind: 'failed'; message: string }

/** True for a {@link PostedModelSource} (what a decode call got instead of bytes or a URL). */
export function isPostedModelSource(source: unknown): source is PostedModelSource {
  if (typeof source !== 'object' || source === null) return false
  const { port, byteLength, forwardTo } = source as Partial<PostedModelSource>
  return (
    typeof port === 'object' &&
    port !== null &&
    typeof port.postMessage === 'function' &&
    (forwardTo === undefined ||
      (typeof forwardTo === 'object' &&
        forwardTo !== null &&
        typeof forwardTo.postMessage === 'function')) &&
    Number.isSafeInteger(byteLength) &&
    (byteLength as number) > 0
  )
}

/**
 * Receives a posted model into {@link ArrivingBytes}: chunks are appended in order; an end
 * before the last byte, a failure message or more bytes than declared fail every wait with a
 * {@link SbmDownloadError}. The port is closed once the file is complete or failed. With
 * `forwardTo`, every chunk goes on (transferred) after it is appended, and a failure goes on as
 * a failure message; that port is closed with this one.
 */
export function receivePostedModel({
  port,
  byteLength,
  forwardTo,
}: PostedModelSource): ArrivingBytes {
  const arriving = new ArrivingBytes(byteLength)
  const settle = (error?: Error) => {
    if (error) arriving.fail(error)
    if (forwardTo && arriving.hasFailed) {
      const message = error?.message ?? arriving.failureMessage ?? 'download failed'
      forwardTo.postMessage({ kind: 'failed', message } satisfies PostedBytesMessage)
    }
    forwardTo?.close()
    port.onmessage = null
    port.close()
  }
  port.onmessage = ({ data }: MessageEvent<PostedBytesMessage>) => {
    if (data.kind === 'chunk') {
      arriving.append(new Uint8Array(data.bytes))
      if (forwardTo && !arriving.hasFailed) {
        // Copied into place above, so the buffer itself can move on.
        forwardTo.postMessage(data satisfies PostedBytesMessage, [data.bytes])
      }
      if (arriving.isComplete) settle()
      // append() fails the bytes itself when more arrive than declared
      else if (arriving.hasFailed) settle()
    } else if (data.kind === 'failed') {
      settle(new SbmDownloadError(data.message))
    } else {
      settle(
        new SbmDownloadError(
          `download failed: ${arriving.receivedBytes} of ${byteLength} bytes arrived`,
        ),
      )
    }
  }
  return arriving
}
