import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type ArchiveSource, toArchiveSource } from './archive-source'
import { readArchiveDirectory } from './zip-reader'
import { ZipError } from './zip-errors'
import {
  patchCentralRecord,
  replaceRawName,
  sampleBytes,
  zip64Of,
  zipOf,
} from './zip-test-fixtures'

const sharedZips = new URL('../../../shared/data/zip/', import.meta.url)
const readShared = (path: string) => new Uint8Array(readFileSync(new URL(path, sharedZips)))

async function errorCodeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work
  } catch (error) {
    if (error instanceof ZipError) return error.code
    throw error
  }
  throw new Error('expected the archive to be refused')
}

const list = (bytes: Uint8Array, options?: Parameters<typeof readArchiveDirectory>[1]) =>
  readArchiveDirectory(toArchiveSource(bytes), options)

describe('readArchiveDirectory', () => {
  it('lists names, sizes, compression and dates from the central directory', async () => {
    const text = 'v 1 2 3\n'.repeat(500)
    const zip = zipOf({
      'model/mesh.obj': text,
      'model/texture.bin': sampleBytes(1000),
      'tiles/': new Uint8Array(0),
    })
    const listing = await list(zip)
    expect(listing.entries.map((entry) => entry.name)).toEqual([
      'model/mesh.obj',
      'model/texture.bin',
      'tiles/',
    ])
    const [mesh, texture, folder] = listing.entries
    expect(mesh).toMatchObject({
      uncompressedSizeBytes: text.length,
      compressionMethod: 'deflate',
      compressionMethodCode: 8,
      isDirectory: false,
      isEncrypted: false,
      modifiedAt: '2026-03-04T05:06:08',
    })
    expect(mesh!.compressedSizeBytes).toBeLessThan(text.length / 10)
    expect(texture!.uncompressedSizeBytes).toBe(1000)
    expect(folder!.isDirectory).toBe(true)
    expect(listing.totalUncompressedSizeBytes).toBe(text.length + 1000)
    expect(listing.archiveSizeBytes).toBe(zip.byteLength)
  })

  it('reports stored entries and an empty archive', async () => {
    const stored = await list(zipOf({ 'a.bin': sampleBytes(64) }, 0))
    expect(stored.entries[0]).toMatchObject({
      compressionMethod: 'stored',
      compressedSizeBytes: 64,
    })
    expect((await list(zipOf({}))).entries).toEqual([])
  })

  it('lists real uploads from the shared test data', async () => {
    const duck = await list(readShared('derived/model-duck-glb.zip'))
    expect(duck.entries).toHaveLength(1)
    expect(duck.entries[0]).toMatchObject({
      name: 'Duck.glb',
      uncompressedSizeBytes: 120_484,
      compressedSizeBytes: 98_121,
      compressionMethod: 'deflate',
    })
    const tileset = await list(readShared('derived/tileset-request-volume-nested.zip'))
    expect(tileset.entries.map((entry) => entry.name)).toContain(
      'TilesetWithRequestVolume/city/ll.b3dm',
    )
    expect(tileset.entries).toHaveLength(8)
  })

  it('reads only the end of a large archive, never the whole file', async () => {
    const bytes = readShared('derived/tileset-request-volume-nested.zip')
    const inner = toArchiveSource(new Blob([bytes]))
    let bytesRead = 0
    const counting: ArchiveSource = {
      sizeBytes: inner.sizeBytes,
      read: async (offset, length) => {
        const chunk = await inner.read(offset, length)
        bytesRead += chunk.byteLength
        return chunk
      },
    }
    await readArchiveDirectory(counting)
    expect(bytesRead).toBeLessThan(70_000)
    expect(bytes.byteLength).toBeGreaterThan(2_000_000)
  })

  it('reads zip64 records', async () => {
    const listing = await list(zip64Of('big/scene.bin', sampleBytes(300)))
    expect(listing.entries[0]).toMatchObject({
      name: 'big/scene.bin',
      uncompressedSizeBytes: 300,
      compressedSizeBytes: 300,
      localHeaderOffsetBytes: 0,
    })
  })

  it('decodes legacy GBK names and honours the Info-ZIP rules for UTF-8 ones', async () => {
    const gbkName = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0x2e, 0x74, 0x78, 0x74])
    const zip = replaceRawName(zipOf({ 'abcd.txt': 'x' }), 'abcd.txt', gbkName)
    expect((await list(zip)).entries[0]!.name).toBe('中文.txt')
    expect((await list(zipOf({ '도면/평면도.json': '{}' }))).entries[0]!.name).toBe(
      '도면/평면도.json',
    )
  })

  it('refuses what is not a zip, and says when a zip was cut short', async () => {
    expect(await errorCodeOf(list(new Uint8Array(0)))).toBe('archive.notZip')
    expect(await errorCodeOf(list(sampleBytes(5000)))).toBe('archive.notZip')
    expect(await errorCodeOf(list(readShared('../gltf/Duck/Duck.glb')))).toBe('archive.notZip')
    const zip = readShared('derived/model-duck-gltf-separate.zip')
    expect(await errorCodeOf(list(zip.subarray(0, zip.byteLength / 2)))).toBe('archive.truncated')
    expect(await errorCodeOf(list(zip.subarray(0, zip.byteLength - 5)))).toBe('archive.truncated')
  })

  it('refuses a damaged central directory', async () => {
    const zip = zipOf({ 'a.txt': 'hello' })
    const damaged = zip.slice()
    const view = new DataView(damaged.buffer)
    const directoryOffset = view.getUint32(damaged.byteLength - 6, true)
    damaged[directoryOffset] = 0
    expect(await errorCodeOf(list(damaged))).toBe('archive.corrupt')
    view.setUint32(damaged.byteLength - 6, damaged.byteLength, true)
    expect(await errorCodeOf(list(damaged))).toBe('archive.corrupt')
  })

  it.each([['../outside.txt'], ['/etc/passwd'], ['C:/evil.dll'], ['a\\..\\b.txt']])(
    'refuses the path-escaping entry %j',
    async (name) => {
      expect(await errorCodeOf(list(zipOf({ [name]: 'x', 'ok.txt': 'y' })))).toBe(
        'archive.unsafeEntryName',
      )
    },
  )

  it('refuses two entries with the same name', async () => {
    const zip = replaceRawName(
      zipOf({ 'a.txt': '1', 'b.txt': '2' }),
      'b.txt',
      new TextEncoder().encode('a.txt'),
    )
    expect(await errorCodeOf(list(zip))).toBe('archive.duplicateEntry')
  })

  it('enforces the count, size and ratio limits on the declared sizes', async () => {
    const three = zipOf({
      'a.bin': sampleBytes(3000),
      'b.bin': sampleBytes(3000),
      'c.bin': sampleBytes(3000),
    })
    expect(await errorCodeOf(list(three, { limits: { maxEntryCount: 2 } }))).toBe(
      'archive.tooManyEntries',
    )
    expect(
      await errorCodeOf(list(three, { limits: { maxEntryUncompressedSizeBytes: 2999 } })),
    ).toBe('archive.entryTooLarge')
    expect(
      await errorCodeOf(list(three, { limits: { maxTotalUncompressedSizeBytes: 8999 } })),
    ).toBe('archive.tooLarge')
    expect(
      (await list(three, { limits: { maxTotalUncompressedSizeBytes: 9000 } })).entries,
    ).toHaveLength(3)

    const bomb = zipOf({ 'zeros.bin': new Uint8Array(4 * 1024 * 1024) })
    expect(await errorCodeOf(list(bomb))).toBe('archive.suspiciousCompression')
    expect((await list(bomb, { limits: { maxCompressionRatio: 2000 } })).entries).toHaveLength(1)
    // Small files may compress extremely well without being a threat.
    expect((await list(zipOf({ 'zeros.bin': new Uint8Array(100_000) }))).entries).toHaveLength(1)

    const forged = patchCentralRecord(zipOf({ 'a.bin': sampleBytes(100) }), 'a.bin', {
      uncompressedSizeBytes: 3_000_000_000,
    })
    expect(await errorCodeOf(list(forged))).toBe('archive.entryTooLarge')
  })

  it('lists encrypted and unsupported entries so the caller can explain them', async () => {
    const zip = patchCentralRecord(
      patchCentralRecord(zipOf({ 'secret.txt': 'x', 'lzma.bin': 'y' }), 'secret.txt', { flags: 1 }),
      'lzma.bin',
      { methodCode: 14 },
    )
    const [secret, lzma] = (await list(zip)).entries
    expect(secret!.isEncrypted).toBe(true)
    expect(lzma).toMatchObject({ compressionMethod: 'unsupported', compressionMethodCode: 14 })
  })
})
