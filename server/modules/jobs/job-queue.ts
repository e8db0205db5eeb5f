import { randomUUID } from 'node:crypto'
import { AppError } from '../../http/app-error'

/** Where a job is in its life. */
export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'

/** What anyone may know of a job: plain data, the same whatever queue backs it. */
export interface JobStatus {
  id: string
  kind: string
  userId: string
  state: JobState
  /** 0–1 as the job last reported, or null when it reports none. */
  progress: number | null
  /** Runs started so far (more than one after a retry). */
  attempts: number
  /** Why it failed or was cancelled, as the envelope would say it. */
  error: { kind: string; message: string } | null
}

/** What a running job is given. */
export interface JobContext {
  /** Aborted when the job is cancelled or runs past its time limit: stop and reject. */
  signal: AbortSignal
  /** Reports progress, 0–1 (throttling is the reporter's business). */
  reportProgress(fraction: number): void
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number
}

/**
 * A kind of background work: a name, how to run one input, and its limits. Inputs and results
 * are structured-clone data, so a queue kept in a database can carry them later unchanged.
 */
export interface JobKind<Input, Result> {
  name: string
  /**
   * Which slots it competes for: 'cpu' (worker threads, converting) or 'io' (streams to disk,
   * ingesting), so a long ingest never holds up a conversion or the other way round.
   */
  lane: 'cpu' | 'io'
  run(input: Input, context: JobContext): Promise<Result>
  /** A run longer than this is aborted and the job fails as `unavailable`. */
  timeLimitMs: number
  /** Runs at most this many times (default 1: no retry). */
  maxAttempts?: number
  /** Whether a failure is worth another run (default: none is). */
  isRetryable?(error: unknown): boolean
  /**
   * True when a job of this kind may run in another process, on another machine with the same
   * configuration (a shared queue on PostgreSQL, `npm run worker`): its input and result are
   * JSON data and bytes, and its run needs nothing of the submitting process but the database,
   * the store and DATA_DIR. Other kinds always run where they were submitted.
   */
  runsAnywhere?: boolean
  /**
   * Turns an error that came back from another process (its name, message and own fields) into
   * the error the submitter expects; default: an AppError stays an AppError, the rest an Error.
   */
  reviveError?(sent: SentError): unknown
}

/** An error as it travels between processes: its name, English message and own fields. */
export interface SentError {
  name: string
  message: string
  fields: Record<string, unknown>
}

/** A submitted job, as its submitter holds it. */
export interface Job<Result> {
  id: string
  /** Settles with the result, or rejects (AppError `unavailable` for time limit and overload). */
  result: Promise<Result>
  status(): JobStatus
  /** Stops the job: a queued one never runs, a running one is aborted. */
  cancel(): void
  /** Called on each progress report; returns the unsubscribe function. */
  onProgress(listener: (fraction: number) => void): () => void
}

/**
 * The one interface for background work (issue 14 item 8): submit, progress, cancel, result,
 * retry, fairness between users and a time limit per run. This implementation runs jobs in this
 * process (heavy kinds hand their work to worker threads); a PostgreSQL-backed queue can
 * implement the same interface later, since callers only submit a kind with plain-data input
 * and read statuses by id.
 */
export interface JobQueue {
  /**
   * Tells the queue that this process can run jobs of this kind submitted by any process (a
   * shared queue starts fetching them if this process runs jobs); the in-process queue needs
   * no telling, since its jobs carry their kind.
   */
  register(kind: JobKind<never, unknown>): void
  submit<Input, Result>(kind: JobKind<Input, Result>, userId: string, input: Input): Job<Result>
  /** A job's status while it is queued or running and for a while after it ended. */
  status(jobId: string): JobStatus | undefined
  /**
   * Cancels a job by id, whichever process submitted it (on the shared queue its row says so:
   * the worker running it aborts the run, its submitter is told); false when there is no such
   * job or it has already ended.
   */
  cancel(jobId: string): Promise<boolean>
  /** Jobs running and waiting, per lane, for tests and logs. */
  load(lane?: JobKind<unknown, unknown>['lane']): { running: number; queued: number }
  /** Refuses new jobs, aborts running ones and rejects the queued. */
  close(): Promise<void>
  /**
   * Removes what ended jobs left behind and nobody will read (the shared queue's job files of a
   * submitter that went away); resolves to how many jobs' leftovers went.
   */
  sweepLeftovers(): Promise<number>
}

/** Tuning of the in-process queue. */
export interface JobQueueOptions {
  /** Jobs that may run at once, per lane. */
  slots?: Partial<Record<JobKind<unknown, unknown>['lane'], number>>
  /** Jobs one user may have waiting (not running); more are refused as `unavailable`. */
  maxQueuedPerUser?: number
  /** Jobs all users together may have waiting. */
  maxQueued?: number
  /** How many ended jobs keep their status for `status(id)`. */
  keptEndedJobs?: number
}

interface Entry {
  kind: JobKind<unknown, unknown>
  input: unknown
  status: JobStatus
  listeners: Set<(fraction: number) => void>
  controller: AbortController | null
  /** True once the submitter has its answer (the run may still be winding down). */
  isSettled: boolean
  resolve(value: unknown): void
  reject(error: unknown): void
}

interface UserLine {
  waiting: Entry[]
  running: number
  /** Order in which the user last had a job started; lower was served longer ago. */
  lastStarted: number
}

interface Lane {
  slots: number
  running: number
  users: Map<string, UserLine>
}

/** How long a stopped run may take to wind down before its submitter is told anyway. */
const stopGraceMs = 2_000

/**
 * The in-process {@link JobQueue}. Fairness: when a slot frees, the next job comes from the user
 * with the fewest jobs running, and among those the one served longest ago, so one user's ten
 * queued jobs delay another user's single job by at most the one job already in the slot. Each
 * run has its kind's time limit; a run past it is aborted (a worker thread is terminated) and
 * the job fails at once.
 */
export function createJobQueue(options: JobQueueOptions = {}): JobQueue {
  const maxQueuedPerUser = options.maxQueuedPerUser ?? 4
  const maxQueued = options.maxQueued ?? 64
  const keptEndedJobs = options.keptEndedJobs ?? 1_000
  const lanes = {
    cpu: { slots: options.slots?.cpu ?? 1, running: 0, users: new Map() } as Lane,
    io: { slots: options.slots?.io ?? 2, running: 0, users: new Map() } as Lane,
  }
  const entries = new Map<string, Entry>()
  const ended: string[] = []
  let startCounter = 0
  let isClosed = false

  const queuedIn = (lane: Lane) => {
    let count = 0
    for (const line of lane.users.values()) count += line.waiting.length
    return count
  }

  const end = (entry: Entry, state: JobState, outcome: { value?: unknown; error?: unknown }) => {
    if (entry.isSettled) return
    entry.isSettled = true
    entry.status.state = state
    if (state === 'succeeded') entry.resolve(outcome.value)
    else {
      const error = outcome.error
      entry.status.error = {
        kind: error instanceof AppError ? error.kind : 'internal',
        message: error instanceof Error ? error.message : String(error),
      }
      entry.reject(error)
    }
    ended.push(entry.status.id)
    while (ended.length > keptEndedJobs) entries.delete(ended.shift()!)
  }

  const pickNext = (lane: Lane): { userId: string; line: UserLine } | undefined => {
    let best: { userId: string; line: UserLine } | undefined
    for (const [userId, line] of lane.users) {
      if (line.waiting.length === 0) continue
      if (
        !best ||
        line.running < best.line.running ||
        (line.running === best.line.running && line.lastStarted < best.line.lastStarted)
      ) {
        best = { userId, line }
      }
    }
    return best
  }

  const pump = (lane: Lane) => {
    while (!isClosed && lane.running < lane.slots) {
      const next = pickNext(lane)
      if (!next) return
      const entry = next.line.waiting.shift()!
      next.line.running++
      next.line.lastStarted = ++startCounter
      lane.running++
      void runEntry(entry).then((outcome) => {
        // the slot is free before the submitter hears, so a follow-up job finds it free
        lane.running--
        next.line.running--
        if (next.line.running === 0 && next.line.waiting.length === 0) {
          lane.users.delete(next.userId)
        }
        end(entry, outcome.state, outcome)
        pump(lane)
      })
    }
  }

  /** Runs a job, retrying as its kind allows; resolves with how it ended (never rejects). */
  const runEntry = async (
    entry: Entry,
  ): Promise<{ state: JobState; value?: unknown; error?: unknown }> => {
    const { kind } = entry
    const maxAttempts = Math.max(1, kind.maxAttempts ?? 1)
    for (;;) {
      const controller = new AbortController()
      entry.controller = controller
      entry.status.state = 'running'
      entry.status.attempts++
      let grace: NodeJS.Timeout | undefined
      const timer = setTimeout(() => {
        const seconds = Math.round(kind.timeLimitMs / 1000)
        const error = new AppError('unavailable', 'job.timeLimit', { seconds })
        controller.abort(error)
        // a run that ignores its signal still holds the slot, but its submitter is told
        grace = setTimeout(() => end(entry, 'failed', { error }), stopGraceMs)
        grace.unref()
      }, kind.timeLimitMs)
      try {
        const value = await kind.run(entry.input, {
          signal: controller.signal,
          attempt: entry.status.attempts,
          reportProgress(fraction) {
            if (entry.status.state !== 'running') return
            entry.status.progress = Math.min(1, Math.max(0, fraction))
            for (const listener of entry.listeners) listener(entry.status.progress)
          },
        })
        if (!controller.signal.aborted) return { state: 'succeeded', value }
      } catch (error) {
        const canRetry =
          !controller.signal.aborted &&
          entry.status.attempts < maxAttempts &&
          kind.isRetryable?.(error) === true
        if (!canRetry && !controller.signal.aborted) return { state: 'failed', error }
      } finally {
        clearTimeout(timer)
        clearTimeout(grace)
        entry.controller = null
      }
      if (controller.signal.aborted) {
        const reason = controller.signal.reason
        const isCancel = reason instanceof AppError && reason.kind === 'conflict'
        return { state: isCancel ? 'cancelled' : 'failed', error: reason }
      }
    }
  }

  const cancelEntry = (entry: Entry): boolean => {
    const { state, userId } = entry.status
    if (state !== 'queued' && state !== 'running') return false
    const error = new AppError('conflict', 'job.cancelled')
    if (state === 'queued') {
      const line = lanes[entry.kind.lane].users.get(userId)
      if (line) line.waiting = line.waiting.filter((waiting) => waiting !== entry)
      end(entry, 'cancelled', { error })
    } else {
      if (entry.controller?.signal.aborted !== false) return false
      entry.controller.abort(error)
      // told once the run has wound down (at once for runs that honour their signal)
      setTimeout(() => end(entry, 'cancelled', { error }), stopGraceMs).unref()
    }
    return true
  }

  return {
    register() {},

    submit<Input, Result>(kind: JobKind<Input, Result>, userId: string, input: Input) {
      const lane = lanes[kind.lane]
      const status: JobStatus = {
        id: randomUUID(),
        kind: kind.name,
        userId,
        state: 'queued',
        progress: null,
        attempts: 0,
        error: null,
      }
      let entry!: Entry
      const result = new Promise<Result>((resolve, reject) => {
        entry = {
          kind: kind as JobKind<unknown, unknown>,
          input,
          status,
          listeners: new Set(),
          controller: null,
          isSettled: false,
          resolve: resolve as (value: unknown) => void,
          reject,
        }
      })
      const handle: Job<Result> = {
        id: status.id,
        result,
        status: () => structuredClone(status),
        cancel: () => void cancelEntry(entry),
        onProgress(listener) {
          entry.listeners.add(listener)
          return () => entry.listeners.delete(listener)
        },
      }
      const line = lane.users.get(userId) ?? { waiting: [], running: 0, lastStarted: 0 }
      const hasFreeSlot = lane.running < lane.slots
      let refusal: AppError | undefined
      if (isClosed) refusal = new AppError('unavailable', 'job.shuttingDown')
      else if (!hasFreeSlot && line.waiting.length >= maxQueuedPerUser) {
        refusal = new AppError('unavailable', 'job.userQueueFull', {
          count: line.waiting.length,
        })
      } else if (!hasFreeSlot && queuedIn(lane) >= maxQueued) {
        refusal = new AppError('unavailable', 'job.busy')
      }
      if (refusal) {
        status.state = 'failed'
        status.error = { kind: refusal.kind, message: refusal.message }
        entry.reject(refusal)
        return handle
      }
      entries.set(status.id, entry)
      lane.users.set(userId, line)
      line.waiting.push(entry)
      pump(lane)
      return handle
    },

    status(jobId) {
      const entry = entries.get(jobId)
      return entry ? structuredClone(entry.status) : undefined
    },

    async cancel(jobId) {
      const entry = entries.get(jobId)
      return entry ? cancelEntry(entry) : false
    },

    load(laneName) {
      const chosen = laneName ? [lanes[laneName]] : Object.values(lanes)
      return {
        running: chosen.reduce((sum, lane) => sum + lane.running, 0),
        queued: chosen.reduce((sum, lane) => sum + queuedIn(lane), 0),
      }
    },

    // jobs of this queue live in this process's memory only
    sweepLeftovers: async () => 0,

    async close() {
      isClosed = true
      const error = new AppError('unavailable', 'job.shuttingDown')
      for (const entry of entries.values()) {
        if (entry.status.state === 'queued' || entry.status.state === 'running') {
          entry.controller?.abort(error)
          end(entry, 'failed', { error })
        }
      }
      for (const lane of Object.values(lanes)) lane.users.clear()
    },
  }
}
