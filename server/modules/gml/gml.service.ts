import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { join } from 'node:path'
import {
  type GmlDisplayModeValue,
  type GmlPath,
  type GmlPlacementDatum,
  gmlFilesRoot,
} from '../../../contract/gml'
import { GmlError, isGmlError } from '../../../workers/indoor-route/gml-errors'
import { AppError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { FileStorage, ServedStoredFile } from '../../plugins/storage'
import { type Clock, timestampOf } from '../time/clock'
import { type GrantReader, type ProjectAccess, signedInReader } from '../access/project-access'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import { createUploadsRepository } from '../projects/uploads.repository'
import type { AuthUser } from '../accounts/users.service'
import type { JobQueue } from '../jobs/job-queue'
import { recordFileReplacement } from '../orders/file-replacements'
import { createGmlRepository, type ProjectGmlRow } from './gml.repository'
import { gmlInspectionJob } from './gml-inspection-job'
import { type GmlInspectionOptions, type GmlSummary, inspectGml } from './inspect-gml'

/** A GML file on local disk, waiting to be checked and stored. */
export interface IncomingGml {
  filePath: string
  /** The name the client gave; for display only. */
  fileName: string
  sizeBytes: number
}

/** A building project's IndoorGML network (issue #6). */
export interface GmlService {
  /**
   * Checks the file by parsing it (refusals carry the parser's reason), stores it and makes it
   * the project's GML file in one step, replacing the previous one (whose placement is kept:
   * both describe the same building). Owner or admin, building projects only.
   */
  accept(user: AuthUser, projectId: string, file: IncomingGml): Promise<GmlPath>
  /** Refuses early what `accept` would refuse about the project (unknown, foreign, a city). */
  checkUploadAllowed(user: AuthUser, projectId: string): Promise<void>
  /** The project's GML file, or null; anyone who may read the project (project tokens too). */
  find(caller: ProjectCaller, projectId: string): Promise<GmlPath | null>
  /** Saves how the network is placed and shown. Owner or admin. */
  updatePlacement(
    user: AuthUser,
    input: { projectId: string; placement: GmlPlacementDatum; displayMode: GmlDisplayModeValue },
  ): Promise<GmlPath>
  /**
   * Opens `<file_id>.gml` for `GET /web/gml/files/…?grant=`: `notFound` for anything else,
   * `forbidden` without a live grant (the one `find` put in the address).
   */
  openFile(name: string, grant: string | undefined): Promise<ServedStoredFile>
  /** Copies a project's GML file with the project, and drops it with the project. */
  lifecycleHook: ProjectLifecycleHook
}

/**
 * True when the file itself was refused (not XML, no network, empty, too large): sending the
 * same bytes again cannot succeed, unlike a refusal about the project or a passing failure.
 */
export function isGmlFileRefusal(error: unknown): boolean {
  if (!(error instanceof AppError)) return false
  const details = error.details as { gml_error?: unknown } | undefined
  return typeof details?.gml_error === 'string'
}

/** Files at least this large are parsed in a worker thread, so requests keep being answered. */
export const defaultInThreadThresholdBytes = 4 * 1024 * 1024

const servedNamePattern = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.gml$/

/** Checks that a deleted row's bytes went after its transaction committed (see below). */
const unusedContentCheckDelaysMs = [1_000, 30_000]

/** The resource a GML file's grant covers. */
function gmlGrantResource(fileId: string): string {
  return `gml:${fileId}`
}

/**
 * The API view of a stored row; its URL carries the read grant `grantFor` makes (signed by
 * access/project-access.ts, bound to the reader's project token if any).
 */
export function toGmlPath(row: ProjectGmlRow, grantFor: (resource: string) => string): GmlPath {
  return {
    url: `${gmlFilesRoot}${row.file_id}.gml?grant=${grantFor(gmlGrantResource(row.file_id))}`,
    file_name: row.file_name,
    size_bytes: row.size_bytes,
    state_count: row.state_count,
    transition_count: row.transition_count,
    placement: {
      offset: [row.offset_x, row.offset_y, row.offset_z],
      rotation_deg: row.rotation_deg,
      scale: row.scale,
    },
    display_mode: Math.min(3, Math.max(0, Math.trunc(row.display_mode))) as GmlDisplayModeValue,
    updated_at: row.updated_at,
  }
}

/**
 * Where GML uploads are received before they are checked (swept at start-up by the app's
 * folder sweeper, server/composition.ts).
 */
export function gmlIncomingDirectory(dataDir: string): string {
  return join(dataDir, 'incoming-gml')
}

/** Builds the GML service. */
export function createGmlService(dependencies: {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
  /** The server's one background queue: large files are parsed there, in a worker thread. */
  jobs: JobQueue
  maxSizeBytes: number
  inThreadThresholdBytes?: number
  onWarning?: (message: string, error: unknown) => void
}): GmlService {
  const { database, storage, clock, access, maxSizeBytes } = dependencies
  const threshold = dependencies.inThreadThresholdBytes ?? defaultInThreadThresholdBytes
  const { db } = database
  const gml = createGmlRepository(db)
  const now = () => timestampOf(clock.nowMs())

  // Content-addressed bytes may be shared with other uploads: remove only what nobody uses.
  const removeIfUnused = async (sha256: string) => {
    if (await gml.isContentUsed(sha256)) return
    if (await createUploadsRepository(db).isContentUsed(sha256)) return
    await storage.remove(sha256)
  }

  const toPath = (row: ProjectGmlRow, reader: GrantReader = signedInReader) =>
    toGmlPath(row, (resource) => access.fileGrant(resource, reader))

  const checkOwnedBuilding = async (user: AuthUser, projectId: string) => {
    const project = await access.requireEditable(user, projectId)
    if (project.kind !== 'building') {
      throw new AppError('validation', 'gml.buildingOnly')
    }
  }

  const inspect = async (user: AuthUser, file: IncomingGml): Promise<GmlSummary> => {
    if (file.sizeBytes === 0) {
      throw new AppError('validation', 'gml.empty', {}, { details: { gml_error: 'gml.empty' } })
    }
    if (file.sizeBytes > maxSizeBytes) {
      throw new AppError(
        'tooLarge',
        'gml.tooLarge',
        { limitMb: Math.round(maxSizeBytes / 1_048_576) },
        { details: { gml_error: 'gml.tooLarge' } },
      )
    }
    const options: GmlInspectionOptions = { maxSizeBytes, totalSizeBytes: file.sizeBytes }
    const source = file.sizeBytes >= threshold ? null : createReadStream(file.filePath)
    try {
      return source
        ? await inspectGml(source, options)
        : await dependencies.jobs.submit(gmlInspectionJob, user.id, {
            filePath: file.filePath,
            options,
          }).result
    } catch (error) {
      if (isGmlError(error)) {
        const reason = new GmlError(error.code, error.message)
        // the parser's English names the element at fault: kept for logs and API tools
        throw new AppError(
          reason.errorKind,
          'gml.loadFailed',
          {},
          {
            details: { gml_error: error.code },
            englishText: `GML file refused: ${error.message}`,
          },
        )
      }
      throw error
    } finally {
      source?.destroy()
    }
  }

  const scheduleUnusedCheck = (sha256: string) => {
    // A lifecycle hook runs inside the project's transaction, and bytes may go only once the
    // row's delete is committed; checking later (twice, for a slow commit) is the simple way.
    for (const delayMs of unusedContentCheckDelaysMs) {
      const timer = setTimeout(() => {
        removeIfUnused(sha256).catch((error: unknown) =>
          dependencies.onWarning?.('removing unused GML bytes failed', error),
        )
      }, delayMs)
      timer.unref()
    }
  }

  return {
    async accept(user, projectId, file) {
      await checkOwnedBuilding(user, projectId)
      const summary = await inspect(user, file)
      const stored = await storage.put(createReadStream(file.filePath), { maxSizeBytes })
      const at = now()
      let replaced: ProjectGmlRow | undefined
      try {
        replaced = await db.transaction().execute(async (transaction) => {
          // Locked, so a concurrent delete of the project runs wholly before or after this.
          await access.lockEditable(transaction, user, projectId)
          const repository = createGmlRepository(transaction)
          const previous = await repository.findByProject(projectId)
          if (previous && previous.sha256 !== stored.sha256) {
            await recordFileReplacement(transaction, {
              projectId,
              area: 'gml',
              recordId: projectId,
              recordCreatedAt: previous.created_at,
              previousSizeBytes: previous.size_bytes,
              sizeBytes: stored.sizeBytes,
              at,
            })
          }
          await repository.replace({
            project_id: projectId,
            file_id: randomUUID(),
            sha256: stored.sha256,
            file_name: file.fileName.slice(0, 255),
            size_bytes: stored.sizeBytes,
            state_count: summary.stateCount,
            transition_count: summary.transitionCount,
            offset_x: previous?.offset_x ?? 0,
            offset_y: previous?.offset_y ?? 0,
            offset_z: previous?.offset_z ?? 0,
            rotation_deg: previous?.rotation_deg ?? 0,
            scale: previous?.scale ?? 1,
            display_mode: previous?.display_mode ?? 1,
            // the same bytes again store nothing new: the file was stored when first uploaded
            // (the metering counts it once, metering.ts)
            created_at: previous?.sha256 === stored.sha256 ? previous.created_at : at,
            updated_at: at,
          })
          return previous
        })
      } catch (error) {
        if (stored.isNew) await removeIfUnused(stored.sha256)
        throw error
      }
      if (replaced && replaced.sha256 !== stored.sha256) await removeIfUnused(replaced.sha256)
      const row = await gml.findByProject(projectId)
      if (!row) throw new AppError('notFound', 'project.gone')
      return toPath(row)
    },

    checkUploadAllowed: checkOwnedBuilding,

    async find(caller, projectId) {
      // Throws notFound/forbidden exactly as reading the project itself would.
      const reader = await access.requireReadable(caller, projectId)
      const row = await gml.findByProject(projectId)
      return row ? toPath(row, reader) : null
    },

    async updatePlacement(user, { projectId, placement, displayMode }) {
      await checkOwnedBuilding(user, projectId)
      const isUpdated = await gml.update(projectId, {
        offset_x: placement.offset[0],
        offset_y: placement.offset[1],
        offset_z: placement.offset[2],
        rotation_deg: placement.rotation_deg,
        scale: placement.scale,
        display_mode: displayMode,
        updated_at: now(),
      })
      const row = isUpdated ? await gml.findByProject(projectId) : undefined
      if (!row) throw new AppError('notFound', 'gml.noFile')
      return toPath(row)
    },

    async openFile(name, grant) {
      const match = servedNamePattern.exec(name)
      const row = match ? await gml.findByFileId(match[1]!) : undefined
      if (!row) throw new AppError('notFound', 'file.notFound')
      if (
        grant === undefined ||
        !(await access.checkFileGrant(gmlGrantResource(row.file_id), grant))
      ) {
        throw new AppError('forbidden', 'file.grantRefused')
      }
      return { sha256: row.sha256, contentType: 'application/gml+xml' }
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        await createGmlRepository(transaction).copy(fromProjectId, toProjectId, now())
      },
      async onDelete(transaction, projectId) {
        const deleted = await createGmlRepository(transaction).deleteByProject(projectId)
        if (deleted) scheduleUnusedCheck(deleted.sha256)
      },
    },
  }
}
