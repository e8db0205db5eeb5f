import { afterEach, describe, expect, it } from 'vitest'
import { EngineError } from '../api/errors'
import { createInProcessWorker, type InProcessWorker } from '../testing/in-process-worker'
import { createWorkerClient, createWorkerPool } from './create-worker-client'

const started: InProcessWorker[] = []
function startWorker() {
  const workerNumber = started.length + 1
  let running = 0
  let peak = 0
  const api = {
    workerNumber: () => workerNumber,
    /** Reports how many jobs ran on this worker at once. */
    busy: async (durationMs: number) => {
      running++
      peak = Math.max(peak, running)
      await new Promise((resolve) => setTimeout(resolve, durationMs))
      running--
      return peak
    },
    hang: () => new Promise<never>(() => undefined),
  }
  const worker = createInProcessWorker(api)
  started.push(worker)
  return worker
}
type TestApi = {
  workerNumber(): number
  busy(durationMs: number): Promise<number>
  hang(): Promise<never>
}

afterEach(() => {
  for (const worker of started.splice(0)) worker.terminate()
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

describe('createWorkerClient', () => {
  it('calls the worker and terminates it on dispose', async () => {
    const client = createWorkerClient<TestApi>(startWorker)
    expect(await client.api.workerNumber()).toBe(1)
    client.dispose()
    client.dispose()
    expect(started[0]!.isTerminated()).toBe(true)
    expect(await codeOf(client.failure)).toBe('engine.disposed')
  })
})

describe('createWorkerPool', () => {
  it('starts workers on demand up to the limit, one job per worker, and reuses them', async () => {
    const pool = createWorkerPool<TestApi>(startWorker, { maxWorkers: 2 })
    expect(started).toHaveLength(0)
    const peaks = await Promise.all(
      Array.from({ length: 6 }, () => pool.run((api) => api.busy(20))),
    )
    expect(started).toHaveLength(2)
    expect(Math.max(...peaks)).toBe(1)
    expect(await pool.run((api) => api.workerNumber())).toBeLessThanOrEqual(2)
    pool.dispose()
    expect(started.every((worker) => worker.isTerminated())).toBe(true)
  })

  it('warms up every worker before the first job, and the jobs then use those', async () => {
    const pool = createWorkerPool<TestApi>(startWorker, { maxWorkers: 2 })
    pool.warmUp()
    expect(started).toHaveLength(2)
    pool.warmUp()
    expect(started).toHaveLength(2)
    const workerNumbers = await Promise.all([
      pool.run((api) => api.workerNumber()),
      pool.run(async (api) => {
        await api.busy(10)
        return api.workerNumber()
      }),
    ])
    expect(new Set(workerNumbers)).toEqual(new Set([1, 2]))
    expect(started).toHaveLength(2)
    pool.dispose()
    pool.warmUp()
    expect(started).toHaveLength(2)
    expect(started.every((worker) => worker.isTerminated())).toBe(true)
  })

  it('tryRun runs a job only on a worker free now, never queueing it', async () => {
    const pool = createWorkerPool<TestApi>(startWorker, { maxWorkers: 2 })
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const first = pool.run(async (api) => {
      await held
      return api.workerNumber()
    })
    const second = pool.tryRun(async (api) => {
      await held
      return api.workerNumber()
    })
    expect(second).not.toBeNull()
    // both workers are busy: no third job starts, and none waits
    expect(pool.tryRun((api) => api.workerNumber())).toBeNull()
    release()
    expect(new Set([await first, await second])).toEqual(new Set([1, 2]))
    // free again: it runs, on a worker already started
    expect(await pool.tryRun((api) => api.workerNumber())).toBeLessThanOrEqual(2)
    expect(started).toHaveLength(2)
    pool.dispose()
    expect(pool.tryRun((api) => api.workerNumber())).toBeNull()
  })

  it('rejects queued jobs when disposed', async () => {
    const pool = createWorkerPool<TestApi>(startWorker, { maxWorkers: 1 })
    const running = pool.run((api) => api.hang())
    const queued = pool.run((api) => api.workerNumber())
    pool.dispose()
    expect(await codeOf(queued)).toBe('engine.disposed')
    expect(await codeOf(running)).toBe('engine.disposed')
    expect(await codeOf(pool.run((api) => api.workerNumber()))).toBe('engine.disposed')
  })

  it('fails the job of a crashed worker instead of waiting forever, and replaces the worker', async () => {
    const pool = createWorkerPool<TestApi>(startWorker, { maxWorkers: 1 })
    const stuck = pool.run((api) => api.hang())
    const next = pool.run((api) => api.workerNumber())
    started[0]!.simulateCrash()
    expect(await codeOf(stuck)).toBe('engine.workerFailed')
    expect(await next).toBe(2)
    expect(started[0]!.isTerminated()).toBe(true)
    pool.dispose()
  })
})

describe('createWorkerPool cancelling', () => {
  it('terminates and replaces a worker that does not stop after its job was aborted', async () => {
    const pool = createWorkerPool<TestApi>(startWorker, { maxWorkers: 1 })
    const controller = new AbortController()
    const stuck = pool.run((api) => api.hang(), {
      signal: controller.signal,
      terminateAfterAbortMs: 30,
    })
    controller.abort(new Error('cancelled by the user'))
    await expect(stuck).rejects.toThrow('cancelled by the user')
    expect(started[0]!.isTerminated()).toBe(true)
    expect(await pool.run((api) => api.workerNumber())).toBe(2)
    pool.dispose()
  })

  it('keeps a worker whose aborted job settles in time', async () => {
    const pool = createWorkerPool<TestApi>(startWorker, { maxWorkers: 1 })
    const controller = new AbortController()
    const quick = pool.run((api) => api.busy(5), {
      signal: controller.signal,
      terminateAfterAbortMs: 500,
    })
    controller.abort()
    expect(await quick).toBe(1)
    expect(await pool.run((api) => api.workerNumber())).toBe(1)
    pool.dispose()
  })
})
