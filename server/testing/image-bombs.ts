import { once } from 'node:events'
import { crc32, createDeflate, deflateSync } from 'node:zlib'

/**
 * Hostile images for the bomb tests, made in memory so nothing large is committed: headers that
 * lie about their size, and real decompression bombs (deflate, TGA run-length) that are small on
 * the wire and enormous once decoded. Test-only.
 */

function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(12 + data.byteLength)
  out.writeUInt32BE(data.byteLength, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), 8 + data.byteLength)
  return out
}

function png(width: number, height: number, colorType: number, idat: Uint8Array): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width >>> 0, 0)
  header.writeUInt32BE(height >>> 0, 4)
  header[8] = 8
  header[9] = colorType
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', new Uint8Array(0)),
  ])
}

/** A PNG of a few hundred bytes whose IHDR claims `width × height` RGBA pixels. */
export function pngClaiming(width: number, height: number): Buffer {
  return png(width, height, 6, deflateSync(Buffer.alloc(64)))
}

/**
 * A real deflate bomb: a complete greyscale PNG of `side × side` zero pixels whose IDAT inflates
 * to side × (side + 1) bytes (268 MB for 16,384) from about a thousandth of that.
 */
export async function pngDeflateBomb(side: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 })
  const parts: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => parts.push(chunk))
  const rows = Buffer.alloc((side + 1) * 64)
  for (let row = 0; row < side; row += 64) {
    if (!deflate.write(rows)) await once(deflate, 'drain')
  }
  deflate.end()
  await once(deflate, 'end')
  return png(side, side, 0, Buffer.concat(parts))
}

/** A baseline JPEG whose SOF0 claims `width × height` (at most 65,535 each), with no scan data. */
export function jpegClaiming(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
    0x00, 0x00,
  ])
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0, 0, 0, 0, 0x01, 0x01, 0x11, 0x00])
  sof.writeUInt16BE(height, 5)
  sof.writeUInt16BE(width, 7)
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])])
}

/**
 * A run-length TGA (type 10, 32-bit) of `side × side` pixels, every packet 128 repeats of one
 * pixel: 5 bytes per 128 pixels, so 16,384² is ~10 MB that decodes to 1 GiB of RGBA.
 */
export function tgaRleBomb(side: number): Buffer {
  const header = Buffer.alloc(18)
  header[2] = 10
  header.writeUInt16LE(side, 12)
  header.writeUInt16LE(side, 14)
  header[16] = 32
  header[17] = 0x28
  const packets = Math.ceil((side * side) / 128)
  const body = Buffer.alloc(packets * 5)
  for (let offset = 0; offset < body.length; offset += 5) {
    body[offset] = 0xff
    body[offset + 1] = 0x80
    body[offset + 4] = 0xff
  }
  return Buffer.concat([header, body])
}

/** Resident memory of this process in MiB (worker threads included). */
export function residentMiB(): number {
  return process.memoryUsage().rss / (1024 * 1024)
}
