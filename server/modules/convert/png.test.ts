import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { encodePng } from './png'

/** Reads back what encodePng wrote, undoing the Up filter, to prove the pixels survive. */
function decodeOwnPng(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  let offset = 8
  let width = 0
  let height = 0
  const idat: Uint8Array[] = []
  while (offset < png.byteLength) {
    const length = view.getUint32(offset)
    const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8))
    const data = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8)
      height = view.getUint32(offset + 12)
    }
    if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  const filtered = inflateSync(Buffer.concat(idat))
  const pixels = new Uint8Array(width * height * 4)
  for (let row = 0; row < height; row++) {
    expect(filtered[row * (width * 4 + 1)]).toBe(2)
    for (let column = 0; column < width * 4; column++) {
      const above = row === 0 ? 0 : pixels[(row - 1) * width * 4 + column]!
      pixels[row * width * 4 + column] =
        (filtered[row * (width * 4 + 1) + 1 + column]! + above) & 0xff
    }
  }
  return { width, height, pixels }
}

describe('encodePng', () => {
  it('writes a PNG whose pixels decode back unchanged', () => {
    const width = 7
    const height = 5
    const rgba = new Uint8Array(width * height * 4).map((_, index) => (index * 37) % 256)
    const png = encodePng(rgba, width, height)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const decoded = decodeOwnPng(png)
    expect(decoded.width).toBe(width)
    expect(decoded.height).toBe(height)
    expect(decoded.pixels).toEqual(rgba)
  })

  it('refuses a pixel buffer of the wrong size', () => {
    expect(() => encodePng(new Uint8Array(10), 2, 2)).toThrow(/expected 16 RGBA bytes/)
  })
})
