import { inflateSync } from 'node:zlib'
import { expect, type Locator } from '@playwright/test'

/** Decoded RGBA pixels of a PNG, row by row from the top. */
export interface RgbaImage {
  width: number
  height: number
  data: Uint8Array
}

/**
 * Decodes a screenshot PNG (8-bit RGB or RGBA, not interlaced, as Chromium writes them) here in
 * Node. Reading pixels back inside the page (an image drawn into a 2D canvas) needs the page's
 * GPU process, which under load sometimes stalled for minutes; the screenshot alone does not.
 */
export function decodePng(png: Uint8Array): RgbaImage {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  let offset = 8
  let width = 0
  let height = 0
  let colourType = 0
  const idat: Uint8Array[] = []
  while (offset < png.length) {
    const length = view.getUint32(offset)
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8))
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8)
      height = view.getUint32(offset + 12)
      const bitDepth = body[8]
      colourType = body[9] ?? 0
      if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || body[12] !== 0)
        throw new Error(`Unsupported PNG: depth ${bitDepth}, colour type ${colourType}`)
    } else if (type === 'IDAT') idat.push(body)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const channels = colourType === 6 ? 4 : 3
  const stride = width * channels
  const rows = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? rows[y * stride + x - channels]! : 0
      const up = y > 0 ? rows[(y - 1) * stride + x]! : 0
      const upLeft = x >= channels && y > 0 ? rows[(y - 1) * stride + x - channels]! : 0
      let predicted = 0
      if (filter === 1) predicted = left
      else if (filter === 2) predicted = up
      else if (filter === 3) predicted = (left + up) >> 1
      else if (filter === 4) {
        const estimate = left + up - upLeft
        const toLeft = Math.abs(estimate - left)
        const toUp = Math.abs(estimate - up)
        const toUpLeft = Math.abs(estimate - upLeft)
        predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft
      }
      rows[y * stride + x] = (line[x]! + predicted) & 255
    }
  }
  if (channels === 4) return { width, height, data: rows }
  const data = new Uint8Array(width * height * 4)
  for (let pixel = 0; pixel < width * height; pixel++) {
    data[pixel * 4] = rows[pixel * 3]!
    data[pixel * 4 + 1] = rows[pixel * 3 + 1]!
    data[pixel * 4 + 2] = rows[pixel * 3 + 2]!
    data[pixel * 4 + 3] = 255
  }
  return { width, height, data }
}

/**
 * The share of pixels that differ clearly (summed RGB distance above 30) between two
 * screenshots of the same element: the picture changed where a person would see it.
 */
export function changedPixelShare(before: Uint8Array, after: Uint8Array): number {
  const a = decodePng(before)
  const b = decodePng(after)
  if (a.width !== b.width || a.height !== b.height) return 1
  let changed = 0
  for (let index = 0; index < a.data.length; index += 4) {
    const distance =
      Math.abs(a.data[index]! - b.data[index]!) +
      Math.abs(a.data[index + 1]! - b.data[index + 1]!) +
      Math.abs(a.data[index + 2]! - b.data[index + 2]!)
    if (distance > 30) changed++
  }
  return changed / Math.max(1, a.width * a.height)
}

/**
 * An element as the compositor shows it (a canvas or a map: the engines keep no drawing buffer),
 * decoded here in Node. No frame is forced: the engine must have drawn every change on its own.
 */
export async function elementPixels(element: Locator): Promise<RgbaImage> {
  return decodePng(await element.screenshot())
}

/**
 * The element once it stopped changing (two captures in a row alike): a selection ring, a hover
 * or a map tile drawn a frame later does not count as the change a step is about to make.
 */
export async function settledPixels(element: Locator): Promise<RgbaImage> {
  let last = await elementPixels(element)
  await expect
    .poll(async () => {
      const next = await elementPixels(element)
      const isSame = Buffer.from(next.data).equals(Buffer.from(last.data))
      last = next
      return isSame
    })
    .toBe(true)
  return last
}

/** How many pixels within `radius` of (x, y) differ clearly between two captures. */
export function changedNear(
  before: RgbaImage,
  after: RgbaImage,
  x: number,
  y: number,
  radius = 6,
): number {
  let changed = 0
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const offset = ((Math.round(y) + dy) * before.width + Math.round(x) + dx) * 4
      const difference =
        Math.abs((before.data[offset] ?? 0) - (after.data[offset] ?? 0)) +
        Math.abs((before.data[offset + 1] ?? 0) - (after.data[offset + 1] ?? 0)) +
        Math.abs((before.data[offset + 2] ?? 0) - (after.data[offset + 2] ?? 0))
      if (difference > 30) changed++
    }
  }
  return changed
}

/** Part of an image as shares (0–1) of its width and height, from its top left corner. */
export interface ImageBand {
  left: number
  right: number
  top: number
  bottom: number
}

/** The mean colour (r, g, b 0–255) of a band of an image. */
export function meanColour(image: RgbaImage, band: ImageBand): [number, number, number] {
  const columns = [Math.floor(band.left * image.width), Math.ceil(band.right * image.width)]
  const rows = [Math.floor(band.top * image.height), Math.ceil(band.bottom * image.height)]
  const sum = [0, 0, 0]
  let count = 0
  for (let y = rows[0]!; y < Math.min(rows[1]!, image.height); y++) {
    for (let x = columns[0]!; x < Math.min(columns[1]!, image.width); x++) {
      const offset = (y * image.width + x) * 4
      for (let channel = 0; channel < 3; channel++) sum[channel]! += image.data[offset + channel]!
      count++
    }
  }
  return sum.map((value) => Math.round(value / Math.max(1, count))) as [number, number, number]
}
