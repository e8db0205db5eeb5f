import type { ArchiveSource } from './archive-source'
import { ZipError } from './zip-errors'

/** Bytes read from the source at a time: few enough reads, little memory held. */
const defaultWindowSizeBytes = 8 * 1024 * 1024

/**
 * Reads an archive front to back through a sliding window, so thousands of small entries cost a
 * few large reads. The next window is requested as soon as the current one arrives: reading a
 * Blob goes through the browser process, and on a busy machine each read waits for it, so the
 * read-ahead overlaps that wait with inflating the current window.
 */
export class WindowReader {
  private window: Uint8Array = new Uint8Array(0)
  private windowStartBytes = 0
  private next: { startBytes: number; bytes: Promise<Uint8Array> } | undefined

  constructor(
    private readonly source: ArchiveSource,
    private readonly windowSizeBytes = defaultWindowSizeBytes,
  ) {}

  /** Reads `[offsetBytes, offsetBytes + lengthBytes)`, shorter only at the end of the source. */
  async read(offsetBytes: number, lengthBytes: number): Promise<Uint8Array> {
    const endBytes = offsetBytes + lengthBytes
    if (!this.covers(offsetBytes, endBytes)) {
      const straddling = await this.moveTo(offsetBytes, lengthBytes)
      if (straddling) return straddling
    }
    const start = offsetBytes - this.windowStartBytes
    return this.window.subarray(start, Math.min(this.window.byteLength, start + lengthBytes))
  }

  /** Like {@link read}, but an archive that ends early is an error. */
  async readExactly(offsetBytes: number, lengthBytes: number): Promise<Uint8Array> {
    const bytes = await this.read(offsetBytes, lengthBytes)
    if (bytes.byteLength < lengthBytes) {
      throw new ZipError('archive.truncated', 'The archive ends in the middle of an entry.')
    }
    return bytes
  }

  private covers(offsetBytes: number, endBytes: number): boolean {
    const windowEnd = this.windowStartBytes + this.window.byteLength
    const isAtSourceEnd = windowEnd >= this.source.sizeBytes
    return (
      offsetBytes >= this.windowStartBytes &&
      (endBytes <= windowEnd || (isAtSourceEnd && offsetBytes <= windowEnd))
    )
  }

  /**
   * Makes the window cover a read that it does not. A read that starts in the current window
   * and ends in the prefetched one is answered with a copy of just its bytes, which is
   * returned; the prefetched window then becomes current without being copied.
   */
  private async moveTo(offsetBytes: number, lengthBytes: number): Promise<Uint8Array | undefined> {
    const windowEnd = this.windowStartBytes + this.window.byteLength
    const next = this.next
    this.next = undefined
    let straddling: Uint8Array | undefined
    if (next && next.startBytes === windowEnd && offsetBytes >= this.windowStartBytes) {
      const nextBytes = await next.bytes
      const nextEnd = next.startBytes + nextBytes.byteLength
      const endBytes = Math.min(offsetBytes + lengthBytes, this.source.sizeBytes)
      if (offsetBytes < windowEnd && endBytes <= nextEnd) {
        straddling = new Uint8Array(endBytes - offsetBytes)
        straddling.set(this.window.subarray(offsetBytes - this.windowStartBytes))
        straddling.set(nextBytes.subarray(0, endBytes - windowEnd), windowEnd - offsetBytes)
      }
      this.window = nextBytes
      this.windowStartBytes = next.startBytes
    }
    if (!straddling && !this.covers(offsetBytes, offsetBytes + lengthBytes)) {
      this.window = await this.source.read(offsetBytes, Math.max(lengthBytes, this.windowSizeBytes))
      this.windowStartBytes = offsetBytes
    }
    const newEnd = this.windowStartBytes + this.window.byteLength
    if (newEnd < this.source.sizeBytes) {
      this.next = { startBytes: newEnd, bytes: this.source.read(newEnd, this.windowSizeBytes) }
      // A read-ahead that is never used must not surface as an unhandled rejection.
      this.next.bytes.catch(() => undefined)
    }
    return straddling
  }
}
