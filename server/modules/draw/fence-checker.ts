import { Worker } from 'node:worker_threads'
import type { LngLat } from '../../../workers/geodesy/draw-geometry'
import type { FenceShape } from '../../../workers/geodesy/fence-index'
import { AppError } from '../../http/app-error'
import { defaultThreadLimits } from '../jobs/thread-runner'

/** Messages to the fence thread. */
export type FenceThreadRequest =
  | { type: 'index'; key: number; shapes: FenceShape[] }
  | { type: 'drop'; key: number }
  | { type: 'containing'; batch: number; key: number; points: Float64Array }

/** The thread's answer to a `containing` batch: per point the fence ids; null: index unknown. */
export interface FenceThreadReply {
  batch: number
  ids: string[][] | null
}

/** Most points in one message to the thread (a second's 10,000 reports go in ten). */
export const fenceBatchMaxPoints = 1000

/** Which fences of a project contain a position, answered by a worker thread. */
export interface FenceChecker {
  /** The ids of the project's fences containing `point`, in fence order. */
  containing(projectId: string, point: LngLat): Promise<string[]>
  /** The project's fences changed: they are read again on next use. */
  forget(projectId: string): void
  /** Ends the thread (a later call starts a new one). */
  close(): Promise<void>
}

interface Waiter {
  resolve(ids: string[]): void
  reject(error: unknown): void
}

interface Batch {
  projectId: string
  points: LngLat[]
  waiters: Waiter[]
}

const threadEntry = new URL('./fence-checker-thread.mjs', import.meta.url)

/**
 * Electronic fences in a worker thread (issue 18 "point-in-polygon in a worker over a spatial
 * index"): the request thread reads a project's fences from the database (`loadShapes`) and
 * hands them over once; the thread builds the flatbush index (workers/geodesy/fence-index.ts)
 * and answers "which fences contain this point". Points asked in one turn of the event loop go
 * over in one message, so a burst of reports costs a few messages, not one each. An index the
 * thread no longer has (the fences changed meanwhile, or the thread was replaced) is asked again
 * with the fences read anew. A thread that dies fails what it was asked with `unavailable`, and
 * the next call starts another.
 */
export function createFenceChecker(dependencies: {
  loadShapes(projectId: string): Promise<FenceShape[]>
}): FenceChecker {
  let thread: Worker | undefined
  let nextKey = 1
  let nextBatch = 1
  /** Per project, the key of its index in the thread, ready once handed over. */
  const loads = new Map<string, { key: number; ready: Promise<void> }>()
  /** Batches sent and not answered yet. */
  const sent = new Map<number, Batch>()
  /** Points asked in this turn, per index key. */
  const queued = new Map<number, Batch>()
  let isFlushScheduled = false

  const unavailable = () => new AppError('unavailable', 'error.unavailable')

  const stop = (worker: Worker) => {
    if (thread !== worker) return
    thread = undefined
    loads.clear()
    for (const batch of sent.values())
      for (const waiter of batch.waiters) waiter.reject(unavailable())
    sent.clear()
    void worker.terminate()
  }

  const threadOf = (): Worker => {
    if (thread) return thread
    const worker = new Worker(threadEntry, { resourceLimits: defaultThreadLimits })
    // idle, it must not keep the process alive (it is ref'd while answers are awaited)
    worker.unref()
    worker.on('message', (reply: FenceThreadReply) => {
      const batch = sent.get(reply.batch)
      if (!batch) return
      sent.delete(reply.batch)
      if (sent.size === 0) worker.unref()
      if (reply.ids === null) {
        // the index went (its fences changed): ask again with the fences as they are now
        batch.points.forEach((point, index) => {
          const waiter = batch.waiters[index]!
          containing(batch.projectId, point).then(waiter.resolve, waiter.reject)
        })
        return
      }
      for (const [index, ids] of reply.ids.entries()) batch.waiters[index]!.resolve(ids)
    })
    worker.on('error', () => stop(worker))
    worker.on('exit', () => stop(worker))
    thread = worker
    return worker
  }

  const keyOf = async (projectId: string): Promise<number> => {
    let load = loads.get(projectId)
    if (!load) {
      const key = nextKey++
      const worker = threadOf()
      const ready = dependencies.loadShapes(projectId).then((shapes) => {
        if (thread === worker) {
          worker.postMessage({ type: 'index', key, shapes } satisfies FenceThreadRequest)
        }
        // else the thread was replaced: the query finds no index and asks again
      })
      const made = { key, ready }
      // a failed read is not kept: the next call reads again
      ready.catch(() => {
        if (loads.get(projectId) === made) loads.delete(projectId)
      })
      loads.set(projectId, made)
      load = made
    }
    await load.ready
    return load.key
  }

  const send = (key: number, batch: Batch) => {
    queued.delete(key)
    const worker = threadOf()
    const id = nextBatch++
    const points = new Float64Array(batch.points.length * 2)
    batch.points.forEach(([lng, lat], index) => {
      points[index * 2] = lng
      points[index * 2 + 1] = lat
    })
    sent.set(id, batch)
    worker.ref()
    worker.postMessage(
      { type: 'containing', batch: id, key, points } satisfies FenceThreadRequest,
      [points.buffer],
    )
  }

  const flush = () => {
    isFlushScheduled = false
    for (const [key, batch] of queued) send(key, batch)
  }

  const containing = async (projectId: string, point: LngLat): Promise<string[]> => {
    const key = await keyOf(projectId)
    return new Promise<string[]>((resolve, reject) => {
      let batch = queued.get(key)
      if (!batch) {
        batch = { projectId, points: [], waiters: [] }
        queued.set(key, batch)
      }
      batch.points.push(point)
      batch.waiters.push({ resolve, reject })
      if (batch.points.length >= fenceBatchMaxPoints) send(key, batch)
      else if (!isFlushScheduled) {
        isFlushScheduled = true
        setImmediate(flush)
      }
    })
  }

  return {
    containing,
    forget(projectId) {
      const load = loads.get(projectId)
      if (!load) return
      loads.delete(projectId)
      const worker = thread
      load.ready.then(
        () => {
          if (worker && thread === worker) {
            worker.postMessage({ type: 'drop', key: load.key } satisfies FenceThreadRequest)
          }
        },
        () => undefined,
      )
    },
    async close() {
      const worker = thread
      if (!worker) return
      stop(worker)
      await worker.terminate()
    },
  }
}
