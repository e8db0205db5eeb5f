import { crc32, inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { encodePng } from './png'

/**
 * Reads back what encodePng wrote, undoing the Up filter, to prove the pixels survive. Checks
 * every chunk's CRC against node:zlib's, an implementation independent of the encoder's.
 */
function decodeOwnPng(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  let offset = 8
  let width = 0
  let height = 0
  let colorType = -1
  const chunkTypes: string[] = []
  const idat: Uint8Array[] = []
  while (offset < png.byteLength) {
    const length = view.getUint32(offset)
    const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8))
    const data = png.subarray(offset + 8, offset + 8 + length)
    expect(view.getUint32(offset + 8 + length), `${type} CRC`).toBe(
      crc32(png.subarray(offset + 4, offset + 8 + length)),
    )
    chunkTypes.push(type)
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8)
      height = view.getUint32(offset + 12)
      expect(data[8]).toBe(8)
      colorType = data[9]!
    }
    if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0
  expect(channels).toBeGreaterThan(0)
  const rowBytes = width * channels
  const filtered = inflateSync(Buffer.concat(idat))
  const pixels = new Uint8Array(rowBytes * height)
  for (let row = 0; row < height; row++) {
    expect(filtered[row * (rowBytes + 1)]).toBe(2)
    for (let column = 0; column < rowBytes; column++) {
      const above = row === 0 ? 0 : pixels[(row - 1) * rowBytes + column]!
      pixels[row * rowBytes + column] =
        (filtered[row * (rowBytes + 1) + 1 + column]! + above) & 0xff
    }
  }
  return { width, height, channels, chunkTypes, pixels }
}

describe('encodePng', () => {
  it('writes an RGBA PNG whose pixels decode back unchanged', () => {
    const width = 7
    const height = 5
    const rgba = new Uint8Array(width * height * 4).map((_, index) => (index * 37) % 256)
    const png = encodePng(rgba, width, height)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const decoded = decodeOwnPng(png)
    expect(decoded.chunkTypes).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(decoded.width).toBe(width)
    expect(decoded.height).toBe(height)
    expect(decoded.channels).toBe(4)
    expect(decoded.pixels).toEqual(rgba)
  })

  it('writes an RGB PNG when asked, as raster map tiles use', () => {
    const width = 4
    const height = 6
    const rgb = new Uint8Array(width * height * 3).map((_, index) => (index * 91 + 13) % 256)
    const decoded = decodeOwnPng(encodePng(rgb, width, height, 'rgb'))
    expect(decoded.width).toBe(width)
    expect(decoded.height).toBe(height)
    expect(decoded.channels).toBe(3)
    expect(decoded.pixels).toEqual(rgb)
  })

  it('refuses a pixel buffer of the wrong size', () => {
    expect(() => encodePng(new Uint8Array(10), 2, 2)).toThrow(/expected 16 RGBA bytes/)
    expect(() => encodePng(new Uint8Array(16), 2, 2, 'rgb')).toThrow(/expected 12 RGB bytes/)
  })
})
