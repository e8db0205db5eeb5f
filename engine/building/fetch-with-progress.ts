import { fileAddresses } from '../core/file-addresses'

/** Why a download failed: the network, an HTTP status, or a cancel. */
export class DownloadError extends Error {
  override readonly name = 'DownloadError'
}

/**
 * Downloads a file into one ArrayBuffer, reporting bytes as they arrive. The main thread fetches
 * (not the decode worker) because only here can progress reach the snapshot without a second
 * channel; the bytes are then transferred to the worker, so this costs one copy of the chunks.
 * `expectedSizeBytes` stands in for a missing Content-Length.
 */
export async function fetchWithProgress(
  url: string,
  options: {
    expectedSizeBytes?: number
    signal?: AbortSignal
    onProgress?: (doneBytes: number, totalBytes: number) => void
  } = {},
): Promise<ArrayBuffer> {
  let response: Response
  try {
    // signed addresses (models, GML) are renewed once when refused: a kiosk opens floors late
    response = await fileAddresses.fetch(url, { signal: options.signal })
  } catch (error) {
    throw new DownloadError(`download failed: ${(error as Error).message}`)
  }
  if (!response.ok) throw new DownloadError(`download failed: HTTP ${response.status}`)
  const header = Number(response.headers.get('content-length'))
  // A compressed response's Content-Length counts encoded bytes, not the bytes read here.
  const isEncoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity'
  const totalBytes =
    Number.isFinite(header) && header > 0 && !isEncoded ? header : (options.expectedSizeBytes ?? 0)
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
}
