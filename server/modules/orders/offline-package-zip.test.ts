import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFileStorage, type FileStorage } from '../../plugins/storage'
import type { PackagePlan } from './offline-package-contents'
import type { PackageSource } from './offline-package-entry'
import type { PoiListReader, PoiListTally } from './offline-package-pois'
import { writePackageZip } from './offline-package-zip'

const run = promisify(execFile)

/**
 * The package's zip writer against Info-ZIP's `unzip`, the reader a person unpacking the
 * package most likely uses: ZIP64 records (forced on small files, and for real on an entry of
 * more than 4 GiB read from a sparse file, so the test needs megabytes of disk, not gigabytes).
 */
describe('offline package zip', () => {
  let folder: string
  let storage: FileStorage
  const noAbort = new AbortController().signal

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'package-zip-'))
    storage = await createFileStorage(join(folder, 'store'))
  })
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  it('writes ZIP64 records that unzip reads back byte for byte', async () => {
    const model = Buffer.alloc(300_000, 7)
    const stored = await storage.put(model)
    const text = JSON.stringify({ pois: Array.from({ length: 500 }, (_, index) => index) })
    const plan: Pick<PackagePlan, 'entries' | 'totalBytes'> = {
      entries: [
        {
          path: 'manifest.json',
          source: { kind: 'bytes', bytes: Buffer.from(text) },
          sizeBytes: text.length,
          isDeflated: true,
        },
        {
          path: 'building/models/a.sbm',
          source: { kind: 'stored', sha256: stored.sha256 },
          sizeBytes: model.length,
          isDeflated: false,
        },
      ],
      totalBytes: text.length + model.length,
    }
    const path = join(folder, 'forced.zip')
    const progress: number[] = []
    const written = await writePackageZip(plan, { storage }, path, {
      signal: noAbort,
      onProgress: (fraction) => progress.push(fraction),
      forceZip64: true,
    })
    expect(written.entryCount).toBe(2)
    expect(progress.at(-1)).toBe(1)
    const tested = await run('unzip', ['-t', path])
    expect(tested.stdout).toContain('No errors detected')
    const info = await run('zipinfo', ['-v', path])
    // Info-ZIP names each entry's ZIP64 extra field; the archive ends with the ZIP64 end
    // record and its locator (signatures PK 6 6 and PK 6 7) before the classic end record
    expect(info.stdout.match(/PKWARE 64-bit sizes/g)).toHaveLength(2)
    const bytes = await readFile(path)
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 6, 6]))).toBe(true)
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 6, 7]))).toBe(true)
    const out = join(folder, 'forced-out')
    await run('unzip', ['-q', path, '-d', out])
    expect(await readFile(join(out, 'manifest.json'), 'utf8')).toBe(text)
    expect((await readFile(join(out, 'building/models/a.sbm'))).equals(model)).toBe(true)
  })

  /**
   * A reader whose list is `chunks` (failing after them when `failsAfter`), counting how often
   * the database would be asked for it.
   */
  const listReader = (chunks: string[], failsAfter = false) => {
    const opened: string[] = []
    const reader: Pick<PoiListReader, 'open'> = {
      open(projectId, tally) {
        opened.push(projectId)
        return Readable.from(
          (async function* () {
            for (const chunk of chunks) yield Buffer.from(chunk)
            if (failsAfter) throw new Error('the database went away')
            tally({ count: chunks.length, templateIds: ['t'] })
          })(),
        )
      },
    }
    return { reader, opened }
  }

  /** pois.json and a data.js holding the same list, as the plan has them. */
  const listTwice = (projectId: string): Pick<PackagePlan, 'entries' | 'totalBytes'> => {
    const list: PackageSource = { kind: 'pois', projectId }
    return {
      entries: [
        { path: 'pois.json', source: list, sizeBytes: 10, isDeflated: true },
        {
          path: 'viewer/data.js',
          source: {
            kind: 'parts',
            parts: [
              { kind: 'bytes', bytes: Buffer.from('data({"pois":') },
              list,
              { kind: 'bytes', bytes: Buffer.from('})') },
            ],
          },
          sizeBytes: 25,
          isDeflated: true,
        },
      ],
      totalBytes: 35,
    }
  }

  it('asks the database for a POI list once, however many entries hold it, and leaves no spool', async () => {
    const target = join(folder, 'read-once')
    await mkdir(target)
    // 300 chunks of 4 KiB: more than the spool file's write buffer holds
    const chunks = [
      '[',
      ...Array.from({ length: 300 }, (_, index) => `${index},`.padEnd(4096)),
      '0]\n',
    ]
    const { reader, opened } = listReader(chunks)
    const path = join(target, 'package.zip')
    const written = await writePackageZip(listTwice('p1'), { storage, poiLists: reader }, path, {
      signal: noAbort,
      onProgress: () => {},
    })
    expect(opened).toEqual(['p1'])
    expect(written.poiLists).toEqual<PoiListTally[]>([{ count: chunks.length, templateIds: ['t'] }])
    const out = join(target, 'out')
    await run('unzip', ['-q', path, '-d', out])
    const list = chunks.join('')
    expect(await readFile(join(out, 'pois.json'), 'utf8')).toBe(list)
    expect(await readFile(join(out, 'viewer/data.js'), 'utf8')).toBe(`data({"pois":${list}})`)
    expect((await readdir(target)).sort()).toEqual(['out', 'package.zip'])
    // the list deflated once and copied: its entries' ZIP64 records read back the same
    const zip64Path = join(target, 'zip64.zip')
    await writePackageZip(
      listTwice('p1'),
      { storage, poiLists: listReader(chunks).reader },
      zip64Path,
      {
        signal: noAbort,
        onProgress: () => {},
        forceZip64: true,
      },
    )
    expect((await run('unzip', ['-t', zip64Path])).stdout).toContain('No errors detected')
    const zip64Out = join(target, 'zip64-out')
    await run('unzip', ['-q', zip64Path, '-d', zip64Out])
    expect(await readFile(join(zip64Out, 'viewer/data.js'), 'utf8')).toBe(`data({"pois":${list}})`)
  })

  it('fails both entries when the one read of the list fails, leaving no part file and no spool', async () => {
    const target = join(folder, 'read-once-failed')
    await mkdir(target)
    const { reader, opened } = listReader(['[1,', '2,'], true)
    const path = join(target, 'package.zip')
    await expect(
      writePackageZip(listTwice('p2'), { storage, poiLists: reader }, path, {
        signal: noAbort,
        onProgress: () => {},
      }),
    ).rejects.toThrow('the database went away')
    expect(opened).toEqual(['p2'])
    expect(await readdir(target)).toEqual([])
  })

  // reading, checksumming and deflating 4 GiB takes minutes on a loaded machine (234 s here, 53 s
  // of CPU): run it on demand with ZIP64_LARGE=1 rather than in every CI run
  it.runIf(process.env.ZIP64_LARGE === '1')(
    'packs an entry larger than 4 GiB into a zip unzip verifies',
    async () => {
      const sparse = join(folder, 'huge.bin')
      await writeFile(sparse, '')
      const size = 2 ** 32 + 5 * 1024 * 1024
      // a sparse file: 4 GiB of zeros that take no disk; deflated they are a few megabytes
      await truncate(sparse, size)
      const plan: Pick<PackagePlan, 'entries' | 'totalBytes'> = {
        entries: [
          {
            path: 'tilesets/huge.bin',
            source: { kind: 'file', path: sparse },
            sizeBytes: size,
            isDeflated: true,
          },
        ],
        totalBytes: size,
      }
      const path = join(folder, 'huge.zip')
      await writePackageZip(plan, { storage }, path, { signal: noAbort, onProgress: () => {} })
      await rm(sparse)
      const listed = await run('unzip', ['-l', path])
      expect(listed.stdout).toContain(String(size))
      const tested = await run('unzip', ['-t', path], { maxBuffer: 1024 * 1024 })
      expect(tested.stdout).toContain('No errors detected')
    },
    10 * 60_000,
  )
})
