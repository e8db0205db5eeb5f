import { zlibSync } from 'fflate'

const pngSignature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** CRC-32 (IEEE) table; built once because every chunk of every tile needs it. */
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
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const output = new Uint8Array(12 + data.byteLength)
  const view = new DataView(output.buffer)
  view.setUint32(0, data.byteLength)
  for (let index = 0; index < 4; index++) output[4 + index] = type.charCodeAt(index)
  output.set(data, 8)
  // The CRC covers the chunk type and data, not the length.
  view.setUint32(8 + data.byteLength, crc32(output.subarray(4, 8 + data.byteLength)))
  return output
}

/**
 * Encodes 8-bit RGB pixels (rows top to bottom) as a PNG. Unlike the server's encoder
 * (server/modules/convert/png.ts, node:zlib) this one runs in a browser too, so a browser test
 * can build its own PMTiles archive. No row filter: the tiles it serves are flat colours, which
 * deflate compresses to a few bytes anyway.
 */
export function encodeRgbPng(
  rgb: Uint8Array,
  widthPixels: number,
  heightPixels: number,
): Uint8Array {
  if (rgb.byteLength !== widthPixels * heightPixels * 3) {
    throw new Error(`expected ${widthPixels * heightPixels * 3} RGB bytes, got ${rgb.byteLength}`)
  }
  const header = new Uint8Array(13)
  const headerView = new DataView(header.buffer)
  headerView.setUint32(0, widthPixels)
  headerView.setUint32(4, heightPixels)
  header[8] = 8 // bits per channel
  header[9] = 2 // colour type: RGB
  const rowBytes = widthPixels * 3
  const scanlines = new Uint8Array(heightPixels * (rowBytes + 1))
  for (let row = 0; row < heightPixels; row++) {
    // filter byte 0 ("None") stays as the array's zero
    scanlines.set(rgb.subarray(row * rowBytes, (row + 1) * rowBytes), row * (rowBytes + 1) + 1)
  }
  const parts = [
    pngSignature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlibSync(scanlines, { level: 9 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]
  const output = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    output.set(part, offset)
    offset += part.byteLength
  }
  return output
}
