import { type ResourceLimits, Worker } from 'node:worker_threads'
import { AppError } from '../../http/app-error'

/** What a task thread answers: the value, or the failure as text (Errors do not cross threads). */
export type ThreadReply<Value> =
  | { taskId: number; ok: true; value: Value }
  | { taskId: number; ok: false; failure: string }

/** What a task thread says while it works: how far it has got, 0–1 (any number of times). */
export interface ThreadProgress {
  taskId: number
  progress: number
}

/** A task the runner could not finish because its thread died (crash, not a refusal). */
export class ThreadStoppedError extends Error {
  constructor(detail: string) {
    super(`the worker thread stopped: ${detail}`)
    this.name = 'ThreadStoppedError'
  }
}

/**
 * Memory a task thread may use. V8's heap is capped by `resourceLimits` (the thread is stopped,
 * not the server, when a task goes over); WebAssembly memory (assimp, meshopt) is not covered
 * by V8's limits, so inputs are bounded before they get here (pixel budgets, upload sizes) and
 * idle threads are ended, which returns whatever memory they grew to.
 */
export const defaultThreadLimits: ResourceLimits = {
  maxOldGenerationSizeMb: 1024,
  maxYoungGenerationSizeMb: 64,
  codeRangeSizeMb: 64,
  stackSizeMb: 8,
}

/** How one task is run. */
export interface ThreadRunOptions {
  signal: AbortSignal
  transfer?: ArrayBuffer[]
  onProgress?(fraction: number): void
}

/** Runs tasks in worker threads started from one entry file, one task per thread at a time. */
export interface ThreadRunner {
  /**
   * Runs one task in an idle thread (started when none is). Aborting `signal` terminates that
   * thread and, once it has stopped, rejects with the signal's reason. `onProgress` hears the thread's progress
   * reports (`reportProgress` of {@link serveThreadTasks}), each before the answer.
   */
  run<Value>(input: unknown, options: ThreadRunOptions): Promise<Value>
  /** Ends every thread. */
  close(): Promise<void>
}

/**
 * Keeps idle threads for reuse (starting one costs the TypeScript loader and the WebAssembly
 * modules), ends them after `idleMs` without work, and replaces any that crashed, ran out of
 * memory or were stopped. How many run at once is the job queue's business (its lane slots).
 */
export function createThreadRunner(options: {
  entry: URL
  resourceLimits?: ResourceLimits
  idleMs?: number
}): ThreadRunner {
  const resourceLimits = options.resourceLimits ?? defaultThreadLimits
  const idleMs = options.idleMs ?? 60_000
  const idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = []
  const busy = new Set<Worker>()
  let nextTaskId = 1

  const take = (): Worker => {
    const reused = idle.pop()
    if (reused) {
      clearTimeout(reused.timer)
      return reused.worker
    }
    const worker = new Worker(options.entry, { resourceLimits })
    // an idle thread must not keep the process alive
    worker.unref()
    return worker
  }

  const giveBack = (worker: Worker) => {
    busy.delete(worker)
    const timer = setTimeout(() => {
      const index = idle.findIndex((item) => item.worker === worker)
      if (index >= 0) idle.splice(index, 1)
      void worker.terminate()
    }, idleMs)
    timer.unref()
    idle.push({ worker, timer })
  }

  return {
    run<Value>(input: unknown, { signal, transfer = [], onProgress }: ThreadRunOptions) {
      if (signal.aborted) return Promise.reject(signal.reason)
      const worker = take()
      busy.add(worker)
      const taskId = nextTaskId++
      return new Promise<Value>((resolve, reject) => {
        let isSettled = false
        const finish = (isReusable: boolean, outcome: () => void) => {
          if (isSettled) return
          isSettled = true
          worker.off('message', onMessage)
          worker.off('error', onError)
          worker.off('exit', onExit)
          signal.removeEventListener('abort', onAbort)
          if (isReusable) {
            giveBack(worker)
            outcome()
          } else {
            busy.delete(worker)
            // told once the thread has stopped: it writes nothing after, and its files are closed
            worker.terminate().then(outcome, outcome)
          }
        }
        const onMessage = (reply: ThreadReply<Value> | ThreadProgress) => {
          if (reply.taskId !== taskId) return
          if ('progress' in reply) {
            if (!isSettled) onProgress?.(reply.progress)
            return
          }
          finish(true, () =>
            reply.ok ? resolve(reply.value) : reject(new Error(`task failed: ${reply.failure}`)),
          )
        }
        const onError = (error: Error & { code?: string }) => {
          finish(false, () =>
            reject(
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new AppError('tooLarge', 'job.outOfMemory', {
                    megabytes: resourceLimits.maxOldGenerationSizeMb ?? 0,
                  })
                : new ThreadStoppedError(error.message),
            ),
          )
        }
        const onExit = (code: number) =>
          finish(false, () => reject(new ThreadStoppedError(`exit code ${code}`)))
        const onAbort = () => finish(false, () => reject(signal.reason))
        worker.on('message', onMessage)
        worker.on('error', onError)
        worker.on('exit', onExit)
        signal.addEventListener('abort', onAbort, { once: true })
        // copies only when several inputs share one buffer (transfer lists reject duplicates)
        const isTransferable = new Set(transfer).size === transfer.length
        worker.postMessage({ taskId, input }, isTransferable ? transfer : [])
      })
    },

    async close() {
      const workers = [...busy, ...idle.map((item) => item.worker)]
      for (const item of idle.splice(0)) clearTimeout(item.timer)
      busy.clear()
      await Promise.all(workers.map((worker) => worker.terminate()))
    },
  }
}
