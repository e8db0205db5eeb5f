import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { buffer, text } from 'node:stream/consumers'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { AppError } from '../http/app-error'
import { startTestObjectStore, type TestObjectStore } from '../testing/test-object-store'
import { createS3FileStorage } from './s3-storage'
import { createFileStorage, type FileStorage } from './storage'

/**
 * The file store's contract, run against both back-ends: the local folder and an S3-compatible
 * bucket (a local s3rver started here). Whatever a route or service relies on is checked here
 * for both, so either can hold a deployment's files.
 */

const sha256Of = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

/**
 * What a signed address of the store answers: undefined on a folder store (which sends its
 * files itself and hands out none); else fetched, with status 200 and every header in
 * `headers` as asked, its body's text (s3rver does not check the signature itself, so refusing
 * a forged one is left to the real stores).
 */
async function fetchSigned(
  kind: 'folder' | 's3',
  address: string | undefined,
  headers: Record<string, string>,
): Promise<string | undefined> {
  if (kind === 'folder') {
    expect(address).toBeUndefined()
    return undefined
  }
  const answer = await fetch(address!)
  expect(answer.status).toBe(200)
  for (const [name, value] of Object.entries(headers)) {
    expect(answer.headers.get(name), name).toBe(value)
  }
  // fetch inflates what is sent with Content-Encoding: gzip
  return answer.text()
}

let objectStore: TestObjectStore
beforeAll(async () => {
  objectStore = await startTestObjectStore()
})
afterAll(async () => {
  await objectStore?.close()
})

describe.each(['folder', 's3'] as const)('the file store on %s', (kind) => {
  let directory: string
  let storage: FileStorage
  let testIndex = 0

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'twinscape-contract-'))
    const files = join(directory, 'files')
    testIndex += 1
    storage =
      kind === 'folder'
        ? await createFileStorage(files)
        : await createS3FileStorage(objectStore.settings(`t${testIndex}`, 'redirect'), files)
  })
  afterEach(async () => {
    storage.close()
    await rm(directory, { recursive: true, force: true })
  })

  /** Nothing but whole stored files: no spooled or temporary file left on this machine. */
  const leftovers = async () =>
    (await readdir(join(directory, 'files'))).filter((name) => name.startsWith('incoming-'))

  it('stores bytes under their SHA-256 and reads them back', async () => {
    const stored = await storage.put(Buffer.from('hello twin'))
    expect(stored).toEqual({ sha256: sha256Of('hello twin'), sizeBytes: 10, isNew: true })
    expect(await storage.exists(stored.sha256)).toBe(true)
    expect(await storage.sizeOf(stored.sha256)).toBe(10)
    const info = await storage.statOf(stored.sha256)
    expect(info?.sizeBytes).toBe(10)
    // stored now: S3 keeps whole seconds, so within a few seconds either way
    expect(Math.abs((info?.modifiedMs ?? 0) - Date.now())).toBeLessThan(60_000)
    expect(await text(await storage.open(stored.sha256))).toBe('hello twin')
  })

  it('stores a 12 MiB stream (multipart on S3) and reads the same bytes', async () => {
    const chunks = Array.from({ length: 12 }, (_, index) => Buffer.alloc(1024 * 1024, index))
    const whole = Buffer.concat(chunks)
    const stored = await storage.put(Readable.from(chunks))
    expect(stored).toMatchObject({ sha256: sha256Of(whole), sizeBytes: whole.length })
    expect((await buffer(await storage.open(stored.sha256))).equals(whole)).toBe(true)
    expect(await leftovers()).toEqual([])
  })

  it('reads a span of a file, both ends included', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251))
    const stored = await storage.put(bytes)
    const span = await buffer(await storage.open(stored.sha256, { start: 10, end: 19 }))
    expect(span.equals(bytes.subarray(10, 20))).toBe(true)
  })

  it('stores the same content once', async () => {
    const first = await storage.put(Buffer.from('same'))
    const second = await storage.put(Readable.from([Buffer.from('sa'), Buffer.from('me')]))
    expect(second).toEqual({ ...first, isNew: false })
  })

  it('refuses a file over the size limit and keeps nothing of it', async () => {
    const source = Readable.from([Buffer.alloc(600, 1), Buffer.alloc(600, 1)])
    await expect(storage.put(source, { maxSizeBytes: 1_000 })).rejects.toMatchObject({
      kind: 'tooLarge',
    })
    expect(await storage.exists(sha256Of(Buffer.alloc(1200, 1)))).toBe(false)
    expect(await leftovers()).toEqual([])
  })

  it('keeps nothing when the source fails midway', async () => {
    async function* failing() {
      yield Buffer.from('partial')
      throw new Error('connection reset')
    }
    await expect(storage.put(failing())).rejects.toThrow('connection reset')
    expect(await storage.exists(sha256Of('partial'))).toBe(false)
    expect(await leftovers()).toEqual([])
  })

  it('removes files', async () => {
    const stored = await storage.put(Buffer.from('bye'))
    expect(await storage.remove(stored.sha256)).toBe(true)
    expect(await storage.remove(stored.sha256)).toBe(false)
    expect(await storage.exists(stored.sha256)).toBe(false)
    expect(await storage.sizeOf(stored.sha256)).toBeUndefined()
    expect(await storage.statOf(stored.sha256)).toBeUndefined()
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
  ])('refuses the file id %j before touching the store', async (id) => {
    await expect(storage.open(id)).rejects.toBeInstanceOf(AppError)
    await expect(storage.exists(id)).rejects.toMatchObject({ kind: 'validation' })
    await expect(storage.remove(id)).rejects.toMatchObject({ kind: 'validation' })
  })

  it('hands out a signed address of the store only where the store sends files itself', async () => {
    const stored = await storage.put(Buffer.from('{"floors":2}'))
    const headers = {
      contentType: 'application/json',
      cacheControl: 'private, max-age=31536000, immutable',
      contentDisposition: 'attachment; filename="structure.json"',
    }
    const address = await storage.signedReadUrl(stored.sha256, headers)
    // the address answers the bytes with the headers asked for
    const answered = await fetchSigned(kind, address, {
      'content-type': 'application/json',
      'cache-control': 'private, max-age=31536000, immutable',
      'content-disposition': 'attachment; filename="structure.json"',
    })
    if (kind === 'folder') return
    expect(answered).toBe('{"floors":2}')

    // one address a signing window (browsers and CDNs keep what they fetched); the next
    // window's is another, and opens the same bytes
    expect(await storage.signedReadUrl(stored.sha256, headers)).toBe(address)
    const realNow = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(realNow + 3_600_000)
    const later = await storage.signedReadUrl(stored.sha256, headers)
    vi.restoreAllMocks()
    expect(later).not.toBe(address)
    expect(await fetchSigned(kind, later, {})).toBe('{"floors":2}')
  })
})

describe.each(['folder', 's3'] as const)('named files (tilesets, packages) on %s', (kind) => {
  let directory: string
  let storage: FileStorage
  let testIndex = 0

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'twinscape-named-'))
    testIndex += 1
    const files = join(directory, 'files')
    storage =
      kind === 'folder'
        ? await createFileStorage(files)
        : await createS3FileStorage(objectStore.settings(`n${testIndex}`, 'redirect'), files)
  })
  afterEach(async () => {
    storage.close()
    await rm(directory, { recursive: true, force: true })
  })

  it('keeps files under their names, lists and reads them, and removes a whole folder', async () => {
    const files = storage.named('tilesets')
    const tile = Buffer.from(Array.from({ length: 300 }, (_, index) => index % 251))
    await files.write('v1/tileset.json', Buffer.from('{"asset":{}}'))
    await files.write('v1/sub/a.b3dm', Readable.from([tile.subarray(0, 100), tile.subarray(100)]))
    await files.write('v2/tileset.json', Buffer.from('{}'))
    const listed = await files.list('v1')
    expect(listed.map(({ name, sizeBytes }) => ({ name, sizeBytes }))).toEqual([
      { name: 'sub/a.b3dm', sizeBytes: 300 },
      { name: 'tileset.json', sizeBytes: 12 },
    ])
    for (const { modifiedMs } of listed)
      expect(Math.abs(modifiedMs - Date.now())).toBeLessThan(60_000)
    // '' is the whole area: every folder's files, named from the area's root
    expect((await files.list('')).map(({ name }) => name)).toEqual([
      'v1/sub/a.b3dm',
      'v1/tileset.json',
      'v2/tileset.json',
    ])
    const info = await files.statOf('v1/sub/a.b3dm')
    expect(info).toMatchObject({ sizeBytes: 300, contentEncoding: undefined })
    expect(Math.abs((info?.modifiedMs ?? 0) - Date.now())).toBeLessThan(60_000)
    const span = await buffer(await files.open('v1/sub/a.b3dm', { start: 10, end: 19 }))
    expect(span.equals(tile.subarray(10, 20))).toBe(true)
    expect(await files.statOf('v1/missing.b3dm')).toBeUndefined()
    await expect(files.open('v1/missing.b3dm')).rejects.toMatchObject({ kind: 'notFound' })

    await files.removeFolder('v1')
    expect(await files.list('v1')).toEqual([])
    expect(await files.statOf('v1/tileset.json')).toBeUndefined()
    expect(await files.list('v2')).toMatchObject([{ name: 'tileset.json', sizeBytes: 2 }])
    await files.removeFolder('never-written')
  })

  it('writes a package zip durably: whole or not at all, replaced whole, removed alone', async () => {
    const files = storage.named('offline-packages')
    const zip = Buffer.from(Array.from({ length: 7000 }, (_, index) => index % 253))
    await files.write('p1/a.zip', Readable.from([zip.subarray(0, 3000), zip.subarray(3000)]), {
      durable: true,
    })
    await files.write('p2/b.zip', Buffer.from('other'), { durable: true })
    expect((await buffer(await files.open('p1/a.zip'))).equals(zip)).toBe(true)
    // a second durable write of a name replaces it whole
    await files.write('p2/b.zip', Buffer.from('newer'), { durable: true })
    expect(await text(await files.open('p2/b.zip'))).toBe('newer')
    async function* failing() {
      yield Buffer.from('the start of a zip')
      throw new Error('the build stopped')
    }
    await expect(files.write('p1/cut.zip', failing(), { durable: true })).rejects.toThrow()
    // the whole area, nothing of the cut write (no part file on a folder, no object in a bucket)
    expect(await files.list('')).toMatchObject([
      { name: 'p1/a.zip', sizeBytes: 7000 },
      { name: 'p2/b.zip', sizeBytes: 5 },
    ])
    await files.remove('p1/a.zip')
    await files.remove('p1/never-written.zip')
    expect(await files.list('')).toMatchObject([{ name: 'p2/b.zip', sizeBytes: 5 }])
    // the areas keep apart
    expect(await storage.named('tilesets').list('')).toEqual([])
  })

  it('adopts a finished local file under a name: a second name on a folder, sent whole to a bucket', async () => {
    const files = storage.named('basemaps')
    const received = join(directory, 'received.upload')
    // past 5 MiB: a multipart upload from the file on S3
    const bytes = randomBytes(6 * 1024 * 1024 + 5)
    await writeFile(received, bytes)
    await files.adopt('k1.pmtiles', received)
    expect((await buffer(await files.open('k1.pmtiles'))).equals(bytes)).toBe(true)
    expect(await files.statOf('k1.pmtiles')).toMatchObject({
      sizeBytes: bytes.length,
      contentEncoding: undefined,
    })
    expect(await files.list('')).toMatchObject([{ name: 'k1.pmtiles', sizeBytes: bytes.length }])
    // the caller's file is still the caller's to remove
    expect((await readFile(received)).equals(bytes)).toBe(true)
    if (kind === 'folder') {
      // a multi-gigabyte upload is not copied: the same bytes on disk under a second name
      const adopted = await stat(join(directory, 'basemaps', 'k1.pmtiles'))
      expect(adopted.ino).toBe((await stat(received)).ino)
    }
    const gzipped = join(directory, 'received-gzip.upload')
    await writeFile(gzipped, gzipSync('{"asset":{}}'))
    await files.adopt('v1/tileset.json', gzipped)
    expect(await files.statOf('v1/tileset.json')).toMatchObject({ contentEncoding: 'gzip' })
  })

  it('answers a gzip-stored file as gzip, from the server and from a signed address', async () => {
    const files = storage.named('tilesets')
    const json = Buffer.from('{"asset":{"version":"1.1"}}')
    const stored = gzipSync(json)
    await files.write('v1/tileset.json', Readable.from([stored]))
    expect(await files.statOf('v1/tileset.json')).toMatchObject({ contentEncoding: 'gzip' })
    expect((await buffer(await files.open('v1/tileset.json'))).equals(stored)).toBe(true)
    const address = await files.signedReadUrl('v1/tileset.json', {
      contentType: 'application/json',
      cacheControl: 'private, max-age=31536000, immutable',
    })
    const answered = await fetchSigned(kind, address, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    })
    if (kind === 'folder') return
    expect(answered).toBe(json.toString())
  })
})

describe('the file store on an S3 store that cannot be reached', () => {
  it('answers unavailable with a retry time, and keeps nothing on this machine', async () => {
    // a port that was free a moment ago: nothing listens there
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const { port } = probe.address() as { port: number }
    await new Promise((resolve) => probe.close(resolve))
    const directory = await mkdtemp(join(tmpdir(), 'twinscape-contract-'))
    const errors: unknown[] = []
    const settings = { ...objectStore.settings('down'), endpoint: `http://127.0.0.1:${port}` }
    const storage = await createS3FileStorage(settings, join(directory, 'files'), {
      onStoreError: (error) => errors.push(error),
    })
    try {
      const refusal = { kind: 'unavailable', datum: { retryAfterSeconds: 30 } }
      await expect(storage.put(Buffer.from('x'))).rejects.toMatchObject(refusal)
      await expect(storage.open(sha256Of('x'))).rejects.toMatchObject(refusal)
      expect(errors.length).toBeGreaterThan(0)
      expect(await readdir(join(directory, 'files'))).toEqual([])
    } finally {
      storage.close()
      await rm(directory, { recursive: true, force: true })
    }
  })
})
