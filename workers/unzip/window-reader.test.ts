import { describe, expect, it } from 'vitest'
import { type ArchiveSource, toArchiveSource } from './archive-source'
import { WindowReader } from './window-reader'
import { ZipError } from './zip-errors'
import { sampleBytes } from './zip-test-fixtures'

function countingSource(bytes: Uint8Array) {
  const inner = toArchiveSource(bytes)
  const reads: [number, number][] = []
  const source: ArchiveSource = {
    sizeBytes: inner.sizeBytes,
    read: (offset, length) => {
      reads.push([offset, length])
      return inner.read(offset, length)
    },
  }
  return { source, reads }
}

describe('WindowReader', () => {
  const bytes = sampleBytes(10_000, 5)

  it('returns the requested bytes for forward reads that straddle windows', async () => {
    const { source, reads } = countingSource(bytes)
    const reader = new WindowReader(source, 1000)
    let offset = 0
    for (let step = 1; offset < bytes.length; step = (step * 7 + 3) % 900) {
      const length = Math.min(step + 1, bytes.length - offset)
      const chunk = await reader.readExactly(offset, length)
      expect(chunk.byteLength).toBe(length)
      expect(chunk.every((byte, index) => byte === bytes[offset + index])).toBe(true)
      offset += length
    }
    // Each window is fetched once, one ahead of use: the bytes read add up to the file.
    const bytesRead = reads.reduce(
      (sum, [start, length]) => sum + Math.min(length, bytes.length - start),
      0,
    )
    expect(bytesRead).toBeLessThanOrEqual(bytes.length + 1000)
  })

  it('serves requests larger than a window and jumps backwards or far ahead', async () => {
    const reader = new WindowReader(toArchiveSource(bytes), 1000)
    expect(await reader.readExactly(100, 5000)).toEqual(bytes.subarray(100, 5100))
    expect(await reader.readExactly(9000, 10)).toEqual(bytes.subarray(9000, 9010))
    expect(await reader.readExactly(3, 4)).toEqual(bytes.subarray(3, 7))
  })

  it('reports an archive that ends inside a read as truncated', async () => {
    const reader = new WindowReader(toArchiveSource(bytes), 1000)
    expect((await reader.read(9990, 50)).byteLength).toBe(10)
    const failure = await reader.readExactly(9990, 50).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ZipError)
    expect((failure as ZipError).code).toBe('archive.truncated')
  })
})
