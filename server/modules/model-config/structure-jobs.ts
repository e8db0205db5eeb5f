import type { ServerMessageItem } from '../../../contract/common'
import type { ServerMessage } from '../../../contract/messages'
import type { MergeStatusDatum, MergeStep } from '../../../contract/model-config'
import type { DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import type { AuthUser } from '../accounts/users.service'
import type { BuildingService, StructureModel } from '../building/building.service'
import { extensionOf } from '../building/building-views'
import { inspectSbm } from '../building/model-files'
import type { JobKind, JobQueue } from '../jobs/job-queue'
import { type Clock, timestampOf } from '../time/clock'
import { type MergeFile, refersTo } from './merge-inputs'
import { type ConvertedPart, errorItemOf, readMergeFile } from './model-to-sbm'

/** What a structure merge's and a structure add's statuses share: state, steps, outcome. */
export interface StructureJobStatus {
  id: string
  state: MergeStatusDatum['state']
  progress: number
  steps: MergeStep[]
  error: ServerMessageItem | null
  warnings: ServerMessageItem[]
}

/** One merge or add as its job runs it: whose it is, its status, and when it has ended. */
export interface StructureJobRun<Status extends StructureJobStatus> {
  user: AuthUser
  status: Status
  done: Promise<void>
}

/** Both may run an hour: a large building converts model by model. */
const structureJobTimeLimitMs = 60 * 60_000
/** A status row is kept this long after its last write (a run ends within the hour). */
const keptStatusMs = 24 * 60 * 60_000

/** Marks one step of a job; the progress is the share of steps done. */
export function setStep(status: StructureJobStatus, index: number, state: MergeStep['state']) {
  const step = status.steps[index]
  if (!step) return
  step.state = state
  const done = status.steps.filter((candidate) => candidate.state === 'done').length
  status.progress = done / status.steps.length
}

/** What a run's work is given: its abort signal, and how to mark a step (written for all). */
export interface StructureJobContext {
  signal: AbortSignal
  /** Marks a step and writes the status where every process reads it. */
  step(index: number, state: MergeStep['state']): Promise<void>
}

/** The running jobs of one kind (merge or add), as its service keeps and answers them. */
export interface StructureJobs<Run extends StructureJobRun<StructureJobStatus>> {
  /**
   * Queues a run whose inputs were checked. Once it ends, a failure is written into its status
   * (the refusal, the step it stopped at) and the uploads are released (they were only the
   * converter's input). Resolves with the status as queued, or rejects with the queue's refusal
   * when the user's or the server's queue is full, having started nothing.
   */
  submit(run: Run, sources: readonly string[]): Promise<Run['status']>
  /**
   * A run of this user as last written, whichever process runs it; undefined when there is
   * none or it ended more than a day ago.
   */
  status(userId: string, id: string): Promise<Run['status'] | undefined>
  /** Waits for a run of this process to end (tests, shutdown). */
  settled(id: string): Promise<void>
}

/**
 * The job side the structure merge and the structure add share. Both mostly wait on the
 * conversions ('cpu' jobs of the same user), so they run in the 'io' lane: holding a 'cpu' slot
 * while waiting for one would stall itself. The job runs in the process that took it (its input
 * holds the uploads it read), but its status lives in `structure_jobs`: a status check that
 * reaches another API process reads the same row (issue 22 item 2).
 */
export function createStructureJobs<Run extends StructureJobRun<StructureJobStatus>>(options: {
  name: string
  jobs: JobQueue
  database: DatabaseHandle
  clock: Clock
  building: Pick<BuildingService, 'releaseUnused'>
  /** Reads a written status back (the row is JSON text). */
  statusSchema: { parse(value: unknown): Run['status'] }
  execute(run: Run, context: StructureJobContext): Promise<void>
}): StructureJobs<Run> {
  const { name, jobs, database, clock, building, statusSchema, execute } = options
  const runs = new Map<string, Run>()
  /** Each run's writes, chained so they land in the order they were made. */
  const writes = new Map<string, Promise<void>>()
  const now = () => timestampOf(clock.nowMs())

  const write = (run: Run): Promise<void> => {
    const { id } = run.status
    const statusJson = JSON.stringify(run.status)
    const written = (writes.get(id) ?? Promise.resolve()).then(async () => {
      await database.db
        .updateTable('structure_jobs')
        .set({ status_json: statusJson, updated_at: now() })
        .where('id', '=', id)
        .execute()
    })
    writes.set(id, written)
    return written
  }

  const kind: JobKind<Run, void> = {
    name,
    lane: 'io',
    timeLimitMs: structureJobTimeLimitMs,
    run: async (run, { signal }) => {
      run.status.state = 'running'
      await write(run)
      return execute(run, {
        signal,
        step: async (index, state) => {
          // a run past its time limit may still be working: its steps no longer count
          if (run.status.state !== 'running') return
          setStep(run.status, index, state)
          await write(run)
        },
      })
    },
  }

  return {
    async submit(run, sources) {
      const { id } = run.status
      await database.db
        .deleteFrom('structure_jobs')
        .where('updated_at', '<', timestampOf(clock.nowMs() - keptStatusMs))
        .execute()
      await database.db
        .insertInto('structure_jobs')
        .values({
          id,
          kind: name,
          owner_id: run.user.id,
          status_json: JSON.stringify(run.status),
          updated_at: now(),
        })
        .execute()
      const job = jobs.submit(kind, run.user.id, run)
      runs.set(id, run)
      run.done = job.result
        .then(
          () => undefined,
          (error: unknown) => {
            run.status.state = 'failed'
            run.status.error = errorItemOf(error)
            const running = run.status.steps.find((step) => step.state === 'running')
            if (running) running.state = 'failed'
          },
        )
        .then(() => write(run))
        .catch(() => undefined)
        .finally(async () => {
          await building.releaseUnused(sources).catch(() => undefined)
          runs.delete(id)
          writes.delete(id)
        })
      if (job.status().state === 'failed') {
        // refused at once (the user's or the server's queue is full): nothing was started
        const refusal = await job.result.then(
          () => undefined,
          (error: unknown) => error,
        )
        await run.done
        await database.db.deleteFrom('structure_jobs').where('id', '=', id).execute()
        throw refusal
      }
      return structuredClone(run.status)
    },

    async status(userId, id) {
      const row = await database.db
        .selectFrom('structure_jobs')
        .select('status_json')
        .where('id', '=', id)
        .where('kind', '=', name)
        .where('owner_id', '=', userId)
        .where('updated_at', '>=', timestampOf(clock.nowMs() - keptStatusMs))
        .executeTakeFirst()
      return row === undefined ? undefined : statusSchema.parse(JSON.parse(row.status_json))
    },

    async settled(id) {
      await runs.get(id)?.done
    },
  }
}

/** Runs the input checks; when they refuse, the uploads are released before the refusal. */
export async function checkedOrReleased<Result>(
  building: Pick<BuildingService, 'releaseUnused'>,
  sources: readonly string[],
  check: () => Promise<Result>,
): Promise<Result> {
  try {
    return await check()
  } catch (error) {
    await building.releaseUnused(sources)
    throw error
  }
}

/** A map as the converter takes it: its shown name and bytes. */
export interface MapBytes {
  name: string
  bytes: Uint8Array
}

/**
 * The maps of one merge or add: read once for every model, noted as each model refers to them,
 * and reported when no model did (a map no model names cannot be placed on any UVs).
 * `isSbmScanned`: whether an SBM model's bytes are searched for map names too (the add does;
 * the merge takes an SBM as it is, so its maps count as unused).
 */
export function createMapUse(storage: FileStorage, options: { isSbmScanned: boolean }) {
  const used = new Set<string>()
  return {
    read(files: readonly MergeFile[]): Promise<MapBytes[]> {
      return Promise.all(
        files.map(async (file) => ({ name: file.name, bytes: await readMergeFile(storage, file) })),
      )
    },
    /** The names of the maps this model refers to. */
    async note(model: MergeFile, maps: ReadonlyArray<{ name: string }>): Promise<string[]> {
      if (!options.isSbmScanned && extensionOf(model.name) === 'sbm') return []
      const bytes = await readMergeFile(storage, model)
      const names = maps.filter((map) => refersTo(bytes, map.name)).map((map) => map.name)
      for (const name of names) used.add(name)
      return names
    },
    /** A warning for each of these maps no model referred to. */
    unusedWarnings(maps: readonly MergeFile[]): ServerMessage[] {
      return maps
        .filter((map) => !used.has(map.name))
        .map((map): ServerMessage => ({ id: 'modelConfig.mapUnused', params: { name: map.name } }))
    },
  }
}

/** A converted part as the structure stores it, under its file name in the structure. */
export function structureModelOf(fileName: string, part: ConvertedPart): StructureModel {
  return {
    fileName,
    bytes: part.bytes,
    info: inspectSbm(fileName, part.bytes).info,
    preview: part.preview,
  }
}
