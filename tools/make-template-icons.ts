/**
 * Draws the seeded 2D template icons (server/resources/template-icons/*.png): 64 × 64 PNGs of a
 * coloured disc with a white glyph, made from simple shapes so they carry no third-party
 * licence. Run `npx tsx tools/make-template-icons.ts` after changing a shape.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'

const size = 64
type Shape = (x: number, y: number) => boolean

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const out = Buffer.alloc(body.length + 8)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), body.length + 4)
  return out
}

function png(color: [number, number, number], glyph: Shape): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size)
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 4 + 1)] = 0
    for (let x = 0; x < size; x += 1) {
      const at = y * (size * 4 + 1) + 1 + x * 4
      const inside = (x - 31.5) ** 2 + (y - 31.5) ** 2 <= 30 ** 2
      const [r, g, b] = glyph(x, y) ? [255, 255, 255] : color
      raw[at] = r
      raw[at + 1] = g
      raw[at + 2] = b
      raw[at + 3] = inside ? 255 : 0
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 6, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ])
}

const box =
  (x0: number, y0: number, x1: number, y1: number): Shape =>
  (x, y) =>
    x >= x0 && x <= x1 && y >= y0 && y <= y1
const disc =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r
const any =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    shapes.some((shape) => shape(x, y))

const icons: Record<string, [[number, number, number], Shape]> = {
  // a camera body with a lens to the right
  camera: [
    [37, 99, 235],
    any(
      box(14, 24, 40, 40),
      (x, y) => x >= 40 && x <= 50 && Math.abs(y - 32) <= (x - 40) * 0.8 + 2,
    ),
  ],
  // a thermometer
  sensor: [[5, 150, 105], any(box(29, 14, 35, 40), disc(32, 44, 7))],
  // an extinguisher: a tall body, a head and a hose
  'fire-extinguisher': [
    [220, 38, 38],
    any(box(25, 22, 39, 50), box(29, 15, 35, 21), box(36, 15, 45, 18)),
  ],
  // a smoke detector: a disc with a ring of dots
  'smoke-detector': [
    [217, 119, 6],
    any(
      disc(32, 32, 9),
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((k) =>
        disc(32 + 16 * Math.cos((k * Math.PI) / 4), 32 + 16 * Math.sin((k * Math.PI) / 4), 2.5),
      ),
    ),
  ],
  // a light bulb
  light: [[202, 138, 4], any(disc(32, 27, 11), box(27, 36, 37, 46))],
}

const folder = join(import.meta.dirname, '../server/resources/template-icons')
for (const [name, [color, glyph]] of Object.entries(icons)) {
  writeFileSync(join(folder, `${name}.png`), png(color, glyph))
}
console.log(`wrote ${Object.keys(icons).length} icons to ${folder}`)
