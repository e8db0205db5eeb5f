import { randomUUID } from 'node:crypto'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Selectable } from 'kysely'
import type { PlainMessageId } from '../../../contract/messages'
import {
  type DownloadState,
  getSbkFilePath,
  type OfflinePackage,
  type PackageVariant,
} from '../../../contract/offline-package'
import type { DatabaseConfig } from '../../config'
import { AppError, fieldError } from '../../http/app-error'
import type { OfflinePackagesTable } from '../../migrations/0016-offline-packages'
import { type DatabaseHandle, isUniqueViolation } from '../../plugins/db'
import type { FileStorage, NamedFiles } from '../../plugins/storage'
import { type ProjectAccess, signedInReader } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { Job, JobKind, JobQueue } from '../jobs/job-queue'
import { type Clock, timestampOf } from '../time/clock'
import { type PackageDirectories, planOfflinePackage } from './offline-package-contents'
import { createPackageWriter } from './offline-package-writer'
import type { OrdersService } from './orders.service'

type PackageRow = Selectable<OfflinePackagesTable>

/** What a build job is given: plain data, as every job input. */
interface BuildInput {
  packageId: string
  projectId: string
  variant: PackageVariant
  isWatermarked: boolean
  builtAt: string
}

/** The file `getSbkFile` sends, once every rule let it through: `name` among `files`. */
export interface ServedPackage {
  files: NamedFiles
  name: string
  fileName: string
  packageId: string
}

/** A project's offline package: its state, its background build and its download. */
export interface OfflinePackagesService {
  state(user: AuthUser, projectId: string): Promise<DownloadState>
  build(
    user: AuthUser,
    projectId: string,
    variant: PackageVariant | undefined,
  ): Promise<OfflinePackage>
  /**
   * Cancels the project's running build `packageId` (owner or admin): its row turns failed with
   * `offlinePackage.cancelled` at once and its job is cancelled through the queue, so the run
   * stops in whichever process runs it and a new build may start straight away.
   */
  cancel(user: AuthUser, projectId: string, packageId: string): Promise<OfflinePackage>
  /** The ready package file named by `reqPaths`, for a holder of its signed address. */
  openFile(input: {
    projectId: string
    reqPaths: string
    grant: string | undefined
  }): Promise<ServedPackage>
  /**
   * At start: a build a crash or restart cut short is marked failed and its files removed;
   * files no ready package names are removed, on this machine and in the store (folder or
   * bucket). Resolves to how many builds were cut short.
   */
  recover(): Promise<number>
  /** Resolves once every build started by this process has ended (tests, shut-down). */
  settle(): Promise<void>
  /** Ends the build threads (after the job queue has stopped the builds). */
  close(): Promise<void>
}

/** Builds written before one whose POI rows matched its plan is given up on. */
const maxConsistencyAttempts = 3

/** A run longer than this is stopped (a package of several GiB on a slow disk takes minutes). */
const buildTimeLimitMs = 60 * 60_000

const packageFilePattern = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.zip$/

/** The grant resource of a package's download address. */
const grantResource = (packageId: string) => `offline-package/${packageId}`

/**
 * Builds the service. The packages live in the store's `offline-packages` area, as
 * `<project>/<id>.zip` (DATA_DIR/offline-packages on a folder store, the bucket's
 * offline-packages/ with STORAGE_URL); `directory` (DATA_DIR/offline-packages) holds a build's
 * POI-list spool files beside where a folder store writes its zip.
 */
export function createOfflinePackagesService(dependencies: {
  database: DatabaseHandle
  /** The same database, for the build threads' own connections (they read the POI rows). */
  databaseConfig: DatabaseConfig
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
  orders: OrdersService
  jobs: JobQueue
  directory: string
  sources: PackageDirectories
  onWarning?: (message: string, error: unknown) => void
}): OfflinePackagesService {
  const { database, storage, clock, access, orders, jobs, directory, sources } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())
  const running = new Map<string, Job<void>>()
  const packages = storage.named('offline-packages')
  const nameOf = (projectId: string, packageId: string) => `${projectId}/${packageId}.zip`
  const fileOf = (projectId: string, packageId: string) =>
    join(directory, projectId, `${packageId}.zip`)
  const warn = dependencies.onWarning ?? (() => {})
  /** Removes a package's zip from the store; a failure is only logged (see `recover`). */
  const removeQuietly = (name: string) =>
    packages
      .remove(name)
      .catch((error: unknown) =>
        warn('an offline package zip could not be removed from the store', error),
      )
  // the zip is written in a worker thread: the request thread only reads the records
  const writer = createPackageWriter({
    storage: storage.location,
    database: dependencies.databaseConfig,
  })

  const markFailed = async (packageId: string, messageId: PlainMessageId) => {
    await db
      .updateTable('offline_packages')
      .set({ state: 'failed', error_message_id: messageId, finished_at: now() })
      .where('id', '=', packageId)
      .where('state', '=', 'building')
      .execute()
  }

  /**
   * A build: the records are read here (a few queries; of the POIs only their count and
   * templates), the bytes are read, hashed and zipped in a worker thread, the POI rows read there
   * from the database as they are written. It stays a job of the `io` lane (two at a time, fair
   * between users, a time limit, stopped with the queue): the lane counts builds, the thread
   * does their work.
   */
  const buildKind: JobKind<BuildInput, void> = {
    name: 'offlinePackage',
    lane: 'io',
    timeLimitMs: buildTimeLimitMs,
    // it reads the records and the store and writes to the store (its spools under DATA_DIR):
    // any worker process may
    runsAnywhere: true,
    async run(input, context) {
      // cancelled before its job id was written (or before a worker took it): nothing to build
      const current = await database.db
        .selectFrom('offline_packages')
        .select('state')
        .where('id', '=', input.packageId)
        .executeTakeFirst()
      if (current?.state !== 'building') return
      const path = fileOf(input.projectId, input.packageId)
      const name = nameOf(input.projectId, input.packageId)
      try {
        await mkdir(join(directory, input.projectId), { recursive: true })
        const written = await writeConsistentPackage(input, path, name, context)
        // the file is complete and synced: now the row may say so, and older packages go
        const superseded = await database.db.transaction().execute(async (transaction) => {
          const updated = await transaction
            .updateTable('offline_packages')
            .set({
              state: 'ready',
              size_bytes: written.sizeBytes,
              sha256: written.sha256,
              entry_count: written.entryCount,
              finished_at: now(),
            })
            .where('id', '=', input.packageId)
            .where('state', '=', 'building')
            .executeTakeFirst()
          if (updated.numUpdatedRows !== 1n) return null
          const older = await transaction
            .selectFrom('offline_packages')
            .select('id')
            .where('project_id', '=', input.projectId)
            .where('state', '=', 'ready')
            .where('id', '!=', input.packageId)
            .execute()
          if (older.length > 0) {
            await transaction
              .updateTable('offline_packages')
              .set({ state: 'superseded' })
              .where(
                'id',
                'in',
                older.map((row) => row.id),
              )
              .execute()
          }
          return older
        })
        // the row is gone (project deleted mid-build): the file belongs to nothing. A removal
        // that fails (a bucket unreachable a moment) must not fail the build whose row is ready
        // now: what no ready package names goes at the next start's recovery
        if (superseded === null) await removeQuietly(name)
        for (const row of superseded ?? []) await removeQuietly(nameOf(input.projectId, row.id))
      } catch (error) {
        await removeQuietly(name)
        const messageId: PlainMessageId = context.signal.aborted
          ? 'offlinePackage.stopped'
          : 'offlinePackage.failed'
        await markFailed(input.packageId, messageId).catch((markError: unknown) =>
          warn('an offline package build failed and could not be marked failed', markError),
        )
        throw error
      }
    },
  }
  jobs.register(buildKind)

  /**
   * Plans and writes the package until the POI rows the thread wrote are the ones the plan
   * counted: a POI added, deleted or moved to another template in the moment between the plan's
   * reading and the thread's would leave the manifest's count or templates.json behind the
   * rows, so that build is written again (its file replaced); people editing POIs all the while
   * fail the build after a few tries rather than make a package that contradicts itself.
   */
  const writeConsistentPackage = async (
    input: BuildInput,
    path: string,
    name: string,
    context: { signal: AbortSignal; reportProgress(fraction: number): void },
  ) => {
    for (let attempt = 1; ; attempt++) {
      const plan = await planOfflinePackage(database, storage, sources, input)
      // a second try's file replaces the first's (a durable write replaces its name whole)
      const written = await writer.write(plan, path, {
        signal: context.signal,
        onProgress: context.reportProgress,
        storedAs: name,
      })
      const expected = JSON.stringify(plan.pois)
      if (written.poiLists.every((read) => JSON.stringify(read) === expected)) return written
      if (attempt === maxConsistencyAttempts) {
        throw new Error('the POI list changed while the offline package was written')
      }
    }
  }

  /** What a build row shows; the address only when `mayDownload`. */
  const packageOf = (row: PackageRow, mayDownload: boolean): OfflinePackage => {
    const job = running.get(row.id)
    const progress =
      row.state === 'ready' ? 1 : row.state === 'building' ? (job?.status().progress ?? null) : null
    const fileName = `${row.id}.zip`
    return {
      id: row.id,
      state: row.state,
      variant: row.variant,
      is_watermarked: row.is_watermarked === 1,
      progress,
      size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
      entry_count: row.entry_count,
      error_message_id: row.error_message_id,
      created_at: row.created_at,
      finished_at: row.finished_at,
      download_url:
        row.state === 'ready' && mayDownload
          ? `${getSbkFilePath}?${new URLSearchParams({
              project_id: row.project_id,
              reqPaths: fileName,
              enController: '1',
              grant: access.fileGrant(grantResource(row.id), signedInReader),
            }).toString()}`
          : null,
      file_name: fileName,
    }
  }

  /** Which package the project may have now (SPEC §4: an unpaid order blocks downloads). */
  const allowedOf = async (projectId: string, isPaid: boolean) => {
    const unpaid = await db
      .selectFrom('orders')
      .select('id')
      .where('project_id', '=', projectId)
      .where('state', '=', 'unpaid')
      .executeTakeFirst()
    const allowed: DownloadState['allowed'] = unpaid ? 'none' : isPaid ? 'full' : 'trial'
    return { allowed, unpaidOrderId: unpaid?.id ?? null }
  }

  /** Whether a ready package of `variant` may be downloaded now. */
  const mayDownload = (allowed: DownloadState['allowed'], variant: PackageVariant) =>
    allowed === 'full' || (allowed === 'trial' && variant === 'trial')

  /** A paid project's package shows the watermark until watermark removal (type 4) is paid. */
  const hasPaidWatermarkRemoval = async (projectId: string) => {
    const row = await db
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.id', 'order_lines.order_id')
      .select('order_lines.order_id')
      .where('orders.project_id', '=', projectId)
      .where('orders.state', '=', 'paid')
      .where('order_lines.type', '=', '4')
      .executeTakeFirst()
    return row !== undefined
  }

  const newestOf = (projectId: string) =>
    db
      .selectFrom('offline_packages')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('state', '!=', 'superseded')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst()

  return {
    async state(user, projectId) {
      const project = await access.requireEditable(user, projectId)
      const isPaid = project.is_paid === 1
      const { allowed, unpaidOrderId } = await allowedOf(projectId, isPaid)
      const newest = await newestOf(projectId)
      return {
        project_id: projectId,
        is_paid: isPaid,
        allowed,
        unpaid_order_id: unpaidOrderId,
        package: newest ? packageOf(newest, mayDownload(allowed, newest.variant)) : null,
      }
    },

    async build(user, projectId, wanted) {
      const project = await access.requireEditable(user, projectId)
      const isPaid = project.is_paid === 1
      const variant = wanted ?? (isPaid ? 'full' : 'trial')
      // the full package needs a paid project and no unpaid order (SPEC §4, §8)
      if (variant === 'full') await orders.requireDownloadAllowed(projectId)
      else {
        const { allowed } = await allowedOf(projectId, isPaid)
        if (allowed === 'none') throw new AppError('paymentRequired', 'order.unpaidBlocksDownload')
      }
      const isWatermarked = variant === 'trial' || !(await hasPaidWatermarkRemoval(projectId))
      const building = await db
        .selectFrom('offline_packages')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('state', '=', 'building')
        .executeTakeFirst()
      if (building) return packageOf(building, false)
      const row: PackageRow = {
        id: randomUUID(),
        project_id: projectId,
        user_id: user.id,
        state: 'building',
        variant,
        is_watermarked: isWatermarked ? 1 : 0,
        size_bytes: null,
        sha256: null,
        entry_count: null,
        error_message_id: null,
        created_at: now(),
        finished_at: null,
        job_id: null,
      }
      try {
        await db.insertInto('offline_packages').values(row).execute()
      } catch (error) {
        // another request started a build between the read and the insert: answer that one
        if (!isUniqueViolation(error)) throw error
        const other = await db
          .selectFrom('offline_packages')
          .selectAll()
          .where('project_id', '=', projectId)
          .where('state', '=', 'building')
          .executeTakeFirst()
        if (other) return packageOf(other, false)
        throw error
      }
      const job = jobs.submit(buildKind, user.id, {
        packageId: row.id,
        projectId,
        variant,
        isWatermarked,
        builtAt: row.created_at,
      })
      running.set(row.id, job)
      job.result
        .catch(async (error: unknown) => {
          // refused before it ran (queue full, shutting down): the row must not stay building
          if (job.status().attempts === 0) {
            const messageId: PlainMessageId =
              error instanceof AppError && error.kind === 'unavailable'
                ? 'offlinePackage.busy'
                : 'offlinePackage.failed'
            await markFailed(row.id, messageId)
          }
        })
        .catch((error: unknown) => warn('marking a refused offline package build failed', error))
        .finally(() => running.delete(row.id))
      // (after the handlers above: a job refused at once must not reject unhandled meanwhile)
      // the job's id in the row, for a cancel answered by any process; a cancel that came in
      // before it (the row no longer building) found no id to cancel, so the build cancels its
      // own job: one of the two single-row updates always sees the other's. Should the write
      // fail, a cancel still marks the row and the run, finding it so, discards its file.
      try {
        const recorded = await db
          .updateTable('offline_packages')
          .set({ job_id: job.id })
          .where('id', '=', row.id)
          .where('state', '=', 'building')
          .executeTakeFirst()
        if (recorded.numUpdatedRows !== 1n) job.cancel()
      } catch (error) {
        warn('the job id of an offline package build could not be recorded', error)
      }
      return packageOf(row, false)
    },

    async cancel(user, projectId, packageId) {
      await access.requireEditable(user, projectId)
      const row = await db
        .selectFrom('offline_packages')
        .select('id')
        .where('id', '=', packageId)
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'offlinePackage.notFound')
      // the row first: the run's own ending (stopped, or finished a moment too late) then finds
      // it no longer building, leaves it as it is and removes its file
      const marked = await db
        .updateTable('offline_packages')
        .set({ state: 'failed', error_message_id: 'offlinePackage.cancelled', finished_at: now() })
        .where('id', '=', packageId)
        .where('state', '=', 'building')
        .executeTakeFirst()
      if (marked.numUpdatedRows !== 1n) {
        throw new AppError('conflict', 'offlinePackage.notBuilding')
      }
      const cancelled = await db
        .selectFrom('offline_packages')
        .selectAll()
        .where('id', '=', packageId)
        .executeTakeFirstOrThrow()
      // false when the job already ended (or its id is not written yet: see build)
      if (cancelled.job_id !== null) await jobs.cancel(cancelled.job_id)
      return packageOf(cancelled, false)
    },

    async openFile({ projectId, reqPaths, grant }) {
      // one file name, no folders: `..`, absolute paths and other projects' files never match
      const match = packageFilePattern.exec(reqPaths)
      if (!match) throw fieldError('validation', 'reqPaths', 'offlinePackage.badPath')
      const packageId = match[1] as string
      if (grant === undefined || !(await access.checkFileGrant(grantResource(packageId), grant))) {
        throw new AppError('forbidden', 'offlinePackage.addressExpired')
      }
      const row = await db
        .selectFrom('offline_packages')
        .selectAll()
        .where('id', '=', packageId)
        .executeTakeFirst()
      if (!row || row.project_id !== projectId) {
        throw new AppError('notFound', 'offlinePackage.badPath')
      }
      if (row.state !== 'ready') throw new AppError('notFound', 'offlinePackage.notReady')
      const project = await db
        .selectFrom('projects')
        .select('is_paid')
        .where('id', '=', projectId)
        .executeTakeFirst()
      if (!project) throw new AppError('notFound', 'project.notFound')
      // the rules hold at download time too: an order made since blocks it (SPEC §4)
      const { allowed } = await allowedOf(projectId, project.is_paid === 1)
      if (allowed === 'none') throw new AppError('paymentRequired', 'order.unpaidBlocksDownload')
      if (!mayDownload(allowed, row.variant)) {
        throw new AppError('paymentRequired', 'error.paymentRequired')
      }
      return { files: packages, name: nameOf(projectId, packageId), fileName: reqPaths, packageId }
    },

    async recover() {
      const cut = await db
        .selectFrom('offline_packages')
        .select(['id', 'project_id'])
        .where('state', '=', 'building')
        .execute()
      for (const row of cut) await markFailed(row.id, 'offlinePackage.interrupted')
      // every file no ready package names: part files of cut builds, files of deleted projects
      const readyRows = await db
        .selectFrom('offline_packages')
        .select(['id', 'project_id'])
        .where('state', '=', 'ready')
        .execute()
      const ready = new Set(readyRows.map((row) => row.id))
      // this machine's folder: spool files, and on a folder store the zips and part files
      await mkdir(directory, { recursive: true })
      for (const project of await readdir(directory, { withFileTypes: true })) {
        if (!project.isDirectory()) continue
        const folder = join(directory, project.name)
        const files = await readdir(folder)
        let kept = 0
        for (const file of files) {
          const id = packageFilePattern.exec(file)?.[1]
          if (id !== undefined && ready.has(id)) kept++
          else await rm(join(folder, file), { force: true })
        }
        if (kept === 0) await rm(folder, { recursive: true, force: true })
      }
      // the store (the same folder, or the bucket): zips of cut builds that got stored before
      // their row said so, of deleted projects, superseded ones whose removal failed
      // their row says failed already, so none is ever served; a bucket that cannot be reached
      // now must not keep the server from starting: they go at the next start
      const named = new Set(readyRows.map((row) => nameOf(row.project_id, row.id)))
      try {
        for (const file of await packages.list('')) {
          if (!named.has(file.name)) await packages.remove(file.name)
        }
      } catch (error) {
        warn('package zips no ready package names could not be removed from the store', error)
      }
      return cut.length
    },

    async settle() {
      await Promise.allSettled([...running.values()].map((job) => job.result))
    },

    close: () => writer.close(),
  }
}
