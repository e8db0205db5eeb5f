import {
  GLB_CHUNK_BIN,
  GLB_CHUNK_HEADER_BYTES,
  GLB_CHUNK_JSON,
  GLB_HEADER_BYTES,
  GLB_MAGIC,
} from './glb'
import type { PostedBytesMessage } from './posted-bytes'

/**
 * The longest JSON chunk whose bytes the tap keeps while it looks for the BIN chunk's header;
 * past it the tap gives up (no copy is made, the decode worker decodes the BVHs as before).
 */
const MAX_JSON_BYTES = 16 * 2 ** 20

/**
 * Copies the tail of an SBM being downloaded — from the chunk after BIN (the BVH chunk, with its
 * chunk header) to the end of the file — to another thread as the bytes pass by (issue 23.2):
 * the picking worker decodes the stored BVHs from it on the second core while the decode worker
 * decodes the geometry. The downloading thread calls {@link take} with each chunk in order,
 * before it transfers the chunk away. Where the tail starts is read from the GLB and chunk
 * headers as they pass (no check beyond that: the receiver checks the chunk's type, and the
 * decode worker checks the whole file). `open` is called once, with the tail's length, when the
 * tail is found; a file whose headers are not GLB, or that ends with its BIN chunk, opens none.
 */
export class BvhChunkTap {
  private seenBytes = 0
  private head = new Uint8Array(GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES)
  private tailStart: number | null = null
  private hasGivenUp = false
  private port: MessagePort | null = null

  constructor(
    private readonly fileByteLength: number,
    private readonly open: (tailByteLength: number) => MessagePort,
  ) {}

  /** Takes the next chunk of the file (copied where it overlaps the tail; never kept). */
  take(chunk: Uint8Array): void {
    const chunkStart = this.seenBytes
    this.seenBytes += chunk.byteLength
    if (this.tailStart === null && !this.hasGivenUp) this.readHead(chunk, chunkStart)
    if (this.tailStart === null || !this.port) return
    const from = Math.max(this.tailStart, chunkStart)
    if (from >= this.seenBytes) return
    const bytes = chunk.slice(from - chunkStart).buffer
    this.port.postMessage({ kind: 'chunk', bytes } satisfies PostedBytesMessage, [bytes])
  }

  /** The download ended (an early end is the receiver's failure to report). */
  end(): void {
    this.port?.postMessage({ kind: 'end' } satisfies PostedBytesMessage)
    this.close()
  }

  /** The download failed. */
  fail(message: string): void {
    this.port?.postMessage({ kind: 'failed', message } satisfies PostedBytesMessage)
    this.close()
  }

  private close(): void {
    this.port?.close()
    this.port = null
    this.hasGivenUp = true
  }

  /**
   * Keeps the file's first bytes until the BIN chunk's header is in, then locates the tail. The
   * head grows once (to the JSON chunk's end) inside the call for the chunk that completed it,
   * so every earlier chunk lies wholly in the part already kept.
   */
  private readHead(chunk: Uint8Array, chunkStart: number): void {
    for (;;) {
      const want = this.head.byteLength
      if (chunkStart < want) {
        this.head.set(chunk.subarray(0, Math.min(chunk.byteLength, want - chunkStart)), chunkStart)
      }
      if (this.seenBytes < want) return
      const view = new DataView(this.head.buffer)
      if (want === GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES) {
        const jsonBytes = view.getUint32(GLB_HEADER_BYTES, true)
        if (
          view.getUint32(0, true) !== GLB_MAGIC ||
          view.getUint32(GLB_HEADER_BYTES + 4, true) !== GLB_CHUNK_JSON ||
          jsonBytes > MAX_JSON_BYTES
        ) {
          this.hasGivenUp = true
          return
        }
        const longer = new Uint8Array(want + jsonBytes + GLB_CHUNK_HEADER_BYTES)
        longer.set(this.head)
        this.head = longer
        continue
      }
      const binHeaderAt = want - GLB_CHUNK_HEADER_BYTES
      const tailStart = want + view.getUint32(binHeaderAt, true)
      if (
        view.getUint32(binHeaderAt + 4, true) !== GLB_CHUNK_BIN ||
        tailStart + GLB_CHUNK_HEADER_BYTES > this.fileByteLength
      ) {
        this.hasGivenUp = true
        return
      }
      this.tailStart = tailStart
      this.port = this.open(this.fileByteLength - tailStart)
      this.head = new Uint8Array(0)
      return
    }
  }
}
