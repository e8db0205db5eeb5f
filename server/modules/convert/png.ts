import { zlibSync } from 'fflate'

// No node: imports on purpose: tools/pmtiles builds PNG tiles with this encoder inside browser
// tests too, so deflate comes from fflate and the CRC is computed here.

const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** CRC-32 (IEEE) table; built once because every chunk of every image needs it. */
const crcTable = (() => {
  const table = new Uint32Array(256)
  for (let value = 0; value < 256; value++) {
    let crc = value
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
    table[value] = crc >>> 0
  }
  return table
})()

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (let index = 0; index < bytes.length; index++) {
    crc = crcTable[(crc ^ bytes[index]!) & 0xff]! ^ (crc >>> 8)
  }
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const output = new Uint8Array(12 + data.byteLength)
  const view = new DataView(output.buffer)
  view.setUint32(0, data.byteLength)
  for (let index = 0; index < 4; index++) output[4 + index] = type.charCodeAt(index)
  output.set(data, 8)
  // The CRC covers the type and the data, not the length.
  view.setUint32(8 + data.byteLength, crc32(output.subarray(4, 8 + data.byteLength)))
  return output
}

/** How the pixel bytes given to {@link encodePng} are laid out: 8 bits per channel. */
export type PngPixelLayout = 'rgba' | 'rgb'

const channelsOf: Record<PngPixelLayout, { count: number; colorType: number }> = {
  rgba: { count: 4, colorType: 6 },
  rgb: { count: 3, colorType: 2 },
}

/**
 * Encodes 8-bit pixels (rows top to bottom, RGBA unless `layout` says RGB) as a PNG. The server
 * uses it to embed textures that glTF does not allow (TGA from DAE/FBX models) in a format every
 * browser decodes; tools/pmtiles uses it for generated raster tiles, in Node and in browsers.
 * Each row uses the PNG "Up" filter, which suits the smooth gradients of texture maps, turns
 * flat tiles into zeros, and costs one subtraction a byte.
 */
export function encodePng(
  pixels: Uint8Array,
  widthPixels: number,
  heightPixels: number,
  layout: PngPixelLayout = 'rgba',
): Uint8Array {
  const channels = channelsOf[layout]
  const rowBytes = widthPixels * channels.count
  if (pixels.byteLength !== rowBytes * heightPixels) {
    throw new Error(
      `expected ${rowBytes * heightPixels} ${layout.toUpperCase()} bytes, got ${pixels.byteLength}`,
    )
  }
  const header = new Uint8Array(13)
  const headerView = new DataView(header.buffer)
  headerView.setUint32(0, widthPixels)
  headerView.setUint32(4, heightPixels)
  header[8] = 8 // bits per channel
  header[9] = channels.colorType
  const filtered = new Uint8Array(heightPixels * (rowBytes + 1))
  for (let row = 0; row < heightPixels; row++) {
    const out = row * (rowBytes + 1)
    filtered[out] = 2
    const current = row * rowBytes
    const previous = current - rowBytes
    for (let column = 0; column < rowBytes; column++) {
      const above = row === 0 ? 0 : pixels[previous + column]!
      filtered[out + 1 + column] = (pixels[current + column]! - above) & 0xff
    }
  }
  const parts = [
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(filtered, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]
  const output = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    output.set(part, offset)
    offset += part.byteLength
  }
  return output
}
