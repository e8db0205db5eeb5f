import { fileAddresses } from '../core/file-addresses'

/** Why a download failed: the network, an HTTP status, or a cancel. */
export class DownloadError extends Error {
  override readonly name = 'DownloadError'
}

/** Options of a download with progress. */
export interface DownloadOptions {
  /** Stands in for a missing Content-Length in the progress total. */
  expectedSizeBytes?: number
  signal?: AbortSignal
  onProgress?: (doneBytes: number, totalBytes: number) => void
}

/**
 * Sends the request of a download: an answered, successful response, or a
 * {@link DownloadError}. Signed addresses (models, GML) are renewed once when refused: a kiosk
 * opens floors late.
 */
export async function openDownload(url: string, signal?: AbortSignal): Promise<Response> {
  let response: Response
  try {
    response = await fileAddresses.fetch(url, { signal })
  } catch (error) {
    throw new DownloadError(`download failed: ${(error as Error).message}`)
  }
  if (!response.ok) throw new DownloadError(`download failed: HTTP ${response.status}`)
  return response
}

/**
 * The number of bytes the body will have, from its Content-Length; null when unknown. A
 * compressed response's Content-Length counts encoded bytes, not the bytes read here.
 */
export function declaredByteLength(response: Response): number | null {
  const header = Number(response.headers.get('content-length'))
  const isEncoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity'
  return Number.isSafeInteger(header) && header > 0 && !isEncoded ? header : null
}

/**
 * Reads a response's body into one ArrayBuffer, reporting bytes as they arrive. Failures of
 * the body (network, cancel) are {@link DownloadError}s.
 */
export async function readWithProgress(
  response: Response,
  options: DownloadOptions = {},
): Promise<ArrayBuffer> {
  const totalBytes = declaredByteLength(response) ?? options.expectedSizeBytes ?? 0
  try {
    if (!response.body) {
      const buffer = await response.arrayBuffer()
      options.onProgress?.(buffer.byteLength, buffer.byteLength)
      return buffer
    }
    const reader = response.body.getReader()
    let buffer = new Uint8Array(Math.max(totalBytes, 64 * 1024))
    let doneBytes = 0
    options.onProgress?.(0, totalBytes)
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (doneBytes + value.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(Math.max(buffer.byteLength * 2, doneBytes + value.byteLength))
        grown.set(buffer.subarray(0, doneBytes))
        buffer = grown
      }
      buffer.set(value, doneBytes)
      doneBytes += value.byteLength
      options.onProgress?.(doneBytes, Math.max(totalBytes, doneBytes))
    }
    options.onProgress?.(doneBytes, doneBytes)
    return doneBytes === buffer.byteLength ? buffer.buffer : buffer.slice(0, doneBytes).buffer
  } catch (error) {
    throw new DownloadError(`download failed: ${(error as Error).message}`)
  }
}

/**
 * Downloads a file into one ArrayBuffer, reporting bytes as they arrive, for a worker that
 * needs the whole file at once (GML); models stream into their decode worker instead
 * (model-download.ts). The main thread fetches because only here can progress reach the
 * snapshot without a second channel.
 */
export async function fetchWithProgress(
  url: string,
  options: DownloadOptions = {},
): Promise<ArrayBuffer> {
  return readWithProgress(await openDownload(url, options.signal), options)
}
