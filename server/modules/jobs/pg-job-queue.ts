import { randomUUID } from 'node:crypto'
import PgBoss from 'pg-boss'
import { AppError } from '../../http/app-error'
import type { Job, JobKind, JobQueue, JobState, JobStatus, SentError } from './job-queue'
import { fromWire, reviveSentError, sendError, toWire } from './job-wire'

/** Tuning of the shared queue; the defaults suit production, tests shorten the waits. */
export interface PgJobQueueOptions {
  connectionString: string
  /** The PostgreSQL schema pg-boss keeps its tables in (made on first start). */
  schema: string
  /** Whether this process runs jobs of the kinds registered with it (API processes may not). */
  runsJobs: boolean
  /** Jobs this process runs at once, per lane. */
  slots?: Partial<Record<JobKind<unknown, unknown>['lane'], number>>
  /** How often submitters read their jobs' states, and idle workers look for work. */
  pollMs?: number
  /**
   * How long a running job stays claimed without its worker renewing the claim: a worker that
   * died (killed, machine lost) frees its job this long after its last renewal, and the job is
   * retried by another worker.
   */
  claimMs?: number
  /** Told of the queue's own trouble (a lost connection, a failed poll); default: ignored. */
  onError?: (error: unknown) => void
}

/** pg-boss's states, as the shared {@link JobState}s. */
const stateOf: Record<string, JobState> = {
  created: 'queued',
  retry: 'queued',
  active: 'running',
  completed: 'succeeded',
  cancelled: 'cancelled',
  failed: 'failed',
}

interface Submitted {
  kind: JobKind<unknown, unknown>
  status: JobStatus
  listeners: Set<(fraction: number) => void>
  resolve(value: unknown): void
  reject(error: unknown): void
}

interface JobRow {
  id: string
  state: string
  retry_count: number
  started_on: Date | null
  output: Record<string, unknown> | null
}

/** A queue name pg-boss accepts for a kind ('model.convert' → 'model_convert'). */
const queueNameOf = (kind: { name: string }) => kind.name.replace(/\W/g, '_')

/**
 * The {@link JobQueue} on PostgreSQL (pg-boss): a job submitted by any API process is run by
 * any process that registered its kind and runs jobs (`npm run worker`, or the API processes
 * themselves), on this machine or another. A running job's claim is renewed while its worker
 * lives; a worker that dies leaves the claim to lapse and the job is retried by another worker
 * (one more run than the kind's own retries allows). Progress travels in the job's row;
 * cancelling marks the row, and the running worker sees it at its next renewal and aborts the
 * run. Each submitter reads its outstanding jobs' rows in one query per poll.
 *
 * Not kept from the in-process queue: fairness between users (jobs run in the order they came).
 */
export function createPgJobQueue(options: PgJobQueueOptions): JobQueue {
  const pollMs = options.pollMs ?? 250
  const claimSeconds = Math.max(1, Math.round((options.claimMs ?? 30_000) / 1000))
  const schema = options.schema
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema,
    // expired claims (dead workers) are found this often
    maintenanceIntervalSeconds: Math.max(1, Math.min(claimSeconds, 60)),
    max: 4,
  })
  const report = options.onError ?? (() => {})
  boss.on('error', report)
  const kinds = new Map<string, JobKind<unknown, unknown>>()
  const madeQueues = new Map<string, Promise<void>>()
  const submitted = new Map<string, Submitted>()
  const ended: string[] = []
  const running = new Set<AbortController>()
  const lanes = {
    cpu: { slots: options.slots?.cpu ?? 1, running: 0 },
    io: { slots: options.slots?.io ?? 2, running: 0 },
  }
  let isClosed = false
  let wakeWorkers: () => void = () => {}
  const started = boss.start().then(() => undefined)
  // a failed start rejects every call that needs the database, not the process
  started.catch(() => {})

  const sql = async <Row>(text: string, values: unknown[]) => {
    await started
    return (await boss.getDb().executeSql(text, values)).rows as Row[]
  }

  const ensureQueue = (kind: JobKind<unknown, unknown>) => {
    const name = queueNameOf(kind)
    let made = madeQueues.get(name)
    if (!made) {
      made = started.then(async () => {
        // two processes making the same queue at once can deadlock in pg-boss: try again
        for (let attempt = 1; ; attempt++) {
          if (await boss.getQueue(name)) return
          try {
            await boss.createQueue(name)
            return
          } catch (error) {
            if (attempt >= 5) throw error
            await new Promise((resolveWait) => setTimeout(resolveWait, 50 * attempt))
          }
        }
      })
      made.catch(() => madeQueues.delete(name))
      madeQueues.set(name, made)
    }
    return made
  }

  // ---- the submitter's side: send, then read the rows of outstanding jobs each poll ----

  const endSubmitted = (
    entry: Submitted,
    state: JobState,
    outcome: { value?: unknown; error?: unknown },
  ) => {
    if (
      entry.status.state === 'succeeded' ||
      entry.status.state === 'failed' ||
      entry.status.state === 'cancelled'
    ) {
      return
    }
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
    while (ended.length > 1_000) submitted.delete(ended.shift()!)
  }

  const errorOfRow = (entry: Submitted, row: JobRow): unknown => {
    if (row.state === 'cancelled') return new AppError('conflict', 'job.cancelled')
    const sent = row.output?.error as SentError | undefined
    if (!sent) {
      // pg-boss failed it: the claim lapsed on the last allowed run (its workers died)
      return new AppError('unavailable', 'job.timeLimit', {
        seconds: Math.round(entry.kind.timeLimitMs / 1000),
      })
    }
    return entry.kind.reviveError ? entry.kind.reviveError(sent) : reviveSentError(sent)
  }

  const applyRow = (entry: Submitted, row: JobRow) => {
    const state = stateOf[row.state] ?? 'queued'
    entry.status.attempts = row.started_on === null ? 0 : row.retry_count + 1
    if (state === 'queued' || state === 'running') {
      entry.status.state = state
      const progress = row.output?.progress
      if (
        state === 'running' &&
        typeof progress === 'number' &&
        progress !== entry.status.progress
      ) {
        entry.status.progress = progress
        for (const listener of entry.listeners) listener(progress)
      }
      return
    }
    if (state === 'succeeded') endSubmitted(entry, state, { value: fromWire(row.output?.result) })
    else endSubmitted(entry, state, { error: errorOfRow(entry, row) })
  }

  const outstanding = () =>
    [...submitted.values()].filter(
      (entry) => entry.status.state === 'queued' || entry.status.state === 'running',
    )

  let pollTimer: NodeJS.Timeout | undefined
  const pollSubmitted = async () => {
    pollTimer = undefined
    const waiting = outstanding()
    if (isClosed || waiting.length === 0) return
    try {
      const rows = await sql<JobRow>(
        `select id, state, retry_count, started_on, output from ${schema}.job where id = any($1::uuid[])`,
        [waiting.map((entry) => entry.status.id)],
      )
      for (const row of rows) {
        const entry = submitted.get(row.id)
        if (entry) applyRow(entry, row)
      }
    } catch (error) {
      report(error)
    }
    schedulePoll()
  }
  const schedulePoll = () => {
    if (pollTimer || isClosed || outstanding().length === 0) return
    pollTimer = setTimeout(() => void pollSubmitted(), pollMs)
  }

  // ---- the worker's side: fetch, run with a renewed claim, complete or fail ----

  const renewClaim = async (name: string, id: string, progress: number | null) => {
    // the claim runs claimSeconds from now; no row means it was cancelled or lapsed
    const rows = await sql<{ id: string }>(
      `update ${schema}.job set expire_in = (now() - started_on) + make_interval(secs => $3),
         output = case when $4::float8 is null then output else jsonb_build_object('progress', $4::float8) end
       where name = $1 and id = $2 and state = 'active' returning id`,
      [name, id, claimSeconds, progress],
    )
    return rows.length === 1
  }

  const runOne = async (kind: JobKind<unknown, unknown>, job: PgBoss.JobWithMetadata<object>) => {
    const name = queueNameOf(kind)
    const maxAttempts = Math.max(1, kind.maxAttempts ?? 1)
    const attempt = job.retryCount + 1
    const controller = new AbortController()
    running.add(controller)
    let progress: number | null = null
    let isRenewing = false
    const renew = async () => {
      if (isRenewing || controller.signal.aborted) return
      isRenewing = true
      try {
        const isHeld = await renewClaim(name, job.id, progress)
        if (!isHeld) controller.abort(new AppError('conflict', 'job.cancelled'))
      } catch (error) {
        report(error)
      } finally {
        isRenewing = false
      }
    }
    const renewTimer = setInterval(
      () => void renew(),
      Math.min(pollMs * 4, (claimSeconds * 1000) / 3),
    )
    const limitTimer = setTimeout(() => {
      const seconds = Math.round(kind.timeLimitMs / 1000)
      controller.abort(new AppError('unavailable', 'job.timeLimit', { seconds }))
    }, kind.timeLimitMs)
    try {
      const { userId: _userId, input } = job.data as { userId: string; input: unknown }
      const value = await kind.run(fromWire(input), {
        signal: controller.signal,
        attempt,
        reportProgress(fraction) {
          progress = Math.min(1, Math.max(0, fraction))
        },
      })
      if (controller.signal.aborted) throw controller.signal.reason
      await boss.complete(name, job.id, { result: toWire(value) })
    } catch (error) {
      const reason = controller.signal.aborted ? controller.signal.reason : error
      const isCancelled = reason instanceof AppError && reason.messageId === 'job.cancelled'
      if (!isCancelled) {
        // a worker shutting down leaves its job to another worker
        const isShutdown = reason instanceof AppError && reason.messageId === 'job.shuttingDown'
        const isWorthRetry =
          isShutdown ||
          (!controller.signal.aborted &&
            attempt < maxAttempts &&
            kind.isRetryable?.(error) === true)
        // pg-boss would retry every failure up to its limit: this one is the last run
        if (!isWorthRetry) {
          await sql(
            `update ${schema}.job set retry_limit = retry_count where id = $1 and state = 'active'`,
            [job.id],
          )
        }
        await boss.fail(name, job.id, { error: sendError(reason) })
      }
    } finally {
      clearInterval(renewTimer)
      clearTimeout(limitTimer)
      running.delete(controller)
    }
  }

  const workLane = async (laneName: JobKind<unknown, unknown>['lane']) => {
    const lane = lanes[laneName]
    let turn = 0
    while (!isClosed) {
      const laneKinds = [...kinds.values()].filter((kind) => kind.lane === laneName)
      let found:
        | { kind: JobKind<unknown, unknown>; job: PgBoss.JobWithMetadata<object> }
        | undefined
      for (let index = 0; index < laneKinds.length && !found && !isClosed; index++) {
        // take turns between kinds, so one kind's backlog does not starve another
        const kind = laneKinds[(turn + index) % laneKinds.length]!
        try {
          await ensureQueue(kind)
          const [job] = await boss.fetch<object>(queueNameOf(kind), {
            batchSize: 1,
            includeMetadata: true,
          })
          if (job) found = { kind, job }
        } catch (error) {
          if (!isClosed) report(error)
        }
      }
      turn++
      if (found) {
        lane.running++
        try {
          await runOne(found.kind, found.job)
        } catch (error) {
          report(error)
        } finally {
          lane.running--
        }
        continue
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs)
        const previous = wakeWorkers
        function done() {
          clearTimeout(timer)
          wakeWorkers = previous
          resolve()
        }
        wakeWorkers = () => {
          previous()
          done()
        }
      })
    }
  }

  const workerLoops: Promise<void>[] = []
  const startWorking = () => {
    if (!options.runsJobs || workerLoops.length > 0) return
    for (const laneName of ['cpu', 'io'] as const) {
      for (let slot = 0; slot < lanes[laneName].slots; slot++) {
        workerLoops.push(
          started.then(() => workLane(laneName)).catch((error) => void report(error)),
        )
      }
    }
  }

  return {
    register(kind) {
      const known = kind as JobKind<unknown, unknown>
      kinds.set(known.name, known)
      void ensureQueue(known).catch((error) => report(error))
      startWorking()
    },

    submit<Input, Result>(kind: JobKind<Input, Result>, userId: string, input: Input): Job<Result> {
      const known = kind as JobKind<unknown, unknown>
      const status: JobStatus = {
        id: randomUUID(),
        kind: kind.name,
        userId,
        state: 'queued',
        progress: null,
        attempts: 0,
        error: null,
      }
      let entry!: Submitted
      const result = new Promise<Result>((resolve, reject) => {
        entry = {
          kind: known,
          status,
          listeners: new Set(),
          resolve: resolve as (value: unknown) => void,
          reject,
        }
      })
      const handle: Job<Result> = {
        id: status.id,
        result,
        status: () => structuredClone(status),
        cancel: () => void cancelSubmitted(entry),
        onProgress(listener) {
          entry.listeners.add(listener)
          return () => entry.listeners.delete(listener)
        },
      }
      if (isClosed) {
        endSubmitted(entry, 'failed', { error: new AppError('unavailable', 'job.shuttingDown') })
        return handle
      }
      submitted.set(status.id, entry)
      const maxAttempts = Math.max(1, kind.maxAttempts ?? 1)
      ensureQueue(known)
        .then(() =>
          boss.send(
            queueNameOf(kind),
            { userId, input: toWire(input) },
            {
              id: status.id,
              // one run more than the kind retries: the run of a worker that died
              retryLimit: maxAttempts,
              retryDelay: 0,
              expireInSeconds: claimSeconds,
            },
          ),
        )
        .then(() => {
          wakeWorkers()
          schedulePoll()
        })
        .catch((error: unknown) => {
          report(error)
          endSubmitted(entry, 'failed', { error: new AppError('unavailable', 'job.busy') })
        })
      return handle
    },

    status(jobId) {
      const entry = submitted.get(jobId)
      return entry ? structuredClone(entry.status) : undefined
    },

    cancel(jobId) {
      const entry = submitted.get(jobId)
      return entry ? cancelSubmitted(entry) : false
    },

    load(laneName) {
      const chosen = laneName ? [lanes[laneName]] : Object.values(lanes)
      const waiting = outstanding()
      return {
        running: chosen.reduce((sum, lane) => sum + lane.running, 0),
        queued: waiting.filter(
          (entry) => entry.status.state === 'queued' && (!laneName || entry.kind.lane === laneName),
        ).length,
      }
    },

    async close() {
      isClosed = true
      clearTimeout(pollTimer)
      wakeWorkers()
      const error = new AppError('unavailable', 'job.shuttingDown')
      for (const controller of running) controller.abort(error)
      for (const entry of outstanding()) endSubmitted(entry, 'failed', { error })
      await Promise.all(workerLoops)
      await started.catch(() => undefined)
      await boss.stop({ graceful: false, wait: true, timeout: 5_000 }).catch(() => undefined)
    },
  }

  function cancelSubmitted(entry: Submitted): boolean {
    const { state } = entry.status
    if (state !== 'queued' && state !== 'running') return false
    const name = queueNameOf(entry.kind)
    void started.then(() => boss.cancel(name, entry.status.id)).catch(report)
    endSubmitted(entry, 'cancelled', { error: new AppError('conflict', 'job.cancelled') })
    return true
  }
}
