import { createHash } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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
