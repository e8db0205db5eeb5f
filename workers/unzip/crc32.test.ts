import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { crc32, crc32Initial, finishCrc32, updateCrc32, updateCrc32Bytewise } from './crc32'
import { sampleBytes } from './zip-test-fixtures'

describe('crc32', () => {
  it('gives the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
    expect(crc32(new Uint8Array(0))).toBe(0)
  })

  it('agrees with the checksum fflate writes into zips, at every length and alignment', () => {
    for (let length = 0; length < 160; length += length < 80 ? 1 : 7) {
      const bytes = sampleBytes(length, length + 3)
      const zip = zipSync({ f: bytes })
      const stored = new DataView(zip.buffer).getUint32(14, true)
      expect(crc32(bytes)).toBe(stored)
      expect(finishCrc32(updateCrc32Bytewise(crc32Initial, bytes))).toBe(stored)
      const padded = new Uint8Array(length + 3)
      for (let offset = 1; offset <= 3; offset++) {
        padded.set(bytes, offset)
        expect(crc32(padded.subarray(offset, offset + length))).toBe(stored)
      }
    }
  })

  it('gives the same value fed in pieces as in one go', () => {
    const bytes = sampleBytes(100_003)
    let running = crc32Initial
    for (let start = 0; start < bytes.length; start += 4097) {
      running = updateCrc32(running, bytes.subarray(start, start + 4097))
    }
    expect(finishCrc32(running)).toBe(crc32(bytes))
  })
})
