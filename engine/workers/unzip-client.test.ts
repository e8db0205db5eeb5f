import { afterEach, describe, expect, it } from 'vitest'
import { extractedFileBytes } from '../../workers/unzip/extracted-archive'
import type { UnzipWorkerApi } from '../../workers/unzip/unzip.worker'
import { unzipApi } from '../../workers/unzip/unzip-api'
import type { ExtractProgress } from '../../workers/unzip/zip-extractor'
import {
  meshText,
  patchCentralRecord,
  sampleBytes,
  zipOf,
} from '../../workers/unzip/zip-test-fixtures'
import { EngineError } from '../api/errors'
import { createInProcessWorker, type InProcessWorker } from '../testing/in-process-worker'
import { createWorkerPool, type WorkerPool } from './create-worker-client'
import { createUnzipService } from './unzip-client'

const workers: InProcessWorker[] = []
const pools: WorkerPool<UnzipWorkerApi>[] = []
function startService(maxWorkers: number) {
  const pool = createWorkerPool<UnzipWorkerApi>(
    () => {
      const worker = createInProcessWorker(unzipApi)
      workers.push(worker)
      return worker
    },
    { maxWorkers },
  )
  pools.push(pool)
  return createUnzipService(pool, {
    maxParallelJobs: maxWorkers,
    minimumGroupCompressedBytes: 1000,
  })
}
afterEach(() => {
  for (const pool of pools.splice(0)) pool.dispose()
  workers.length = 0
})

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work
  } catch (error) {
    if (error instanceof EngineError) return error.code
    throw error
  }
  throw new Error('expected a failure')
}

const files: Record<string, Uint8Array> = {}
for (let index = 0; index < 9; index++)
  files[`tiles/${index}.b3dm`] = sampleBytes(20_000 + index * 1000, index)
const zip = zipOf(files)

describe('createUnzipService', () => {
  it('splits a large Blob across the workers and merges the results in archive order', async () => {
    const service = startService(3)
    const reports: ExtractProgress[] = []
    const archive = await service.extract(new Blob([zip]), {
      onProgress: (report) => reports.push(report),
    })
    expect(workers).toHaveLength(3)
    expect(archive.files.map((file) => file.name)).toEqual(Object.keys(files))
    for (const file of archive.files) {
      expect(extractedFileBytes(archive, file)).toEqual(files[file.name])
    }
    const total = Object.values(files).reduce((sum, bytes) => sum + bytes.byteLength, 0)
    expect(archive.totalSizeBytes).toBe(total)
    await expect
      .poll(() => reports.at(-1))
      .toMatchObject({ doneBytes: total, totalBytes: total, doneEntries: 9 })
  })

  it('keeps bytes already in memory in one job, as each worker would need its own copy', async () => {
    const service = startService(3)
    const archive = await service.extract(zip, { names: ['tiles/0.b3dm', 'tiles/8.b3dm'] })
    expect(archive.files.map((file) => file.name)).toEqual(['tiles/0.b3dm', 'tiles/8.b3dm'])
    expect(workers).toHaveLength(1)
  })

  it('fails the whole extraction when one group fails, and refuses unknown names', async () => {
    const service = startService(3)
    const damaged = patchCentralRecord(zip, 'tiles/7.b3dm', { crc32: 1 })
    expect(await codeOf(service.extract(new Blob([damaged])))).toBe('archive.checksumMismatch')
    expect(await codeOf(service.extract(new Blob([zip]), { names: ['missing.glb'] }))).toBe(
      'archive.entryNotFound',
    )
  })

  it('cancels every group with the caller signal', async () => {
    const service = startService(2)
    const long: Record<string, string> = {}
    for (let index = 0; index < 6; index++) long[`part-${index}.obj`] = meshText(150_000 + index)
    const controller = new AbortController()
    const extraction = service.extract(new Blob([zipOf(long)]), {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    })
    expect(await codeOf(extraction)).toBe('archive.aborted')
  })
})
