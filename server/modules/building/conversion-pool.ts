import { availableParallelism } from 'node:os'
import type { ResourceLimits } from 'node:worker_threads'
import { ConversionError, type ConversionRefusal } from '../convert/conversion-error'
import type { ConversionSummary } from '../convert/convert-model'
import { createJobQueue, type Job, type JobKind, type JobQueue } from '../jobs/job-queue'
import { reviveSentError } from '../jobs/job-wire'
import { createThreadRunner } from '../jobs/thread-runner'
import type { ConversionJob, ConversionReply, PreviewReply } from './conversion-protocol'

/** What a finished conversion gives back. */
export interface PooledConversion {
  sbm: Uint8Array<ArrayBuffer>
  /** The model's thumbnail (PNG), null for a model with no triangles. */
  preview: Uint8Array | null
  summary: ConversionSummary
}

/** Runs model conversions off the request thread, through the job queue. */
export interface ConversionPool {
  /**
   * "Convert this file for this user": converts `job.entryPath` of `job.files` to SBM in a
   * worker thread, queued fairly against other users' conversions. Rejects with the
   * converter's {@link ConversionError}, or an `unavailable` AppError when the user's or the
   * server's queue is full or the conversion ran past its time limit.
   */
  convertForUser(userId: string, job: ConversionJob): Promise<PooledConversion>
  /** The same as a {@link Job}, for callers that show progress or offer cancelling. */
  submit(userId: string, job: ConversionJob): Job<PooledConversion>
  /**
   * Kept for callers from before the job queue: {@link convertForUser} with `job.userId`, or
   * one shared 'unattributed' user (which shares one fair share among all such callers).
   */
  convert(job: ConversionJob & { userId?: string }): Promise<PooledConversion>
  /**
   * The thumbnail of an SBM uploaded as it is (converted models get theirs from the conversion),
   * drawn in a conversion thread as a 'cpu' job of the user. Null when it cannot be drawn; never
   * rejects for the model's sake, only when the queue refuses the job.
   */
  previewForUser(userId: string, sbm: Uint8Array): Promise<Uint8Array | null>
  /** Jobs running and waiting, for tests and logs. */
  load(): { running: number; queued: number }
  /** Ends the threads; queued jobs are refused (and the queue closed, when the pool made it). */
  close(): Promise<void>
}

/** Tuning of the pool; defaults suit the 2-core machines the product runs on. */
export interface ConversionPoolOptions {
  /** The app's job queue; without one the pool makes its own with `size` CPU slots. */
  jobs?: JobQueue
  /** Conversions at once (own queue only); default one per two cores, at least one. */
  size?: number
  /** Conversions all users may have waiting (own queue only). */
  maxQueued?: number
  /** Conversions one user may have waiting (own queue only). */
  maxQueuedPerUser?: number
  /** A conversion running longer is stopped (its thread is terminated). */
  jobTimeoutMs?: number
  /** Memory limits of each conversion thread. */
  resourceLimits?: ResourceLimits
}

const threadEntry = new URL('./conversion-thread.mjs', import.meta.url)

/**
 * Model conversions as jobs of the {@link JobQueue} ('cpu' lane), run in worker threads. The
 * converter (assimp and meshopt WebAssembly, BVH builds) is synchronous CPU work of up to
 * seconds per model: on the request thread it would stall every other request.
 */
export function createConversionPool(options: ConversionPoolOptions = {}): ConversionPool {
  const ownsQueue = options.jobs === undefined
  const jobs =
    options.jobs ??
    createJobQueue({
      slots: { cpu: options.size ?? Math.max(1, Math.floor(availableParallelism() / 2)) },
      maxQueued: options.maxQueued ?? 8,
      maxQueuedPerUser: options.maxQueuedPerUser ?? options.maxQueued ?? 4,
    })
  const runner = createThreadRunner({
    entry: threadEntry,
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
  })

  const kind: JobKind<ConversionJob, PooledConversion> = {
    name: 'model.convert',
    lane: 'cpu',
    timeLimitMs: options.jobTimeoutMs ?? 5 * 60_000,
    // no retry: the input is transferred to the thread (not copied), and a model that crashed
    // a converter thread would most likely crash the next one too
    maxAttempts: 1,
    // on the shared queue any worker process converts: files in, SBM and preview out, as bytes
    runsAnywhere: true,
    reviveError: (sent) =>
      sent.name === 'ConversionError'
        ? new ConversionError(
            sent.fields.reason as ConversionRefusal,
            sent.message,
            sent.fields.names as string[],
          )
        : reviveSentError(sent),
    async run(job, { signal }) {
      const transfer = job.files.map((file) => file.bytes.buffer as ArrayBuffer)
      const reply = await runner.run<ConversionReply>(job, { signal, transfer })
      if (reply.ok) return { sbm: reply.sbm, preview: reply.preview, summary: reply.summary }
      const { reason, message, names } = reply.refusal
      throw new ConversionError(reason, message, names)
    },
  }

  jobs.register(kind)

  const previewKind: JobKind<Uint8Array, Uint8Array | null> = {
    name: 'model.preview',
    lane: 'cpu',
    timeLimitMs: 60_000,
    async run(sbm, { signal }) {
      // a copy goes to the thread: the caller stores the same bytes
      const copy = new Uint8Array(sbm)
      const reply = await runner.run<PreviewReply>(
        { kind: 'preview', sbm: copy },
        { signal, transfer: [copy.buffer] },
      )
      return reply.preview
    },
  }

  const submit = (userId: string, job: ConversionJob) => jobs.submit(kind, userId, job)
  return {
    submit,
    previewForUser: (userId, sbm) => jobs.submit(previewKind, userId, sbm).result,
    convertForUser: (userId, job) => submit(userId, job).result,
    convert: ({ userId, ...job }) => submit(userId ?? 'unattributed', job).result,
    load: () => jobs.load('cpu'),
    async close() {
      if (ownsQueue) await jobs.close()
      await runner.close()
    },
  }
}
