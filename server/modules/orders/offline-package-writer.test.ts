import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  truncate,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openFileStorage } from '../../plugins/open-storage'
import { createFileStorage, type FileStorage } from '../../plugins/storage'
import { startTestObjectStore, type TestObjectStore } from '../../testing/test-object-store'
import type { PackageEntry } from './offline-package-entry'
import { createPackageWriter, type PackageWriter } from './offline-package-writer'

/** Paths the descriptors of this process point at (a thread's files are the process's). */
async function openPaths(): Promise<string[]> {
  const descriptors = await readdir('/proc/self/fd')
  const paths = await Promise.all(
    descriptors.map((descriptor) => readlink(`/proc/self/fd/${descriptor}`).catch(() => '')),
  )
  return paths.filter((path) => path !== '')
}

/**
 * The package zip written in a worker thread (issue 20 Build 6): the same bytes the writer
 * writes in any thread, progress heard on the request thread, and a stopped build leaving no
 * file behind and no file open.
 */
describe('offline package writer thread', () => {
  let folder: string
  let storage: FileStorage
  let writer: PackageWriter

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'package-writer-'))
    storage = await createFileStorage(join(folder, 'store'))
    writer = createPackageWriter({ storage: storage.location })
  })
  afterAll(async () => {
    await writer.close()
    await rm(folder, { recursive: true, force: true })
  })

  it('writes every kind of entry in its thread, reporting progress up to 1', async () => {
    const model = Buffer.alloc(300_000, 7)
    const stored = await storage.put(model)
    const listPath = join(folder, 'list.json')
    await writeFile(listPath, '[1,2,3]')
    const manifest = Buffer.from('{"format":"test"}')
    const entries: PackageEntry[] = [
      {
        path: 'manifest.json',
        source: { kind: 'bytes', bytes: manifest },
        sizeBytes: manifest.byteLength,
        isDeflated: true,
      },
      {
        path: 'building/models/a.sbm',
        source: { kind: 'stored', sha256: stored.sha256 },
        sizeBytes: model.byteLength,
        isDeflated: false,
      },
      {
        path: 'viewer/files/0.js',
        source: {
          kind: 'script',
          path: 'building/models/a.sbm',
          of: { kind: 'stored', sha256: stored.sha256 },
        },
        sizeBytes: 400_050,
        isDeflated: false,
      },
      {
        path: 'viewer/data.js',
        source: {
          kind: 'parts',
          parts: [
            { kind: 'bytes', bytes: Buffer.from('data({"pois":') },
            { kind: 'file', path: listPath },
            { kind: 'bytes', bytes: Buffer.from('})') },
          ],
        },
        sizeBytes: 22,
        isDeflated: true,
      },
    ]
    const path = join(folder, 'written.zip')
    const progress: number[] = []
    const written = await writer.write(
      { entries, totalBytes: entries.reduce((sum, entry) => sum + entry.sizeBytes, 0) },
      path,
      { signal: new AbortController().signal, onProgress: (fraction) => progress.push(fraction) },
    )
    expect(written).toMatchObject({ entryCount: 4, sizeBytes: (await readFile(path)).byteLength })
    const memory = written.threadMemory
    expect(memory.heapPeakBytes).toBeGreaterThanOrEqual(memory.heapStartBytes)
    expect(memory.buffersPeakBytes).toBeGreaterThanOrEqual(memory.buffersStartBytes)
    expect(progress.at(-1)).toBe(1)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    const files = unzipSync(new Uint8Array(await readFile(path)))
    const text = (name: string) => new TextDecoder().decode(files[name])
    expect(text('manifest.json')).toBe('{"format":"test"}')
    expect(Buffer.from(files['building/models/a.sbm']!).equals(model)).toBe(true)
    expect(text('viewer/files/0.js')).toBe(
      `twinscapeFile("building/models/a.sbm","${model.toString('base64')}")\n`,
    )
    expect(text('viewer/data.js')).toBe('data({"pois":[1,2,3]})')
    expect(await readdir(folder)).not.toContain('written.zip.part')
  })

  it('stops a build when asked: no part file, no file left open, and the next build runs', async () => {
    // 3 GiB of zeros that take no disk: the thread is nowhere near done when it is stopped
    const sparse = join(folder, 'huge.bin')
    await writeFile(sparse, '')
    await truncate(sparse, 3 * 2 ** 30)
    const target = join(folder, 'stopped')
    await mkdir(target)
    const path = join(target, 'stopped.zip')
    const controller = new AbortController()
    const stopped = writer.write(
      {
        entries: [
          {
            path: 'huge.bin',
            source: { kind: 'file', path: sparse },
            sizeBytes: 3 * 2 ** 30,
            isDeflated: false,
          },
        ],
        totalBytes: 3 * 2 ** 30,
      },
      path,
      {
        signal: controller.signal,
        // stopped once it has started reading
        onProgress: () => controller.abort(new Error('stopped by the test')),
      },
    )
    await expect(stopped).rejects.toThrow('stopped by the test')
    expect(await readdir(target)).toEqual([])
    const open = await openPaths()
    expect(open.filter((openPath) => openPath.startsWith(target) || openPath === sparse)).toEqual(
      [],
    )

    const after = join(target, 'after.zip')
    const bytes = Buffer.from('after')
    const written = await writer.write(
      {
        entries: [
          { path: 'a.txt', source: { kind: 'bytes', bytes }, sizeBytes: 5, isDeflated: true },
        ],
        totalBytes: 5,
      },
      after,
      { signal: new AbortController().signal, onProgress: () => {} },
    )
    expect(written.entryCount).toBe(1)
    expect(await readdir(target)).toEqual(['after.zip'])
  })
})

/**
 * A package of a server whose files are in an S3-compatible bucket (issue 22 Build 1): the
 * thread opens the same bucket from the location it is told and zips the stored bytes.
 */
describe('offline package writer thread on an object store', () => {
  let folder: string
  let objectStore: TestObjectStore
  let writer: PackageWriter | undefined

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'package-writer-s3-'))
    objectStore = await startTestObjectStore()
  })
  afterAll(async () => {
    await writer?.close()
    await objectStore?.close()
    await rm(folder, { recursive: true, force: true })
  })

  it('reads stored entries from the bucket in its thread', async () => {
    const storage = await openFileStorage({
      kind: 's3',
      settings: objectStore.settings('package-writer'),
      spoolDirectory: join(folder, 'spool'),
    })
    try {
      const model = Buffer.alloc(200_000, 9)
      const stored = await storage.put(model)
      writer = createPackageWriter({ storage: storage.location })
      const path = join(folder, 'from-bucket.zip')
      const written = await writer.write(
        {
          entries: [
            {
              path: 'building/models/b.sbm',
              source: { kind: 'stored', sha256: stored.sha256 },
              sizeBytes: model.byteLength,
              isDeflated: false,
            },
          ],
          totalBytes: model.byteLength,
        },
        path,
        { signal: new AbortController().signal, onProgress: () => {} },
      )
      expect(written.entryCount).toBe(1)
      const files = unzipSync(new Uint8Array(await readFile(path)))
      expect(Buffer.from(files['building/models/b.sbm']!).equals(model)).toBe(true)
    } finally {
      storage.close()
    }
  })
})
