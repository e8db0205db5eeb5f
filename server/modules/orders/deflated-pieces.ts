import { type Readable, Transform } from 'node:stream'
import { constants, crc32, createDeflateRaw } from 'node:zlib'

/**
 * A deflated zip entry made of pieces deflated apart: each piece ends on a sync flush (a byte
 * boundary, no final block), so pieces can follow each other in one deflate stream and one piece
 * can be deflated once and copied into several entries (the POI list in pois.json and inside the
 * viewer's data.js). {@link finalBlock} ends the stream. Each piece is deflated at zip's level 6;
 * it starts without the previous piece's window, which costs a few bytes at each seam.
 */

/** What a piece holds before deflating: its CRC-32 and length, as the zip's records need them. */
export interface PieceSum {
  crc32: number
  size: number
}

/** An empty final block (fixed Huffman codes, BFINAL set, end-of-block): ends a deflate stream. */
export const finalBlock = Buffer.from([0x03, 0x00])

/** Zip's compression level for the files it deflates (`zip -6`, its default). */
export const zipDeflateLevel = 6

/**
 * `source` deflated as one piece: the deflated bytes, and once they have all been read, what the
 * source held (`sum`). A failing source fails the deflated stream.
 */
export function deflatePiece(source: Readable): { deflated: Readable; sum: Promise<PieceSum> } {
  const sum: PieceSum = { crc32: 0, size: 0 }
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      sum.crc32 = crc32(chunk, sum.crc32)
      sum.size += chunk.byteLength
      next(null, chunk)
    },
  })
  const deflate = createDeflateRaw({
    level: zipDeflateLevel,
    finishFlush: constants.Z_SYNC_FLUSH,
  })
  source.on('error', (error) => deflate.destroy(error))
  counting.on('error', (error) => deflate.destroy(error))
  // a reader that stops early (a failed or stopped build) closes the source too
  deflate.on('close', () => {
    source.destroy()
    counting.destroy()
  })
  source.pipe(counting).pipe(deflate)
  const summed = new Promise<PieceSum>((resolve, reject) => {
    deflate.on('end', () => resolve(sum))
    deflate.on('error', reject)
  })
  summed.catch(() => {})
  return { deflated: deflate, sum: summed }
}

/**
 * The CRC-32 of two byte runs one after the other, from each run's CRC-32 and the second's
 * length (zlib's crc32_combine: multiplying by x^(8·length) in GF(2), by repeated squaring), so a
 * piece deflated once needs no second read of its bytes to be checksummed inside another entry.
 */
export function crc32Combine(first: number, second: number, secondLength: number): number {
  if (secondLength <= 0) return first >>> 0
  const times = (matrix: Uint32Array, vector: number) => {
    let sum = 0
    for (let row = 0; vector !== 0; row++, vector >>>= 1) {
      if (vector & 1) sum ^= matrix[row]!
    }
    return sum >>> 0
  }
  const square = (target: Uint32Array, matrix: Uint32Array) => {
    for (let row = 0; row < 32; row++) target[row] = times(matrix, matrix[row]!)
  }
  const even = new Uint32Array(32)
  const odd = new Uint32Array(32)
  // the operator for one zero bit
  odd[0] = 0xedb88320
  for (let row = 1; row < 32; row++) odd[row] = 1 << (row - 1)
  square(even, odd) // two zero bits
  square(odd, even) // four zero bits
  let crc = first >>> 0
  let length = secondLength
  // apply length zero bytes to the first CRC: one squaring per bit of length
  for (;;) {
    square(even, odd)
    if (length % 2 === 1) crc = times(even, crc)
    length = Math.floor(length / 2)
    if (length === 0) break
    square(odd, even)
    if (length % 2 === 1) crc = times(odd, crc)
    length = Math.floor(length / 2)
    if (length === 0) break
  }
  return (crc ^ second) >>> 0
}

/** The sum of several pieces one after the other. */
export function sumOfPieces(sums: readonly PieceSum[]): PieceSum {
  let total: PieceSum = { crc32: 0, size: 0 }
  for (const sum of sums) {
    total = { crc32: crc32Combine(total.crc32, sum.crc32, sum.size), size: total.size + sum.size }
  }
  return total
}
