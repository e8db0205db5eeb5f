import { createHash } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../http/app-error'
import { createFileStorage, type FileStorage, storageSweep } from './storage'

const sha256Of = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

describe('file storage', () => {
  let directory: string
  let storage: FileStorage

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'twinscape-storage-'))
    storage = await createFileStorage(join(directory, 'files'))
  })
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  it('stores a buffer under its SHA-256 and reads it back', async () => {
    const stored = await storage.put(Buffer.from('hello twin'))
    expect(stored).toEqual({ sha256: sha256Of('hello twin'), sizeBytes: 10, isNew: true })
    expect(await storage.exists(stored.sha256)).toBe(true)
    expect(await storage.sizeOf(stored.sha256)).toBe(10)
    expect(await text(await storage.open(stored.sha256))).toBe('hello twin')
  })

  it('stores a stream in chunks', async () => {
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

  it('stores the same content once', async () => {
    const first = await storage.put(Buffer.from('same'))
    const second = await storage.put(Readable.from([Buffer.from('sa'), Buffer.from('me')]))
    expect(second).toEqual({ ...first, isNew: false })
    const shard = join(directory, 'files', first.sha256.slice(0, 2))
    expect(await readdir(shard)).toEqual([first.sha256])
  })

  it('refuses a file over the size limit and leaves nothing behind', async () => {
    const source = Readable.from([Buffer.alloc(600), Buffer.alloc(600)])
    await expect(storage.put(source, { maxSizeBytes: 1_000 })).rejects.toMatchObject({
      kind: 'tooLarge',
    })
    expect(await readdir(join(directory, 'files'))).toEqual([])
  })

  it('leaves nothing behind when the source fails midway', async () => {
    async function* failing() {
      yield Buffer.from('partial')
      throw new Error('connection reset')
    }
    await expect(storage.put(failing())).rejects.toThrow('connection reset')
    expect(await readdir(join(directory, 'files'))).toEqual([])
  })

  it('removes files', async () => {
    const stored = await storage.put(Buffer.from('bye'))
    expect(await storage.remove(stored.sha256)).toBe(true)
    expect(await storage.remove(stored.sha256)).toBe(false)
    expect(await storage.exists(stored.sha256)).toBe(false)
    expect(await storage.sizeOf(stored.sha256)).toBeUndefined()
    await expect(storage.open(stored.sha256)).rejects.toMatchObject({ kind: 'notFound' })
  })

  it.each([
    '../../etc/passwd',
    '..',
    '',
    `${'a'.repeat(63)}/`,
    'A'.repeat(64),
    `../${'a'.repeat(61)}`,
    `${'a'.repeat(64)}\u0000`,
  ])('refuses the file id %j before touching the disk', async (id) => {
    await expect(storage.open(id)).rejects.toBeInstanceOf(AppError)
    await expect(storage.exists(id)).rejects.toMatchObject({ kind: 'validation' })
    await expect(storage.remove(id)).rejects.toMatchObject({ kind: 'validation' })
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
