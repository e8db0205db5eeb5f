import { mkdtemp, open, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buffer } from 'node:stream/consumers'
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createS3FileStorage } from '../../plugins/s3-storage'
import { createFileStorage, type FileStorage } from '../../plugins/storage'
import { startTestObjectStore, type TestObjectStore } from '../../testing/test-object-store'
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

let objectStore: TestObjectStore
beforeAll(async () => {
  objectStore = await startTestObjectStore()
})
afterAll(async () => {
  await objectStore?.close()
})

// straight into the store: the folder of a server's own, or a bucket (multipart past 5 MiB)
describe.each(['folder', 's3'] as const)('streaming extraction of large entries to %s', (kind) => {
  let folder: string
  let storage: FileStorage
  let tile: Uint8Array
  let zip: Uint8Array

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tileset-extract-'))
    const files = join(folder, 'files')
    storage =
      kind === 'folder'
        ? await createFileStorage(files)
        : await createS3FileStorage(objectStore.settings('extract'), files)
    tile = bigTile()
    zip = zipSync({ 'big.b3dm': [tile, { level: 1 }], 'stored.b3dm': [tile, { level: 0 }] })
  })
  afterAll(async () => {
    storage.close()
    await rm(folder, { recursive: true, force: true })
  })

  const extract = async (bytes: Uint8Array, name: string) => {
    const path = join(folder, `${name}.zip`)
    await writeFile(path, bytes)
    const handle = await open(path, 'r')
    try {
      const source = fileArchiveSource(handle, bytes.byteLength)
      const { entries } = await readArchiveDirectory(source)
      const target = { files: storage.named('tilesets'), folder: name }
      const result = await extractTilesetEntries({
        handle,
        source,
        entries,
        target,
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
    const read = async (name: string) => buffer(await target.files.open(`good/${name}`))
    expect((await read('big.b3dm')).equals(tile)).toBe(true)
    expect((await read('stored.b3dm')).equals(tile)).toBe(true)
    expect(await target.files.list('good')).toMatchObject([
      { name: 'big.b3dm', sizeBytes: bigSizeBytes },
      { name: 'stored.b3dm', sizeBytes: bigSizeBytes },
    ])
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
