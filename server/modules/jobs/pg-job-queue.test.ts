import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import { AppError } from '../../http/app-error'
import { createConversionPool } from '../building/conversion-pool'
import { ConversionError } from '../convert/conversion-error'
import type { JobKind } from './job-queue'
import { holdJob } from './testing/hold-job'
import { pgTestQueues, postgresUrl, until } from './testing/pg-test-queues'

const data = new URL('../../../../shared/data/', import.meta.url)
const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..')

// The shared queue needs PostgreSQL: on SQLite the product runs jobs in-process (job-queue.test.ts)
describe.skipIf(postgresUrl === undefined)('the job queue on PostgreSQL', () => {
  const children: ChildProcess[] = []
  const testQueues = pgTestQueues('jobs')
  const openQueue = testQueues.open
  const newSchema = testQueues.newSchema
  /**
   * The set-up most tests share: a new schema, a queue that only submits (an API process) and
   * one that runs jobs (a worker) on it, the worker running a held job that records which
   * tags started.
   */
  const openWorkerPair = () => {
    const schema = newSchema()
    const submitter = openQueue(schema, false)
    const worker = openQueue(schema, true)
    const started: string[] = []
    const kind = holdJob((tag) => started.push(tag))
    worker.register(kind)
    return { schema, submitter, worker, started, kind }
  }

  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
    await testQueues.closeAll()
  })

  it('runs a job submitted in one process in another, bytes and progress included', async () => {
    const schema = newSchema()
    const submitter = openQueue(schema, false)
    const worker = openQueue(schema, true)
    const seen: number[] = []
    const double: JobKind<{ bytes: Uint8Array }, { bytes: Uint8Array; attempt: number }> = {
      name: 'test.double',
      lane: 'cpu',
      timeLimitMs: 30_000,
      runsAnywhere: true,
      async run(input, context) {
        context.reportProgress(0.25)
        // long enough for the submitter to read the progress once
        await until(() => seen.length > 0, 'the submitter read the progress')
        return { bytes: input.bytes.map((value) => value * 2), attempt: context.attempt }
      },
    }
    worker.register(double)
    const job = submitter.submit(double, 'user-1', { bytes: new Uint8Array([1, 2, 3]) })
    job.onProgress((fraction) => seen.push(fraction))
    const result = await job.result
    expect(result.bytes).toBeInstanceOf(Uint8Array)
    expect([...result.bytes]).toEqual([2, 4, 6])
    expect(result.attempt).toBe(1)
    expect(seen).toEqual([0.25])
    expect(job.status()).toMatchObject({ state: 'succeeded', attempts: 1, userId: 'user-1' })
  })

  it('tells the submitter an AppError as it was thrown, and retries only what is worth it', async () => {
    const schema = newSchema()
    const queue = openQueue(schema, true)
    let runs = 0
    const flaky: JobKind<{ failFirst: boolean }, string> = {
      name: 'test.flaky',
      lane: 'io',
      timeLimitMs: 30_000,
      maxAttempts: 2,
      runsAnywhere: true,
      isRetryable: (error) => error instanceof AppError && error.kind === 'unavailable',
      async run(input, { attempt }) {
        runs++
        if (input.failFirst && attempt === 1) throw new AppError('unavailable', 'job.busy')
        if (!input.failFirst) throw new AppError('validation', 'job.userQueueFull', { count: 7 })
        return `done on run ${attempt}`
      },
    }
    queue.register(flaky)
    await expect(queue.submit(flaky, 'u', { failFirst: true }).result).resolves.toBe(
      'done on run 2',
    )
    expect(runs).toBe(2)

    const refused = queue.submit(flaky, 'u', { failFirst: false })
    const error = await refused.result.catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({
      kind: 'validation',
      messageId: 'job.userQueueFull',
      params: { count: 7 },
    })
    // a refusal is not worth a second run
    expect(runs).toBe(3)
    expect(refused.status()).toMatchObject({ state: 'failed', attempts: 1 })
  })

  it('cancelling a running job aborts its run in the worker', async () => {
    const { submitter, worker, started, kind } = openWorkerPair()
    const job = submitter.submit(kind, 'u', { tag: 'held' })
    await until(() => job.status().state === 'running', 'the job runs')
    expect(job.status().attempts).toBe(1)
    job.cancel()
    await expect(job.result).rejects.toMatchObject({ kind: 'conflict', messageId: 'job.cancelled' })
    await until(() => worker.load('io').running === 0, 'the worker let go of the run')
    expect(job.status().state).toBe('cancelled')
    expect(started).toEqual(['held'])
  })

  it('cancels from another API process: a running job is aborted in its worker, a queued one never runs', async () => {
    const { schema, submitter, worker, started, kind } = openWorkerPair()
    const otherApi = openQueue(schema, false)
    // the io lane's two slots hold two of them (jobs sent together may be claimed in any order)
    const jobs = ['a', 'b', 'c'].map((tag) => ({ tag, job: submitter.submit(kind, 'u', { tag }) }))
    await until(() => started.length === 2, 'the worker started two jobs')
    const [first, second] = jobs.filter(({ tag }) => started.includes(tag)).map(({ job }) => job)
    const waiting = jobs.find(({ tag }) => !started.includes(tag))!.job
    if (!first || !second) throw new Error('two jobs should have started')
    await until(
      () => first.status().state === 'running' && second.status().state === 'running',
      'the submitter saw both run',
    )
    expect(otherApi.status(first.id)).toBeUndefined()

    await expect(otherApi.cancel(waiting.id)).resolves.toBe(true)
    await expect(otherApi.cancel(first.id)).resolves.toBe(true)
    await expect(first.result).rejects.toMatchObject({
      kind: 'conflict',
      messageId: 'job.cancelled',
    })
    await expect(waiting.result).rejects.toMatchObject({ messageId: 'job.cancelled' })
    expect(first.status()).toMatchObject({ state: 'cancelled', attempts: 1 })
    expect(waiting.status()).toMatchObject({ state: 'cancelled', attempts: 0 })
    // the worker let go of the cancelled run; the other still holds its slot
    await until(() => worker.load('io').running === 1, 'the worker aborted the cancelled run')
    expect(second.status().state).toBe('running')
    expect(started).toHaveLength(2)

    // an ended job, an unknown id and a malformed one: nothing to cancel
    await expect(otherApi.cancel(first.id)).resolves.toBe(false)
    await expect(otherApi.cancel('00000000-0000-4000-8000-000000000000')).resolves.toBe(false)
    await expect(otherApi.cancel('not-a-job')).resolves.toBe(false)
    await expect(otherApi.cancel(second.id)).resolves.toBe(true)
    await expect(second.result).rejects.toMatchObject({ messageId: 'job.cancelled' })
  })

  it("one user's many jobs do not hold back another user's one: claims take users in turns", async () => {
    const schema = newSchema()
    const submitter = openQueue(schema, false)
    const started: string[] = []
    const kind = holdJob((tag) => started.push(tag))
    const many = Array.from({ length: 6 }, (_, index) =>
      submitter.submit(kind, 'busy-user', { tag: `busy-${index}`, holdMs: 0 }),
    )
    const client = new pg.Client({ connectionString: postgresUrl })
    await client.connect()
    const waitingRows = async () =>
      Number(
        (await client.query(`select count(*) as count from ${schema}.job where state = 'created'`))
          .rows[0].count,
      )
    let one: (typeof many)[number]
    try {
      // the queue's table exists once the first insert made it
      await until(async () => (await waitingRows().catch(() => 0)) === 6, 'six jobs wait')
      one = submitter.submit(kind, 'other-user', { tag: 'other', holdMs: 0 })
      await until(async () => (await waitingRows()) === 7, 'the seventh waits')
    } finally {
      await client.end()
    }
    // the worker comes after all seven are waiting: its first claim fills its two slots
    const worker = openQueue(schema, true)
    worker.register(kind)
    await Promise.all([...many, one].map((job) => job.result))
    expect(started.slice(0, 2)).toContain('other')
    expect(started).toHaveLength(7)
  })

  it('claims short jobs several at a time, and gives back those it had not started when it stops', async () => {
    const { schema, submitter, worker: first, started, kind } = openWorkerPair()
    // one short run tells the worker this kind's runs are short
    await submitter.submit(kind, 'u', { tag: 'short', holdMs: 0 }).result
    // four held jobs inserted together: claimed at once, two run (the lane's slots), two wait
    const held = ['a', 'b', 'c', 'd'].map((tag) => submitter.submit(kind, 'u', { tag }))
    await until(() => started.length === 3, 'the worker started two of them')
    expect(first.load('io').running).toBe(2)
    await first.close()
    expect(started).toHaveLength(3)

    const second = openQueue(schema, true)
    const answering: typeof kind = {
      ...kind,
      run: (input, context) => kind.run({ ...input, holdMs: 0 }, context),
    }
    second.register(answering)
    await Promise.all(held.map((job) => job.result))
    // the two that ran were stopped (a run spent); the two that waited were never run
    const attempts = held.map((job) => job.status().attempts).sort()
    expect(attempts).toEqual([1, 1, 2, 2])
    // each ran once more in the second worker
    expect(started).toHaveLength(7)
  })

  it('a worker killed mid-job: another worker runs it again, and the job ends once', async () => {
    const schema = newSchema()
    const submitter = openQueue(schema, false)
    const kind = holdJob()
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/modules/jobs/testing/job-worker-process.ts'],
      {
        cwd: repositoryRoot,
        env: { ...process.env, JOB_SCHEMA: schema },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    children.push(child)
    let stdout = ''
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      stdout += text
    })
    // held until aborted: only a second worker's run (given a time) can finish it
    const job = submitter.submit(kind, 'u', { tag: 'convert-me' })
    await until(() => stdout.includes('running convert-me'), 'the worker process took the job')
    await until(() => job.status().state === 'running', 'the submitter saw the job run')
    const exited = new Promise((resolveExit) => child.on('exit', resolveExit))
    child.kill('SIGKILL')
    await exited
    expect(job.status()).toMatchObject({ state: 'running', attempts: 1 })

    // the survivor answers its runs after 100 ms
    const survivor = openQueue(schema, true)
    const answering: typeof kind = {
      ...kind,
      run: (input, context) => kind.run({ ...input, holdMs: 100 }, context),
    }
    survivor.register(answering)
    const result = await job.result
    expect(result).toEqual({ pid: process.pid, tag: 'convert-me' })
    expect(job.status()).toMatchObject({ state: 'succeeded', attempts: 2 })

    const client = new pg.Client({ connectionString: postgresUrl })
    await client.connect()
    try {
      const rows = await client.query(`select state, output from ${schema}.job where id = $1`, [
        job.id,
      ])
      expect(rows.rows).toHaveLength(1)
      expect(rows.rows[0].state).toBe('completed')
    } finally {
      await client.end()
    }
  })

  it('converts a model in the worker process: the SBM comes back, and so does a refusal', async () => {
    const schema = newSchema()
    const api = createConversionPool({ jobs: openQueue(schema, false) })
    const worker = createConversionPool({ jobs: openQueue(schema, true) })
    try {
      const duck = new Uint8Array(await readFile(new URL('gltf/Duck/Duck.glb', data)))
      const { sbm, summary } = await api.convertForUser('user-1', {
        entryPath: 'Duck.glb',
        files: [{ path: 'Duck.glb', bytes: duck }],
        role: 'model',
        allowMissingTextures: false,
      })
      expect(describeSbm(sbm).triangleCount).toBe(summary.triangleCount)
      expect(summary.triangleCount).toBeGreaterThan(0)

      const old = new Uint8Array(
        await readFile(new URL('gltf/edge-cases/glTF1.0-BoxTextured.glb', data)),
      )
      const error = await api
        .convertForUser('user-1', {
          entryPath: 'old.glb',
          files: [{ path: 'old.glb', bytes: old }],
          role: 'model',
          allowMissingTextures: false,
        })
        .catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ConversionError)
      expect((error as ConversionError).reason).toBe('unsupportedGltfVersion')
    } finally {
      await Promise.all([api.close(), worker.close()])
    }
  })
})
