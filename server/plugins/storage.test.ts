import { createHash } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFileStorage, type FileStorage, storageSweep } from './storage'

const sha256Of = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

// what both back-ends promise is in storage-contract.test.ts; here, what only the folder does
describe('file storage in a folder', () => {
  let directory: string
  let storage: FileStorage

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'twinscape-storage-'))
    storage = await createFileStorage(join(directory, 'files'))
  })
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  it('sends a stored file in large reads', async () => {
    const chunks = Array.from({ length: 50 }, (_, index) => Buffer.alloc(10_000, index))
    const stored = await storage.put(Readable.from(chunks))
    const whole = Buffer.concat(chunks)
    expect(stored).toMatchObject({ sha256: sha256Of(whole), sizeBytes: whole.length })
    const read: Buffer[] = []
    for await (const chunk of await storage.open(stored.sha256)) read.push(chunk as Buffer)
    expect(Buffer.concat(read).equals(whole)).toBe(true)
    // sent in large reads (a model of 28 MB is 28 reads, not 430): one read holds this file
    expect(read).toHaveLength(1)
  })

  it('reads a small file (a tile) into buffers of its size, not of the largest read', async () => {
    const tile = Buffer.alloc(27_000, 7)
    const stored = await storage.put(tile)
    const tiles = storage.named('tilesets')
    await tiles.write('v1/data/0.b3dm', tile)
    await tiles.write('v1/empty.json', Buffer.alloc(0))
    // what the reads allocate (a file stream's buffers come from allocUnsafeSlow)
    const allocate = vi.spyOn(Buffer, 'allocUnsafeSlow')
    try {
      const readAll = async (stream: Readable) => Buffer.concat(await stream.toArray())
      expect((await readAll(await storage.open(stored.sha256))).equals(tile)).toBe(true)
      expect((await readAll(await tiles.open('v1/data/0.b3dm'))).equals(tile)).toBe(true)
      const span = await readAll(await tiles.open('v1/data/0.b3dm', { start: 100, end: 199 }))
      expect(span.equals(tile.subarray(100, 200))).toBe(true)
      expect(await readAll(await tiles.open('v1/empty.json'))).toHaveLength(0)
      const allocated = allocate.mock.calls.reduce((sum, [size]) => sum + size, 0)
      // two whole reads and a span: about 54 kB (it was two 1 MiB buffers a file)
      expect(allocated).toBeLessThanOrEqual(2 * tile.length + 100)
    } finally {
      allocate.mockRestore()
    }
  })

  it('keeps one file per content, in the shard folder of its first two hex digits', async () => {
    const first = await storage.put(Buffer.from('same'))
    await storage.put(Readable.from([Buffer.from('sa'), Buffer.from('me')]))
    const shard = join(directory, 'files', first.sha256.slice(0, 2))
    expect(await readdir(shard)).toEqual([first.sha256])
  })

  it('sweeps unfinished writes: all at start-up, only day-old ones while running', async () => {
    const files = join(directory, 'files')
    const stale = join(files, 'incoming-stale')
    await writeFile(stale, 'left by a crash')
    const old = new Date(Date.now() - 48 * 3_600_000)
    const { utimes } = await import('node:fs/promises')
    await utimes(stale, old, old)
    await writeFile(join(files, 'incoming-fresh'), 'being written')
    const stored = await storage.put(Buffer.from('kept'))
    const sweep = storageSweep(files)
    expect(await sweep.sweep('periodic')).toBe(1)
    expect(await readdir(files)).toContain('incoming-fresh')
    expect(await sweep.sweep('startup')).toBe(1)
    expect(await readdir(files)).toEqual([stored.sha256.slice(0, 2)])
  })
})
