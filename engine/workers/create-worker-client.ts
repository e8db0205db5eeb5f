import * as Comlink from 'comlink'
import { EngineError } from '../api/errors'

/** What a client needs of a worker: a `Worker`, or an in-process stand-in (engine/testing). */
export interface WorkerEndpoint extends Comlink.Endpoint {
  terminate(): void
}

/** A comlink-wrapped worker. */
export interface WorkerClient<Api> {
  api: Comlink.Remote<Api>
  /** Rejects once the worker fails to load or crashes (comlink itself would wait forever). */
  failure: Promise<never>
  /** Releases the comlink proxy and terminates the worker; safe to call twice. */
  dispose(): void
}

/**
 * Starts a worker from a factory (`() => new Worker(new URL(…), { type: 'module' })`) and wraps
 * it with comlink. The factory keeps `new URL(…, import.meta.url)` at the call site, where the
 * bundler can see it and emit the worker chunk.
 */
export function createWorkerClient<Api>(createWorker: () => WorkerEndpoint): WorkerClient<Api> {
  const worker = createWorker()
  const api = Comlink.wrap<Api>(worker)
  let isDisposed = false
  let rejectFailure: (error: EngineError) => void = () => undefined
  const failure = new Promise<never>((_, reject) => {
    rejectFailure = reject
  })
  // Nobody may be racing against it yet; an unobserved rejection would be reported as a bug.
  failure.catch(() => undefined)
  const onError = (event: Event) => {
    const message = 'message' in event && event.message ? String(event.message) : event.type
    rejectFailure(new EngineError('engine.workerFailed', `The worker failed: ${message}`))
  }
  worker.addEventListener('error', onError)
  worker.addEventListener('messageerror', onError)
  return {
    api,
    failure,
    dispose() {
      if (isDisposed) return
      isDisposed = true
      worker.removeEventListener('error', onError)
      worker.removeEventListener('messageerror', onError)
      rejectFailure(new EngineError('engine.disposed', 'The worker was disposed.'))
      api[Comlink.releaseProxy]()
      worker.terminate()
    },
  }
}

/** Runs stateless jobs on a few workers, started on demand and reused. */
export interface WorkerPool<Api> {
  /**
   * Runs `job` with a free worker's API, waiting for one if all are busy. A worker that fails
   * during the job is replaced, and the job rejects with `engine.workerFailed`.
   */
  run<Result>(
    job: (api: Comlink.Remote<Api>) => Promise<Result>,
    options?: WorkerJobOptions,
  ): Promise<Result>
  /**
   * Runs `job` only if a worker is free (or may still be started) right now, else returns null
   * without queueing it: for work that must not wait behind other jobs, e.g. a second decode
   * that another job depends on (a split decode, engine/building/model-download.ts).
   */
  tryRun<Result>(
    job: (api: Comlink.Remote<Api>) => Promise<Result>,
    options?: WorkerJobOptions,
  ): Promise<Result> | null
  /** Starts every worker the pool may have, so the first jobs do not wait for start-up. */
  warmUp(): void
  /** Terminates every worker and rejects waiting jobs with `engine.disposed`. */
  dispose(): void
}

/** Options of one pooled job. */
export interface WorkerJobOptions {
  /**
   * The job's own cancel signal. The job is expected to stop by itself soon after it fires; if
   * it has not settled after `terminateAfterAbortMs` (default 1000 ms), the worker is stuck in
   * long synchronous work, so it is terminated and replaced, and the job rejects with
   * `signal.reason`.
   */
  signal?: AbortSignal
  terminateAfterAbortMs?: number
}

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** At most this many workers at once: CPU-bound jobs gain nothing beyond the core count. */
  maxWorkers: number
}

/** Creates a pool; one job runs per worker at a time, as the jobs are CPU-bound. */
export function createWorkerPool<Api>(
  createWorker: () => WorkerEndpoint,
  { maxWorkers }: WorkerPoolOptions,
): WorkerPool<Api> {
  const idle: WorkerClient<Api>[] = []
  const all = new Set<WorkerClient<Api>>()
  const waiting: {
    resolve: (client: WorkerClient<Api>) => void
    reject: (error: Error) => void
  }[] = []
  let isDisposed = false

  /** A free worker now (started if the pool may grow), or null when all are busy. */
  const takeFree = (): WorkerClient<Api> | null => {
    const free = idle.pop()
    if (free) return free
    if (all.size < Math.max(1, maxWorkers)) {
      const client = createWorkerClient<Api>(createWorker)
      all.add(client)
      return client
    }
    return null
  }

  const acquire = (): Promise<WorkerClient<Api>> => {
    if (isDisposed) return Promise.reject(disposedError())
    const free = takeFree()
    if (free) return Promise.resolve(free)
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }))
  }

  const release = (client: WorkerClient<Api>, isHealthy: boolean) => {
    if (!isHealthy) {
      all.delete(client)
      client.dispose()
      // A waiting job gets a fresh worker in place of the failed one.
      const next = waiting.shift()
      if (next) acquire().then(next.resolve, next.reject)
      return
    }
    const next = waiting.shift()
    if (next) next.resolve(client)
    else idle.push(client)
  }

  async function runOn<Result>(
    client: WorkerClient<Api>,
    job: (api: Comlink.Remote<Api>) => Promise<Result>,
    options: WorkerJobOptions,
  ): Promise<Result> {
    let isHealthy = true
    const { signal, terminateAfterAbortMs = 1000 } = options
    let stuckTimer: ReturnType<typeof setTimeout> | undefined
    let onAbort: (() => void) | undefined
    const stuck = new Promise<never>((_, reject) => {
      onAbort = () => {
        stuckTimer = setTimeout(() => {
          isHealthy = false
          reject(signal?.reason)
        }, terminateAfterAbortMs)
      }
    })
    if (signal?.aborted) onAbort?.()
    else if (onAbort) signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await Promise.race([job(client.api), client.failure, stuck])
    } catch (error) {
      if (error instanceof EngineError && error.code === 'engine.workerFailed') isHealthy = false
      throw error
    } finally {
      clearTimeout(stuckTimer)
      if (onAbort) signal?.removeEventListener('abort', onAbort)
      if (!isDisposed) release(client, isHealthy)
    }
  }

  return {
    async run(job, options = {}) {
      const client = await acquire()
      // dispose() may have run while this job waited for the acquisition to settle.
      if (isDisposed) throw disposedError()
      return runOn(client, job, options)
    },
    tryRun(job, options = {}) {
      if (isDisposed) return null
      const client = takeFree()
      return client ? runOn(client, job, options) : null
    },
    warmUp() {
      // Workers start loading their module at construction: made now, they are ready by the
      // time the first job arrives instead of adding their start-up to it.
      while (!isDisposed && all.size < Math.max(1, maxWorkers)) {
        const client = createWorkerClient<Api>(createWorker)
        all.add(client)
        idle.push(client)
      }
    },
    dispose() {
      isDisposed = true
      for (const { reject } of waiting.splice(0)) reject(disposedError())
      for (const client of all) client.dispose()
      all.clear()
      idle.length = 0
    },
  }
}

function disposedError(): EngineError {
  return new EngineError('engine.disposed', 'The worker pool was disposed.')
}
