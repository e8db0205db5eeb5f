/**
 * Inflating a zip entry with the platform's own zlib (`DecompressionStream`) instead of fflate's
 * JavaScript inflater (issue 23.5). A raw deflate stream framed as a one-member gzip file
 * (RFC 1952: a 10-byte header, the deflate data, then CRC-32 and size) is checked by zlib
 * itself, so a verified entry needs no CRC pass in JavaScript either; without verification the
 * data goes in as `deflate-raw`.
 */

/** A gzip member header: deflate, no flags, no time, unknown OS. */
const gzipHeader = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])

/**
 * Compressed bytes handed to zlib at a time. zlib inflates each piece in one go, whatever the
 * reader has taken, so this bounds what a forged entry can expand into before its size is
 * checked (deflate expands at most ~1032-fold: ≤ 256 MiB), as the chunked fflate path does.
 */
const pieceBytes = 256 * 1024

const supportedFormats = new Map<string, boolean>()

/** Whether this runtime's DecompressionStream takes `format` (older ones lack `deflate-raw`). */
function isFormatSupported(format: 'gzip' | 'deflate-raw'): boolean {
  let isSupported = supportedFormats.get(format)
  if (isSupported === undefined) {
    try {
      new DecompressionStream(format)
      isSupported = true
    } catch {
      isSupported = false
    }
    supportedFormats.set(format, isSupported)
  }
  return isSupported
}

/** The format a native inflate of an entry would use, or null where there is none. */
export function nativeInflateFormat(verifyChecksum: boolean): 'gzip' | 'deflate-raw' | null {
  if (typeof DecompressionStream !== 'function') return null
  const format = verifyChecksum ? 'gzip' : 'deflate-raw'
  return isFormatSupported(format) ? format : null
}

/** The entry expanded past the size it declared (a damaged or forged archive). */
export class InflatedPastSizeError extends Error {
  override readonly name = 'InflatedPastSizeError'
}

/** What {@link inflateNatively} needs to know about one entry. */
export interface NativeInflateRequest {
  format: 'gzip' | 'deflate-raw'
  compressedSizeBytes: number
  /** Reads `[offset, offset + length)` of the entry's compressed data. */
  readCompressed(offsetBytes: number, lengthBytes: number): Promise<Uint8Array>
  /** Where the inflated bytes go: exactly the declared size. */
  output: Uint8Array
  /** For `gzip`: the entry's CRC-32, which zlib checks against the inflated bytes. */
  crc32: number
  /** Called after each inflated chunk is in place (progress, abort checks, yielding). */
  afterChunk(chunkBytes: number): Promise<void>
}

/**
 * Inflates one entry into `output` and returns how many bytes it produced. Rejects with
 * {@link InflatedPastSizeError} as soon as the output would pass its end, with the reader's or
 * `afterChunk`'s own error, or with zlib's refusal (bad data, and for `gzip` a wrong CRC-32 or
 * size) as whatever error the stream gives — a caller that needs to say which should ask a
 * second inflater.
 */
export async function inflateNatively(request: NativeInflateRequest): Promise<number> {
  const { format, compressedSizeBytes, output } = request
  const inflater = new DecompressionStream(format)
  const writer = inflater.writable.getWriter()
  const reader = inflater.readable.getReader()
  const feeding = (async () => {
    if (format === 'gzip') await writer.write(gzipHeader)
    for (let consumed = 0; consumed < compressedSizeBytes; ) {
      const piece = await request.readCompressed(
        consumed,
        Math.min(pieceBytes, compressedSizeBytes - consumed),
      )
      consumed += piece.byteLength
      // Views of the reader's windows, which are plain ArrayBuffers, never shared memory.
      await writer.write(piece as Uint8Array<ArrayBuffer>)
    }
    if (format === 'gzip') await writer.write(gzipTrailer(request.crc32, output.byteLength))
    await writer.close()
  })().catch(async (error: unknown) => {
    // The readable side errors with it, so the loop below ends with this error.
    await writer.abort(error).catch(() => undefined)
    throw error
  })
  feeding.catch(() => undefined)
  let producedBytes = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (producedBytes + value.byteLength > output.byteLength) {
        throw new InflatedPastSizeError('the entry inflates past its declared size')
      }
      output.set(value, producedBytes)
      producedBytes += value.byteLength
      await request.afterChunk(value.byteLength)
    }
    await feeding
  } catch (error) {
    await reader.cancel(error).catch(() => undefined)
    throw error
  }
  return producedBytes
}

/** The gzip trailer: CRC-32 and size modulo 2³², little-endian. */
function gzipTrailer(crc32: number, sizeBytes: number): Uint8Array<ArrayBuffer> {
  const trailer = new Uint8Array(8)
  const view = new DataView(trailer.buffer)
  view.setUint32(0, crc32 >>> 0, true)
  view.setUint32(4, sizeBytes % 2 ** 32, true)
  return trailer
}
