import { crc32, deflateSync } from 'node:zlib'

const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

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

/**
 * Encodes 8-bit RGBA pixels (rows top to bottom) as a PNG. Used to embed textures that glTF does
 * not allow (TGA from DAE/FBX models) in a format every browser decodes. Each row uses the PNG
 * "Up" filter, which suits the smooth gradients of texture maps and costs one subtraction a byte.
 */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  if (rgba.byteLength !== width * height * 4) {
    throw new Error(`expected ${width * height * 4} RGBA bytes, got ${rgba.byteLength}`)
  }
  const header = new Uint8Array(13)
  const headerView = new DataView(header.buffer)
  headerView.setUint32(0, width)
  headerView.setUint32(4, height)
  header[8] = 8 // bits per channel
  header[9] = 6 // colour type RGBA
  const rowBytes = width * 4
  const filtered = new Uint8Array(height * (rowBytes + 1))
  for (let row = 0; row < height; row++) {
    const out = row * (rowBytes + 1)
    filtered[out] = 2
    const current = row * rowBytes
    const previous = current - rowBytes
    for (let column = 0; column < rowBytes; column++) {
      const above = row === 0 ? 0 : rgba[previous + column]!
      filtered[out + 1 + column] = (rgba[current + column]! - above) & 0xff
    }
  }
  const parts = [
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(filtered, { level: 9 })),
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
