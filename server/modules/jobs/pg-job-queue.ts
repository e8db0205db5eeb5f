import { randomUUID } from 'node:crypto'
import PgBoss from 'pg-boss'
import { AppError } from '../../http/app-error'
import type { Job, JobKind, JobQueue, JobState, JobStatus, SentError } from './job-queue'
import { BatchedWrites } from './batched-writes'
import type { NamedFiles } from '../../plugins/storage'
import {
  fromStoredWire,
  fromWire,
  reviveSentError,
  sendError,
  toStoredWire,
  toWire,
} from './job-wire'

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
  /**
   * Where large bytes of inputs and results travel (the store's job area, one folder per job,
   * removed when the job ends); without it they travel inline in the job's row, as base64.
   */
  bytes?: NamedFiles
}

/** A job's files are kept this long after it ended, for a submitter that reads its row late. */
const endedJobFilesMs = 3_600_000

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
  /** True when its input or result went to the job's folder of files (removed when it ends). */
  hasFiles: boolean
  /** True while its result is read from its files: its row is not applied again meanwhile. */
  isReadingResult: boolean
  listeners: Set<(fraction: number) => void>
  resolve(value: unknown): void
  reject(error: unknown): void
}

/** A job as a worker claims it: its input (with its user) and the runs it had before. */
interface ClaimedRow {
  id: string
  data: { userId: string; input: unknown }
  retryCount: number
}

interface JobRow {
  id: string
  state: string
  retry_count: number
  started_on: Date | null
  output: Record<string, unknown> | null
}

/**
 * Claims of short jobs take enough to keep a worker's slots busy about this long: long enough
 * to share a claim's round trip among many small jobs, short enough that another idle worker
 * loses nothing.
 */
const heldWorkMs = 100

/** The most jobs one claim takes. */
const maxClaim = 64

/** A job id as the queue makes them; anything else names no job (and is no uuid to query). */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A queue name pg-boss accepts for a kind ('model.convert' → 'model_convert'). */
const queueNameOf = (kind: { name: string }) => kind.name.replace(/\W/g, '_')

/**
 * The {@link JobQueue} on PostgreSQL (pg-boss): a job submitted by any API process is run by
 * any process that registered its kind and runs jobs (`npm run worker`, or the API processes
 * themselves), on this machine or another. A running job's claim is renewed while its worker
 * lives; a worker that dies leaves the claim to lapse and the job is retried by another worker
 * (one more run than the kind's own retries allows). Progress travels in the job's row;
 * cancelling marks the row, and the running worker sees it at its next renewal and aborts the
 * run, whichever process cancelled it. Each submitter reads its outstanding jobs' rows in one
 * query per poll.
 *
 * Round trips, not runs, are a small job's cost (issue 22: ≤ 5 ms a job): jobs submitted
 * together are inserted in one statement, completions written together, and a lane claims as
 * many jobs as keep its slots busy about {@link heldWorkMs} when its kind's runs are short (only
 * its free slots when they are long). Claimed jobs not yet started go back on close.
 *
 * Fair between users as the in-process queue is: a claim takes each user's jobs in turns, after
 * those the user already has running anywhere (see claimFairly).
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
  const files = options.bytes
  /** A job's input as its row carries it: bytes from 64 KiB on as files of its folder. */
  const wireOf = async (value: unknown, folder: string) =>
    files ? toStoredWire(value, files, folder) : { wire: toWire(value), fileCount: 0 }
  /** A job's folder of files goes once its submitter is done with it. */
  const removeFilesOf = (entry: Submitted) => {
    if (files && entry.hasFiles) void files.removeFolder(entry.status.id).catch(report)
  }
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
    if (entry.isReadingResult) return
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
    if (state !== 'succeeded') {
      endSubmitted(entry, state, { error: errorOfRow(entry, row) })
      removeFilesOf(entry)
      return
    }
    const result = row.output?.result
    if (files === undefined || !row.output?.resultFiles) {
      endSubmitted(entry, state, { value: fromWire(result) })
      removeFilesOf(entry)
      return
    }
    entry.hasFiles = true
    entry.isReadingResult = true
    fromStoredWire(result, files)
      .then(
        (value) => endSubmitted(entry, 'succeeded', { value }),
        (error: unknown) => endSubmitted(entry, 'failed', { error }),
      )
      .finally(() => removeFilesOf(entry))
  }

  /** Jobs submitted in one turn (or while the last insert ran) are inserted together. */
  const sends = new BatchedWrites<{ kind: JobKind<unknown, unknown>; row: PgBoss.JobInsert }>(
    async (batch) => {
      await Promise.all([...new Set(batch.map(({ kind }) => kind))].map(ensureQueue))
      await started
      await boss.insert(batch.map(({ row }) => row))
    },
  )

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

  // ---- the worker's side: claim, run with a renewed claim, complete or fail ----

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

  /**
   * Completions written together: the runs that ended since the last write share one statement
   * (a small job's own round trip to the database would cost more than its run). A run's slot is
   * free before its row says completed; close() waits for the rows.
   */
  const completions = new BatchedWrites<{ name: string; id: string; output: unknown }>(
    async (done) => {
      await sql(
        `update ${schema}.job j set completed_on = now(), state = 'completed', output = d.output
         from jsonb_to_recordset($1::jsonb) as d(name text, id uuid, output jsonb)
         where j.name = d.name and j.id = d.id and j.state = 'active'`,
        [JSON.stringify(done)],
      )
    },
  )

  /** How long each kind's runs take here, lately (a moving average), to size its claims. */
  const typicalRunMs = new Map<string, number>()
  const noteRunTime = (kind: JobKind<unknown, unknown>, ms: number) => {
    const before = typicalRunMs.get(kind.name)
    typicalRunMs.set(kind.name, before === undefined ? ms : before * 0.8 + ms * 0.2)
  }

  /**
   * How many jobs of a kind to claim at once for `free` idle slots: just those, unless its runs
   * are short, when a claim takes enough to keep the slots busy for about `heldWorkMs`, so one
   * round trip serves many small jobs while no worker sits on long jobs another could start.
   */
  const claimSizeOf = (kind: JobKind<unknown, unknown>, free: number) => {
    const typicalMs = typicalRunMs.get(kind.name)
    if (typicalMs === undefined) return free
    const slots = lanes[kind.lane].slots
    const worth = Math.floor((heldWorkMs * slots) / Math.max(typicalMs, 0.01))
    return Math.max(free, Math.min(maxClaim, worth))
  }

  const runOne = async (kind: JobKind<unknown, unknown>, job: ClaimedRow) => {
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
    const startedAt = performance.now()
    try {
      const { input } = job.data
      const value = await kind.run(files ? await fromStoredWire(input, files) : fromWire(input), {
        signal: controller.signal,
        attempt,
        reportProgress(fraction) {
          progress = Math.min(1, Math.max(0, fraction))
        },
      })
      if (controller.signal.aborted) throw controller.signal.reason
      noteRunTime(kind, performance.now() - startedAt)
      // each run's result files apart: a run after a dead worker's writes its own
      const { wire, fileCount } = await wireOf(value, `${job.id}/result-${attempt}`)
      if (controller.signal.aborted) throw controller.signal.reason
      // a lost write leaves the claim to lapse: the job runs again, as after a dead worker
      completions
        .add({
          name,
          id: job.id,
          output: { result: wire, ...(fileCount > 0 ? { resultFiles: fileCount } : {}) },
        })
        .catch(report)
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

  interface Claimed {
    kind: JobKind<unknown, unknown>
    job: ClaimedRow
  }

  /**
   * Takes up to `count` waiting jobs of a queue, fairly between users: each user's waiting jobs
   * take turns after the jobs that user already has running, in any process, so one user's
   * hundred jobs wait behind another user's single job rather than ahead of it. Among equal
   * turns, the older job first. Jobs another worker is claiming at the moment are skipped (this
   * claim takes fewer; the next takes more).
   */
  const claimFairly = (name: string, count: number) =>
    sql<ClaimedRow>(
      `with running as (
         select singleton_key as user_id, count(*) as jobs from ${schema}.job
         where name = $1 and state = 'active' group by singleton_key
       ), turns as materialized (
         select j.id, j.created_on, coalesce(r.jobs, 0)
           + row_number() over (partition by j.singleton_key order by j.created_on, j.id) as turn
         from ${schema}.job j left join running r on r.user_id is not distinct from j.singleton_key
         where j.name = $1 and j.state < 'active' and j.start_after < now()
       ), next as (
         select j.id from ${schema}.job j
         where j.name = $1 and j.state < 'active' and j.id = any(array(
           select id from turns order by turn, created_on, id limit $2
         ))
         for update skip locked
       )
       update ${schema}.job j set state = 'active', started_on = now(),
         retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
       from next where j.name = $1 and j.id = next.id
       returning j.id, j.data, j.retry_count as "retryCount"`,
      [name, count],
    )

  /** Claims up to as many jobs as worth it for `free` slots, of one kind of the lane, in turns. */
  const claim = async (
    laneName: JobKind<unknown, unknown>['lane'],
    free: number,
    turn: number,
  ): Promise<Claimed[]> => {
    const laneKinds = [...kinds.values()].filter((kind) => kind.lane === laneName)
    for (let index = 0; index < laneKinds.length && !isClosed; index++) {
      // take turns between kinds, so one kind's backlog does not starve another
      const kind = laneKinds[(turn + index) % laneKinds.length]!
      try {
        await ensureQueue(kind)
        const jobs = await claimFairly(queueNameOf(kind), claimSizeOf(kind, free))
        if (jobs.length > 0) return jobs.map((job) => ({ kind, job }))
      } catch (error) {
        if (!isClosed) report(error)
      }
    }
    return []
  }

  /** Claimed jobs that never started go back to the queue as they were, for another worker. */
  const giveBack = async (held: Claimed[]) => {
    if (held.length === 0) return
    await sql(
      `update ${schema}.job set
         state = case when retry_count = 0 then 'created' else 'retry' end::${schema}.job_state,
         started_on = case when retry_count = 0 then null else started_on end,
         retry_count = greatest(retry_count - 1, 0)
       where id = any($1::uuid[]) and state = 'active'`,
      [held.map(({ job }) => job.id)],
    ).catch(report)
  }

  const idle = () =>
    new Promise<void>((resolve) => {
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

  /** One lane's work: keep its slots busy with claimed jobs, claiming more as they free. */
  const workLane = async (laneName: JobKind<unknown, unknown>['lane']) => {
    const lane = lanes[laneName]
    const held: Claimed[] = []
    const runs = new Set<Promise<void>>()
    let turn = 0
    while (!isClosed) {
      while (held.length > 0 && lane.running < lane.slots) {
        const { kind, job } = held.shift()!
        lane.running++
        const run: Promise<void> = runOne(kind, job)
          .catch((error: unknown) => report(error))
          .finally(() => {
            lane.running--
            runs.delete(run)
          })
        runs.add(run)
      }
      if (lane.running >= lane.slots) {
        await Promise.race(runs)
        continue
      }
      if (held.length > 0) continue
      const claimed = await claim(laneName, lane.slots - lane.running, turn++)
      if (claimed.length > 0) held.push(...claimed)
      else await idle()
    }
    await giveBack(held.splice(0))
    await Promise.allSettled(runs)
  }

  const workerLoops: Promise<void>[] = []
  const startWorking = () => {
    if (!options.runsJobs || workerLoops.length > 0) return
    for (const laneName of ['cpu', 'io'] as const) {
      workerLoops.push(started.then(() => workLane(laneName)).catch((error) => void report(error)))
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
          hasFiles: false,
          isReadingResult: false,
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
      wireOf(input, `${status.id}/input`)
        .then(({ wire, fileCount }) => {
          entry.hasFiles = fileCount > 0
          return sends.add({
            kind: known,
            row: {
              id: status.id,
              name: queueNameOf(kind),
              data: { userId, input: wire },
              // whose job it is, for fair claims without reading the input; on a queue of the
              // 'standard' policy (ours) pg-boss gives this key no other meaning
              singletonKey: userId,
              // one run more than the kind retries: the run of a worker that died
              retryLimit: maxAttempts,
              retryDelay: 0,
              expireInSeconds: claimSeconds,
            },
          })
        })
        .then(() => {
          wakeWorkers()
          schedulePoll()
        })
        .catch((error: unknown) => {
          report(error)
          // the store's own refusal (unreachable) says more than a busy queue
          const told = error instanceof AppError ? error : new AppError('unavailable', 'job.busy')
          endSubmitted(entry, 'failed', { error: told })
          removeFilesOf(entry)
        })
      return handle
    },

    status(jobId) {
      const entry = submitted.get(jobId)
      return entry ? structuredClone(entry.status) : undefined
    },

    async cancel(jobId) {
      const entry = submitted.get(jobId)
      if (entry) return cancelSubmitted(entry)
      // submitted by another process: its row tells its worker and its submitter
      if (!uuidPattern.test(jobId)) return false
      return cancelRow(jobId)
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
      await Promise.all([sends.flushed(), completions.flushed()])
      await started.catch(() => undefined)
      await boss.stop({ graceful: false, wait: true, timeout: 5_000 }).catch(() => undefined)
    },

    /**
     * Job folders whose job ended over an hour ago, or that have had no job row for an hour,
     * go: their submitter went away before reading the result (or a run wrote its result after
     * the job was cancelled). A folder of a job not yet ended stays, whichever process submitted
     * it; so does a young folder without a row (its job's insert may be on its way).
     */
    async sweepLeftovers() {
      if (files === undefined) return 0
      const newestByJob = new Map<string, number>()
      for (const file of await files.list('')) {
        const jobId = file.name.split('/')[0]!
        newestByJob.set(jobId, Math.max(newestByJob.get(jobId) ?? 0, file.modifiedMs))
      }
      const jobIds = [...newestByJob.keys()]
      const rows = await sql<{ id: string; has_ended_long_ago: boolean }>(
        `select id, (state >= 'completed' and completed_on < now() - make_interval(secs => $2))
           as has_ended_long_ago
         from ${schema}.job where id = any($1::uuid[])`,
        [jobIds.filter((id) => uuidPattern.test(id)), endedJobFilesMs / 1000],
      )
      const endedLongAgo = new Map(rows.map((row) => [row.id, row.has_ended_long_ago]))
      const cutoffMs = Date.now() - endedJobFilesMs
      const gone = jobIds.filter(
        (id) => endedLongAgo.get(id) ?? (newestByJob.get(id) ?? 0) < cutoffMs,
      )
      for (const id of gone) await files.removeFolder(id)
      return gone.length
    },
  }

  /**
   * Marks a job's row cancelled unless it has ended: a queued job is never claimed, and the
   * worker running it finds its claim gone at its next renewal and aborts the run.
   */
  async function cancelRow(jobId: string): Promise<boolean> {
    const rows = await sql<{ id: string }>(
      `update ${schema}.job set completed_on = now(), state = 'cancelled'
       where id = $1 and state < 'completed' returning id`,
      [jobId],
    )
    return rows.length === 1
  }

  function cancelSubmitted(entry: Submitted): boolean {
    const { state } = entry.status
    if (state !== 'queued' && state !== 'running') return false
    void cancelRow(entry.status.id).catch(report)
    endSubmitted(entry, 'cancelled', { error: new AppError('conflict', 'job.cancelled') })
    removeFilesOf(entry)
    return true
  }
}
