import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readArchiveDirectory } from '../../../workers/unzip/zip-reader'
import { fileArchiveSource } from './file-archive'
import { extractTilesetEntries } from './tileset-extract'

/** Above the in-memory limit the test sets, so the entries stream through zlib. */
const bigSizeBytes = 3 * 1024 * 1024
const inMemoryMaxBytes = 1024 * 1024

function bigTile(): Uint8Array {
  const bytes = new Uint8Array(bigSizeBytes)
  bytes.set(new TextEncoder().encode('b3dm'))
  let state = 12345
  for (let index = 4; index < bytes.length; index++) {
    state = (state * 1103515245 + 12345) >>> 0
    bytes[index] = index % 3 === 0 ? state >>> 24 : index & 0xff
  }
  return bytes
}

describe('streaming extraction of large entries', () => {
  let folder: string
  let tile: Uint8Array
  let zip: Uint8Array

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tileset-extract-'))
    tile = bigTile()
    zip = zipSync({ 'big.b3dm': [tile, { level: 1 }], 'stored.b3dm': [tile, { level: 0 }] })
  })
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  const extract = async (bytes: Uint8Array, name: string) => {
    const path = join(folder, `${name}.zip`)
    await writeFile(path, bytes)
    const handle = await open(path, 'r')
    try {
      const source = fileArchiveSource(handle, bytes.byteLength)
      const { entries } = await readArchiveDirectory(source)
      const target = join(folder, name)
      const result = await extractTilesetEntries({
        handle,
        source,
        entries,
        targetDirectory: target,
        inMemoryMaxBytes,
      })
      return { result, target }
    } finally {
      await handle.close()
    }
  }

  /** Changes a field of one entry's central record (offset 20 compressed, 24 size, 16 CRC). */
  const patched = (field: number, value: number) => {
    const copy = zip.slice()
    const view = new DataView(copy.buffer)
    const directoryOffset = view.getUint32(copy.byteLength - 22 + 16, true)
    view.setUint32(directoryOffset + field, value, true)
    if (field === 24) view.setUint32(view.getUint32(directoryOffset + 42, true) + 22, value, true)
    return copy
  }

  it('extracts deflated and stored entries byte for byte and recognises their format', async () => {
    const { result, target } = await extract(zip, 'good')
    // Buffer.equals: a deep toEqual of megabytes takes minutes
    expect((await readFile(join(target, 'big.b3dm'))).equals(tile)).toBe(true)
    expect((await readFile(join(target, 'stored.b3dm'))).equals(tile)).toBe(true)
    expect(result.stats).toMatchObject({
      file_count: 2,
      tile_count: 2,
      total_bytes: 2 * bigSizeBytes,
    })
    expect(result.mismatches).toEqual([])
  })

  it('stops an entry that inflates past its declared size', async () => {
    await expect(extract(patched(24, bigSizeBytes - 1000), 'lying')).rejects.toThrow(
      /expands past its declared size/,
    )
  })

  it('refuses an entry whose checksum does not match', async () => {
    await expect(extract(patched(16, 0xdeadbeef), 'checksum')).rejects.toThrow(/checksum/)
  })
})
