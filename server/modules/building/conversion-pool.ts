import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { AppError } from '../../http/app-error'
import { ConversionError } from '../convert/conversion-error'
import type { ConversionSummary } from '../convert/convert-model'
import type { ConversionJob, ConversionReply } from './conversion-protocol'

/** What a finished conversion gives back. */
export interface PooledConversion {
  sbm: Uint8Array<ArrayBuffer>
  summary: ConversionSummary
}

/** Runs model conversions off the request thread. */
export interface ConversionPool {
  /**
   * Converts `entryPath` of `files` to SBM in a worker thread. Rejects with the converter's
   * {@link ConversionError}, or an `unavailable` AppError when the queue is full or the job
   * ran past the time limit.
   */
  convert(job: Omit<ConversionJob, 'jobId'>): Promise<PooledConversion>
  /** Jobs running and waiting, for tests and logs. */
  load(): { running: number; queued: number }
  /** Terminates the workers; queued jobs are refused. */
  close(): Promise<void>
}

/** Tuning of the pool; defaults suit the 2-core machines the product runs on. */
export interface ConversionPoolOptions {
  /** Worker threads; default one per two cores, at least one. */
  size?: number
  /** Jobs that may wait for a worker; more are refused as `unavailable`. */
  maxQueued?: number
  /** A conversion running longer is stopped (its worker is replaced). */
  jobTimeoutMs?: number
}

interface PendingJob {
  job: ConversionJob
  resolve: (value: PooledConversion) => void
  reject: (error: unknown) => void
}

interface Slot {
  worker: Worker | null
  running: PendingJob | null
  timer: NodeJS.Timeout | null
}

const threadEntry = new URL('./conversion-thread.mjs', import.meta.url)

/**
 * A small pool of conversion threads. The converter (assimp and meshopt WebAssembly, BVH builds)
 * is synchronous CPU work of up to seconds per model: on the request thread it would stall every
 * other request, health checks included. One worker per two cores leaves the other core to
 * the request thread and the database; a bounded queue turns overload into a quick, honest
 * `unavailable` answer instead of uploads piling up in memory.
 */
export function createConversionPool(options: ConversionPoolOptions = {}): ConversionPool {
  const size = options.size ?? Math.max(1, Math.floor(availableParallelism() / 2))
  const maxQueued = options.maxQueued ?? 8
  const jobTimeoutMs = options.jobTimeoutMs ?? 5 * 60_000
  const slots: Slot[] = Array.from({ length: size }, () => ({
    worker: null,
    running: null,
    timer: null,
  }))
  const queue: PendingJob[] = []
  let nextJobId = 1
  let isClosed = false

  const settle = (slot: Slot, outcome: (pending: PendingJob) => void) => {
    const pending = slot.running
    if (slot.timer) clearTimeout(slot.timer)
    slot.timer = null
    slot.running = null
    if (pending) outcome(pending)
    pump()
  }

  const retire = (slot: Slot) => {
    const worker = slot.worker
    slot.worker = null
    if (worker) void worker.terminate()
  }

  const spawn = (slot: Slot): Worker => {
    const worker = new Worker(threadEntry)
    worker.on('message', (reply: ConversionReply) => {
      if (slot.running?.job.jobId !== reply.jobId) return
      settle(slot, (pending) => {
        if (reply.ok) pending.resolve({ sbm: reply.sbm, summary: reply.summary })
        else if ('refusal' in reply) {
          const { reason, message, names } = reply.refusal
          pending.reject(new ConversionError(reason, message, names))
        } else pending.reject(new Error(`model conversion failed: ${reply.failure}`))
      })
    })
    const fail = (error: unknown) => {
      if (slot.worker !== worker) return
      slot.worker = null
      settle(slot, (pending) =>
        pending.reject(new Error(`model conversion thread stopped: ${String(error)}`)),
      )
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(`exit code ${code}`))
    // an idle worker must not keep the process alive
    worker.unref()
    return worker
  }

  const pump = () => {
    for (const slot of slots) {
      if (slot.running || queue.length === 0 || isClosed) continue
      const pending = queue.shift()!
      slot.running = pending
      slot.worker ??= spawn(slot)
      slot.timer = setTimeout(() => {
        retire(slot)
        settle(slot, (timedOut) =>
          timedOut.reject(
            new AppError(
              'unavailable',
              `The conversion took longer than ${Math.round(jobTimeoutMs / 1000)} s and was stopped.`,
            ),
          ),
        )
      }, jobTimeoutMs)
      const transfer = pending.job.files.map((file) => file.bytes.buffer as ArrayBuffer)
      // copies only when several files share one buffer (transfer lists reject duplicates)
      const isTransferable = new Set(transfer).size === transfer.length
      slot.worker.postMessage(pending.job, isTransferable ? transfer : [])
    }
  }

  return {
    convert(job) {
      if (isClosed) {
        return Promise.reject(new AppError('unavailable', 'The model converter is shutting down.'))
      }
      const isSlotFree = slots.some((slot) => slot.running === null)
      if (!isSlotFree && queue.length >= maxQueued) {
        return Promise.reject(
          new AppError(
            'unavailable',
            'The model converter is busy with other uploads; please try again in a minute.',
          ),
        )
      }
      return new Promise<PooledConversion>((resolve, reject) => {
        queue.push({ job: { ...job, jobId: nextJobId++ }, resolve, reject })
        pump()
      })
    },
    load() {
      return {
        running: slots.filter((slot) => slot.running !== null).length,
        queued: queue.length,
      }
    },
    async close() {
      isClosed = true
      for (const pending of queue.splice(0)) {
        pending.reject(new AppError('unavailable', 'The model converter is shutting down.'))
      }
      await Promise.all(
        slots.map(async (slot) => {
          const worker = slot.worker
          slot.worker = null
          if (slot.timer) clearTimeout(slot.timer)
          if (slot.running) {
            slot.running.reject(
              new AppError('unavailable', 'The model converter is shutting down.'),
            )
            slot.running = null
          }
          if (worker) await worker.terminate()
        }),
      )
    },
  }
}
