import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import { createFileStorage } from '../../plugins/storage'
import { createConversionPool } from '../building/conversion-pool'
import type { JobKind } from './job-queue'
import { inlineBytesLimit } from './job-wire'
import { pgTestQueues, postgresUrl, until } from './testing/pg-test-queues'

const data = new URL('../../../../shared/data/', import.meta.url)

/** Reverses the bytes it is given: input and result both large enough to travel as files. */
const reverse: JobKind<{ label: string; bytes: Uint8Array }, { bytes: Uint8Array }> = {
  name: 'test.reverse',
  lane: 'cpu',
  timeLimitMs: 30_000,
  runsAnywhere: true,
  async run(input) {
    return { bytes: input.bytes.slice().reverse() }
  },
}

// The shared queue needs PostgreSQL; the in-process queue passes its inputs as they are
describe.skipIf(postgresUrl === undefined)("the shared queue's job files", () => {
  const testQueues = pgTestQueues('files')
  const folders: string[] = []

  /** A submitter and a worker on one new schema, sharing one store's job area. */
  const openPair = async () => {
    const folder = await mkdtemp(join(tmpdir(), 'twinscape-job-files-'))
    folders.push(folder)
    const storage = await createFileStorage(join(folder, 'files'))
    const files = storage.named('job-files')
    const schema = testQueues.newSchema()
    const submitter = testQueues.open(schema, false, { bytes: files })
    const worker = testQueues.open(schema, true, { bytes: files })
    worker.register(reverse)
    return { submitter, worker, files, schema, folder }
  }
  const rowOf = async (schema: string, jobId: string) => {
    const client = new pg.Client({ connectionString: postgresUrl })
    await client.connect()
    try {
      const { rows } = await client.query(
        `select data::text as data, output::text as output from ${schema}.job where id = $1`,
        [jobId],
      )
      return rows[0] as { data: string; output: string | null }
    } finally {
      await client.end()
    }
  }

  afterEach(async () => {
    await testQueues.closeAll()
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
  })

  it('carries large bytes as files of the store, not in the row, and removes them when done', async () => {
    const { submitter, files, schema } = await openPair()
    const bytes = new Uint8Array(randomBytes(3 * 1024 * 1024))
    const job = submitter.submit(reverse, 'user-1', { label: 'model', bytes })
    // while it is queued or running, the input is a file of the job's folder
    await until(async () => (await files.list(job.id)).length > 0, 'the input was written')
    const result = await job.result
    expect(Buffer.from(result.bytes).equals(Buffer.from(bytes.slice().reverse()))).toBe(true)
    // the row names the files: kilobytes, not the 4 MB of base64 the bytes would be
    const row = await rowOf(schema, job.id)
    expect(row.data).toContain('"label": "model"')
    expect(row.data.length + (row.output?.length ?? 0)).toBeLessThan(2_000)
    expect(row.output).toContain('result-1/0')
    // the submitter read the result, then removed the job's folder
    await until(async () => (await files.list('')).length === 0, 'the job folder was removed')
  })

  it("converts a model in the worker: the model's files and its SBM travel through the store", async () => {
    const { submitter, worker, files } = await openPair()
    const api = createConversionPool({ jobs: submitter })
    const converter = createConversionPool({ jobs: worker })
    try {
      const duck = new Uint8Array(await readFile(new URL('gltf/Duck/Duck.glb', data)))
      expect(duck.byteLength).toBeGreaterThan(inlineBytesLimit)
      const { sbm, summary } = await api.convertForUser('user-1', {
        entryPath: 'Duck.glb',
        files: [{ path: 'Duck.glb', bytes: duck }],
        role: 'model',
        allowMissingTextures: false,
      })
      expect(summary.triangleCount).toBeGreaterThan(0)
      expect(describeSbm(sbm).triangleCount).toBe(summary.triangleCount)
      await until(async () => (await files.list('')).length === 0, 'the job folder was removed')
    } finally {
      await api.close()
      await converter.close()
    }
  })

  it('keeps small bytes inline, writing no file', async () => {
    const { submitter, files } = await openPair()
    const bytes = new Uint8Array(inlineBytesLimit - 1).fill(7)
    const result = await submitter.submit(reverse, 'user-1', { label: 'small', bytes }).result
    expect(result.bytes.byteLength).toBe(inlineBytesLimit - 1)
    expect(await files.list('')).toEqual([])
  })

  it('sweeps the folders of ended jobs and old orphans, never those of live or young ones', async () => {
    const { submitter, worker, files, folder } = await openPair()
    const write = (name: string, size: number) => files.write(name, new Uint8Array(size))
    // an orphan of an hour and more ago (a submitter that died before inserting its job), a
    // young one (an insert on its way), and a queued job's input
    const oldOrphan = randomUUID()
    const youngOrphan = randomUUID()
    await write(`${oldOrphan}/input/0`, 10)
    await write(`${youngOrphan}/input/0`, 10)
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000)
    await utimes(join(folder, 'job-files', oldOrphan, 'input', '0'), twoHoursAgo, twoHoursAgo)
    const waiting: JobKind<{ bytes: Uint8Array }, number> = {
      name: 'test.unregistered',
      lane: 'io',
      timeLimitMs: 30_000,
      runsAnywhere: true,
      run: async () => 0,
    }
    // nobody runs this kind: the job stays queued with its input in the store
    const queued = submitter.submit(waiting, 'user-2', {
      bytes: new Uint8Array(inlineBytesLimit),
    })
    // closing the queues after the test ends it as the server shutting down
    queued.result.catch(() => {})
    await until(async () => (await files.list(queued.id)).length > 0, 'the input was written')
    await until(() => queued.status().state === 'queued', 'the job was sent')

    expect(await worker.sweepLeftovers()).toBe(1)
    const left = new Set((await files.list('')).map(({ name }) => name.split('/')[0]))
    expect(left).toEqual(new Set([youngOrphan, queued.id]))
  })
})
