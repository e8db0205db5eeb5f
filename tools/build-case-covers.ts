/**
 * Draws the cover images of the two seeded project cases (server/resources/cases/*.png):
 * flat illustrations of a city skyline and of a house, so the case gallery has covers without
 * shipping third-party pictures. Deterministic; run `npx tsx tools/build-case-covers.ts`.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'

type Rgb = [number, number, number]

/** A canvas of RGB pixels with the few drawing operations the covers need. */
class Picture {
  readonly pixels: Uint8Array
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height * 3)
  }
  set(x: number, y: number, color: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return
    this.pixels.set(color, (y * this.width + x) * 3)
  }
  verticalGradient(top: Rgb, bottom: Rgb): void {
    for (let y = 0; y < this.height; y++) {
      const t = y / (this.height - 1)
      const color = top.map((value, index) =>
        Math.round(value + (bottom[index]! - value) * t),
      ) as Rgb
      for (let x = 0; x < this.width; x++) this.set(x, y, color)
    }
  }
  rectangle(x0: number, y0: number, x1: number, y1: number, color: Rgb): void {
    for (let y = Math.max(0, y0); y < Math.min(this.height, y1); y++) {
      for (let x = Math.max(0, x0); x < Math.min(this.width, x1); x++) this.set(x, y, color)
    }
  }
  /** A filled triangle with a horizontal base from (x0, baseY) to (x1, baseY) and an apex. */
  roof(x0: number, x1: number, baseY: number, apexX: number, apexY: number, color: Rgb): void {
    for (let y = apexY; y <= baseY; y++) {
      const t = (y - apexY) / (baseY - apexY)
      const left = Math.round(apexX + (x0 - apexX) * t)
      const right = Math.round(apexX + (x1 - apexX) * t)
      for (let x = left; x <= right; x++) this.set(x, y, color)
    }
  }
  toPng(): Buffer {
    const rowBytes = this.width * 3 + 1
    const raw = Buffer.alloc(rowBytes * this.height)
    for (let y = 0; y < this.height; y++) {
      raw[y * rowBytes] = 0 // filter: none
      raw.set(this.pixels.subarray(y * this.width * 3, (y + 1) * this.width * 3), y * rowBytes + 1)
    }
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4)
      length.writeUInt32BE(data.length)
      const typed = Buffer.concat([Buffer.from(type, 'ascii'), data])
      const checksum = Buffer.alloc(4)
      checksum.writeUInt32BE(crc32(typed))
      return Buffer.concat([length, typed, checksum])
    }
    const header = Buffer.alloc(13)
    header.writeUInt32BE(this.width, 0)
    header.writeUInt32BE(this.height, 4)
    header[8] = 8 // bit depth
    header[9] = 2 // truecolour
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ])
  }
}

/** A small deterministic random sequence, so the skyline is the same on every run. */
function sequence(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
}

function cityCover(): Buffer {
  const picture = new Picture(640, 640)
  picture.verticalGradient([18, 42, 84], [120, 170, 220])
  const random = sequence(7)
  for (const [layerColor, baseHeight, seedShift] of [
    [[46, 70, 110], 180, 0],
    [[28, 44, 74], 120, 1],
  ] as const) {
    let x = -10
    while (x < 640) {
      const width = 30 + Math.floor(random() * 60)
      const height = baseHeight + Math.floor(random() * 240) - seedShift * 40
      picture.rectangle(x, 640 - height, x + width - 4, 640, layerColor as Rgb)
      for (let wy = 640 - height + 12; wy < 620; wy += 18) {
        for (let wx = x + 6; wx < x + width - 12; wx += 12) {
          if (random() > 0.45) picture.rectangle(wx, wy, wx + 6, wy + 9, [250, 214, 120])
        }
      }
      x += width
    }
  }
  return picture.toPng()
}

function buildingCover(): Buffer {
  const picture = new Picture(640, 640)
  picture.verticalGradient([170, 210, 240], [236, 244, 250])
  picture.rectangle(0, 520, 640, 640, [120, 170, 96])
  picture.rectangle(150, 300, 490, 530, [236, 226, 206])
  picture.roof(120, 520, 300, 320, 150, [168, 64, 48])
  picture.rectangle(290, 410, 350, 530, [110, 76, 52])
  for (const x of [180, 390]) {
    picture.rectangle(x, 350, x + 70, 420, [90, 140, 190])
    picture.rectangle(x + 33, 350, x + 37, 420, [236, 226, 206])
    picture.rectangle(x, 383, x + 70, 387, [236, 226, 206])
  }
  return picture.toPng()
}

const folder = resolve(import.meta.dirname, '../server/resources/cases')
writeFileSync(join(folder, 'city-cover.png'), cityCover())
writeFileSync(join(folder, 'building-cover.png'), buildingCover())
console.log(`covers written to ${folder}`)
