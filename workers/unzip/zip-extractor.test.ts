import { readFileSync } from 'node:fs'
import { unzipSync } from 'fflate'
import { describe, expect, it, vi } from 'vitest'
import { toArchiveSource } from './archive-source'
import { extractedFileBytes, findExtractedFile } from './extracted-archive'
import { type ExtractProgress, extractArchive, extractEntries } from './zip-extractor'
import { readArchiveDirectory } from './zip-reader'
import { ZipError } from './zip-errors'
import { meshText, patchCentralRecord, sampleBytes, zip64Of, zipOf } from './zip-test-fixtures'

const sharedZips = new URL('../../../shared/data/zip/', import.meta.url)
const readShared = (path: string) => new Uint8Array(readFileSync(new URL(path, sharedZips)))

async function errorCodeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work
  } catch (error) {
    if (error instanceof ZipError) return error.code
    throw error
  }
  throw new Error('expected the extraction to fail')
}

/** Byte equality without vitest's element-by-element diff, which takes seconds on megabytes. */
function expectSameBytes(actual: Uint8Array | undefined, expected: Uint8Array | undefined) {
  expect(actual).toBeDefined()
  expect(actual!.byteLength).toBe(expected!.byteLength)
  const firstDifference = actual!.findIndex((byte, index) => byte !== expected![index])
  expect(firstDifference).toBe(-1)
}

describe('extractArchive', () => {
  const small = 'hello, twin'
  const medium = sampleBytes(40_000, 7)
  const large = sampleBytes(1_500_000, 9) // several chunks when inflated in chunks
  const files = {
    'readme.txt': small,
    'mesh/part.bin': medium,
    'mesh/big.bin': large,
    'empty.txt': '',
    'mesh/': new Uint8Array(0),
  }

  it('extracts every file byte for byte, deflated or stored, from bytes or a Blob, in one call or in chunks', async () => {
    for (const zip of [zipOf(files), zipOf(files, 0)]) {
      for (const [input, chunkedAboveCompressedBytes] of [
        [zip, undefined],
        [new Blob([zip]), 0],
      ] as const) {
        const archive = await extractArchive(input, { chunkedAboveCompressedBytes })
        expect(archive.files.map((file) => file.name)).toEqual([
          'readme.txt',
          'mesh/part.bin',
          'mesh/big.bin',
          'empty.txt',
        ])
        expect(new TextDecoder().decode(findExtractedFile(archive, 'readme.txt'))).toBe(small)
        expectSameBytes(findExtractedFile(archive, 'mesh/part.bin'), medium)
        expectSameBytes(findExtractedFile(archive, 'mesh/big.bin'), large)
        expectSameBytes(findExtractedFile(archive, 'empty.txt'), new Uint8Array(0))
        expect(archive.totalSizeBytes).toBe(small.length + medium.length + large.length)
      }
    }
  })

  it('packs files into few buffers, 8-byte aligned, giving oversized files their own', async () => {
    const many: Record<string, Uint8Array> = {}
    for (let index = 0; index < 200; index++)
      many[`tiles/${index}.b3dm`] = sampleBytes(1001 + index, index)
    many['huge.bin'] = sampleBytes(300_000)
    const archive = await extractArchive(zipOf(many), { packSizeBytes: 100_000 })
    expect(archive.packs.length).toBeLessThan(10)
    const huge = archive.files.find((file) => file.name === 'huge.bin')!
    expect(archive.files.filter((file) => file.packIndex === huge.packIndex)).toHaveLength(1)
    for (const file of archive.files) {
      expect(file.byteOffset % 8).toBe(0)
      expectSameBytes(extractedFileBytes(archive, file), many[file.name])
    }
    for (const pack of archive.packs.slice(0, -1)) {
      expect(pack.byteLength).toBeLessThanOrEqual(Math.max(100_000, 300_001))
    }
  })

  it('extracts only the named files and folders', async () => {
    const archive = await extractArchive(zipOf(files), { names: ['mesh/', 'readme.txt'] })
    expect(archive.files.map((file) => file.name).sort()).toEqual([
      'mesh/big.bin',
      'mesh/part.bin',
      'readme.txt',
    ])
    expect(await errorCodeOf(extractArchive(zipOf(files), { names: ['missing.glb'] }))).toBe(
      'archive.entryNotFound',
    )
  })

  it('extracts real uploads exactly as fflate.unzipSync does', async () => {
    for (const path of [
      'derived/tileset-request-volume-nested.zip',
      'derived/convert-duck-dae.zip',
    ]) {
      const zip = readShared(path)
      const expected = unzipSync(zip)
      const archive = await extractArchive(new Blob([zip]))
      expect(archive.files.map((file) => file.name).sort()).toEqual(Object.keys(expected).sort())
      for (const file of archive.files)
        expectSameBytes(extractedFileBytes(archive, file), expected[file.name])
    }
    const duck = await extractArchive(readShared('derived/model-duck-glb.zip'))
    expect(new TextDecoder().decode(findExtractedFile(duck, 'Duck.glb')!.subarray(0, 4))).toBe(
      'glTF',
    )
  })

  it('extracts a zip64 archive', async () => {
    const content = sampleBytes(300)
    const archive = await extractArchive(zip64Of('big/scene.bin', content))
    expectSameBytes(findExtractedFile(archive, 'big/scene.bin'), content)
  })

  it('reports monotonic progress that ends at the total, throttled by the interval', async () => {
    const zip = zipOf(files)
    const unthrottled: ExtractProgress[] = []
    await extractArchive(zip, {
      onProgress: (progress) => unthrottled.push(progress),
      progressIntervalMs: 0,
    })
    expect(unthrottled.length).toBeGreaterThan(4)
    for (let index = 1; index < unthrottled.length; index++) {
      expect(unthrottled[index]!.doneBytes).toBeGreaterThanOrEqual(
        unthrottled[index - 1]!.doneBytes,
      )
    }
    expect(unthrottled.at(-1)).toEqual({
      doneBytes: small.length + medium.length + large.length,
      totalBytes: small.length + medium.length + large.length,
      doneEntries: 4,
      totalEntries: 4,
    })
    const throttled: ExtractProgress[] = []
    await extractArchive(zip, {
      onProgress: (progress) => throttled.push(progress),
      progressIntervalMs: 1e9,
    })
    expect(throttled.map((progress) => progress.doneEntries)).toEqual([0, 4])
  })

  it('stops when aborted, between chunks, including by a message from another task', async () => {
    const zip = zipOf({ 'a.obj': meshText(250_000), 'b.obj': meshText(250_000) })
    const aborted = new AbortController()
    aborted.abort()
    expect(await errorCodeOf(extractArchive(zip, { signal: aborted.signal }))).toBe(
      'archive.aborted',
    )

    const controller = new AbortController()
    const seen: ExtractProgress[] = []
    const extraction = extractArchive(zip, {
      signal: controller.signal,
      progressIntervalMs: 0,
      chunkedAboveCompressedBytes: 0,
      onProgress: (progress) => {
        // Abort from a separate task, as a message from another thread would arrive.
        if (seen.push(progress) === 1) setTimeout(() => controller.abort(), 0)
      },
    })
    expect(await errorCodeOf(extraction)).toBe('archive.aborted')
    expect(seen.at(-1)!.doneEntries).toBe(0)
  })

  it('stops between entries inflated in one call', async () => {
    const many: Record<string, string> = {}
    for (let index = 0; index < 40; index++) many[`part-${index}.obj`] = meshText(20_000 + index)
    const controller = new AbortController()
    const seen: ExtractProgress[] = []
    const extraction = extractArchive(zipOf(many), {
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (progress) => {
        if (seen.push(progress) === 1) setTimeout(() => controller.abort(), 0)
      },
    })
    expect(await errorCodeOf(extraction)).toBe('archive.aborted')
    expect(seen.at(-1)!.doneEntries).toBeLessThan(40)
  })

  it('catches entries that expand beyond their declared size while inflating (forged bombs)', async () => {
    const zip = zipOf({ 'small.bin': medium, 'large.bin': large })
    const cases = [
      ['small.bin', medium.length],
      ['large.bin', large.length],
    ] as const
    for (const chunkedAboveCompressedBytes of [undefined, 0]) {
      for (const [name, realSize] of cases) {
        const forged = patchCentralRecord(zip, name, { uncompressedSizeBytes: realSize - 1000 })
        expect(await errorCodeOf(extractArchive(forged, { chunkedAboveCompressedBytes }))).toBe(
          'archive.corrupt',
        )
        const inflated = patchCentralRecord(zip, name, { uncompressedSizeBytes: realSize + 1000 })
        expect(await errorCodeOf(extractArchive(inflated, { chunkedAboveCompressedBytes }))).toBe(
          'archive.corrupt',
        )
      }
    }
  })

  it("inflates large entries with the platform's zlib, which checks their checksums too", async () => {
    const formats: string[] = []
    const Native = globalThis.DecompressionStream
    vi.stubGlobal(
      'DecompressionStream',
      class extends Native {
        constructor(format: CompressionFormat) {
          super(format)
          formats.push(format)
        }
      },
    )
    try {
      const zip = zipOf(files)
      const archive = await extractArchive(zip)
      expectSameBytes(findExtractedFile(archive, 'mesh/big.bin'), large)
      expectSameBytes(findExtractedFile(archive, 'mesh/part.bin'), medium)
      // the big entry only (above 64 KiB compressed; maybe one more for the format probe),
      // framed as gzip so that zlib checks its CRC
      expect(formats.length).toBeGreaterThanOrEqual(1)
      expect(formats.length).toBeLessThanOrEqual(2)
      expect(new Set(formats)).toEqual(new Set(['gzip']))
      // a wrong checksum or size on such an entry is still named as such (fflate says why)
      const forged = patchCentralRecord(zip, 'mesh/big.bin', { crc32: 1234 })
      expect(await errorCodeOf(extractArchive(forged))).toBe('archive.checksumMismatch')
      const unchecked = await extractArchive(forged, { verifyChecksums: false })
      expectSameBytes(findExtractedFile(unchecked, 'mesh/big.bin'), large)
      // and the same bytes come out of fflate alone
      const fflateOnly = await extractArchive(new Blob([zip]), { inflateNatively: false })
      expectSameBytes(findExtractedFile(fflateOnly, 'mesh/big.bin'), large)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('verifies checksums unless told not to', async () => {
    const forged = patchCentralRecord(zipOf({ 'a.txt': 'real content' }), 'a.txt', { crc32: 1234 })
    expect(await errorCodeOf(extractArchive(forged))).toBe('archive.checksumMismatch')
    const archive = await extractArchive(forged, { verifyChecksums: false })
    expect(new TextDecoder().decode(findExtractedFile(archive, 'a.txt'))).toBe('real content')
  })

  it('reports damaged deflate data as a damaged archive', async () => {
    const zip = zipOf({ 'a.obj': meshText(20_000) })
    const damaged = zip.slice()
    for (let at = 200; at < 260; at++) damaged[at] = 0xff
    expect(['archive.corrupt', 'archive.checksumMismatch']).toContain(
      await errorCodeOf(extractArchive(damaged)),
    )
  })

  it('refuses encrypted and unsupported entries only when they are selected', async () => {
    const zip = patchCentralRecord(
      patchCentralRecord(
        zipOf({ 'secret.txt': 'x', 'lzma.bin': 'y', 'plain.txt': 'z' }),
        'secret.txt',
        {
          flags: 1,
        },
      ),
      'lzma.bin',
      { methodCode: 14 },
    )
    expect(await errorCodeOf(extractArchive(zip))).toBe('archive.encrypted')
    expect(await errorCodeOf(extractArchive(zip, { names: ['lzma.bin'] }))).toBe(
      'archive.unsupportedMethod',
    )
    const plain = await extractArchive(zip, { names: ['plain.txt'] })
    expect(new TextDecoder().decode(findExtractedFile(plain, 'plain.txt'))).toBe('z')
  })

  it('re-checks the limits for the selection when given a listing read elsewhere', async () => {
    const zip = zipOf({ 'a.bin': sampleBytes(5000), 'b.bin': sampleBytes(5000) })
    const source = toArchiveSource(zip)
    const listing = await readArchiveDirectory(source)
    const limits = { maxTotalUncompressedSizeBytes: 6000 }
    expect(await errorCodeOf(extractEntries(source, listing, { limits }))).toBe('archive.tooLarge')
    const one = await extractEntries(source, listing, { limits, names: ['a.bin'] })
    expect(one.totalSizeBytes).toBe(5000)
  })
})
