import { randomUUID } from 'node:crypto'
import { uploadedFilesRoot } from '../../../contract/files'
import {
  type Capture,
  type CaptureCamera,
  captureCameraSchema,
  maxCapturesPerProject,
} from '../../../contract/visit'
import { AppError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { pixelBudgetProblem, readImageHeader, uploadedImageBudget } from '../images/image-header'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { createUploadsRepository } from '../projects/uploads.repository'
import type { UploadsService } from '../projects/uploads.service'
import { type Clock, timestampOf } from '../time/clock'
import { type CaptureRow, createCapturesRepository } from './captures.repository'

/** What a new capture is made of (the route has read the multipart request). */
export interface NewCapture {
  projectId: string
  name: string
  camera: CaptureCamera
  dwellSeconds: number
  image: Uint8Array
}

/** Visit mode's captures (SPEC §7 `/project/*Capture*`, issue 19). */
export interface CapturesService {
  /** The project's captures in tour order; anyone who may read the project (tokens too). */
  list(caller: ProjectCaller, projectId: string): Promise<Capture[]>
  /** Stores the PNG and appends the capture to the sequence. Owner or admin. */
  add(user: AuthUser, input: NewCapture): Promise<Capture>
  /** Renames a capture or changes its tour dwell (a field left out keeps its value). */
  update(
    user: AuthUser,
    captureId: string,
    changes: { name?: string | undefined; dwellSeconds?: number | undefined },
  ): Promise<Capture>
  /** Deletes a capture and its image; the rest close up. Owner or admin. */
  remove(user: AuthUser, captureId: string): Promise<Capture[]>
  /** Puts the project's captures in the order of `ids` (all of them, once each). */
  reorder(user: AuthUser, projectId: string, ids: readonly string[]): Promise<Capture[]>
  /** Whether a preview link still opens its project: the project's name, or a refusal. */
  checkPreview(
    caller: ProjectCaller,
    projectId: string,
  ): Promise<{ project_id: string; name: string }>
  /** Drops captures with their project (a copy starts without them). */
  lifecycleHook: ProjectLifecycleHook
}

/** The reference holder that keeps a capture's upload alive. */
export function captureFileHolder(captureId: string): string {
  return `capture:${captureId}`
}

function toCapture(row: CaptureRow): Capture {
  const camera = captureCameraSchema.safeParse(JSON.parse(row.camera_json))
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    seq: row.seq,
    image_url: `${uploadedFilesRoot}${row.image_name}`,
    camera: camera.success ? camera.data : { position: [0, 0, 0], target: [0, 0, 0] },
    dwell_seconds: row.dwell_seconds,
    created_at: row.created_at,
  }
}

/**
 * Refuses what is not a PNG a browser can decode within the upload pixel budget, before it is
 * stored: every preview's browser decodes the captures it lists.
 */
function checkPng(bytes: Uint8Array): void {
  const header = readImageHeader(bytes)
  if (header?.format !== 'png') {
    throw new AppError('unsupportedFile', 'visit.captureNotPng')
  }
  if (pixelBudgetProblem(header, uploadedImageBudget) !== null) {
    throw new AppError('tooLarge', 'visit.captureTooManyPixels', {
      width: header.widthPixels,
      height: header.heightPixels,
    })
  }
}

/** Builds the captures service. */
export function createCapturesService(dependencies: {
  database: DatabaseHandle
  storage: FileStorage
  uploads: UploadsService
  clock: Clock
  access: ProjectAccess
}): CapturesService {
  const { database, storage, uploads, clock, access } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())
  const listOf = async (handle: typeof db, projectId: string) =>
    (await createCapturesRepository(handle).listByProject(projectId)).map(toCapture)

  return {
    async list(caller, projectId) {
      await access.requireReadable(caller, projectId)
      return listOf(db, projectId)
    },

    async add(user, input) {
      checkPng(input.image)
      // refused before the bytes are stored; checked again under the lock below
      await access.requireEditable(user, input.projectId)
      const stored = await storage.put(input.image)
      const id = randomUUID()
      const fileId = randomUUID()
      const at = now()
      try {
        return await db.transaction().execute(async (transaction) => {
          await access.lockEditable(transaction, user, input.projectId)
          const captures = createCapturesRepository(transaction)
          const existing = await captures.listByProject(input.projectId)
          if (existing.length >= maxCapturesPerProject) {
            throw new AppError('conflict', 'visit.tooManyCaptures', {
              maximum: maxCapturesPerProject,
            })
          }
          const files = createUploadsRepository(transaction)
          await files.insert({
            id: fileId,
            sha256: stored.sha256,
            size_bytes: stored.sizeBytes,
            content_type: 'image/png',
            extension: 'png',
            original_name: 'capture.png',
            thumbnail_sha256: null,
            owner_id: user.id,
            project_id: input.projectId,
            purpose: 'image',
            created_at: at,
          })
          await files.addReference(fileId, captureFileHolder(id), at)
          const row: CaptureRow = {
            id,
            project_id: input.projectId,
            name: input.name,
            seq: existing.length + 1,
            file_id: fileId,
            image_name: `${fileId}.png`,
            camera_json: JSON.stringify(input.camera),
            dwell_seconds: input.dwellSeconds,
            created_at: at,
          }
          await captures.insert(row)
          return toCapture(row)
        })
      } catch (error) {
        // bytes this capture brought in and nothing else stores go again
        if (stored.isNew && !(await createUploadsRepository(db).isContentUsed(stored.sha256))) {
          await storage.remove(stored.sha256)
        }
        throw error
      }
    },

    async update(user, captureId, changes) {
      const found = await createCapturesRepository(db).findById(captureId)
      if (!found) throw new AppError('notFound', 'visit.captureNotFound')
      return db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, found.project_id)
        const captures = createCapturesRepository(transaction)
        const current = await captures.findById(captureId)
        if (!current) throw new AppError('notFound', 'visit.captureNotFound')
        const values = {
          name: changes.name ?? current.name,
          dwell_seconds: changes.dwellSeconds ?? current.dwell_seconds,
        }
        await captures.update(captureId, values)
        return toCapture({ ...current, ...values })
      })
    },

    async remove(user, captureId) {
      const found = await createCapturesRepository(db).findById(captureId)
      if (!found) throw new AppError('notFound', 'visit.captureNotFound')
      const remaining = await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, found.project_id)
        const captures = createCapturesRepository(transaction)
        // deleted meanwhile by another request: say so rather than succeed twice
        if (!(await captures.findById(captureId))) {
          throw new AppError('notFound', 'visit.captureNotFound')
        }
        await captures.delete(captureId)
        await createUploadsRepository(transaction).removeReferencesOfHolder(
          captureFileHolder(captureId),
        )
        const rows = await captures.listByProject(found.project_id)
        for (const [index, row] of rows.entries()) {
          if (row.seq !== index + 1) await captures.setSeq(row.id, index + 1)
        }
        return rows.map((row, index) => toCapture({ ...row, seq: index + 1 }))
      })
      await uploads.release([found.file_id])
      return remaining
    },

    reorder(user, projectId, ids) {
      return db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, projectId)
        const captures = createCapturesRepository(transaction)
        const rows = await captures.listByProject(projectId)
        const known = new Set(rows.map((row) => row.id))
        const foreign = ids.find((id) => !known.has(id))
        if (foreign !== undefined) {
          throw new AppError('validation', 'visit.captureNotInProject', { id: foreign })
        }
        if (new Set(ids).size !== ids.length || ids.length !== rows.length) {
          throw new AppError('validation', 'visit.sequenceIncomplete', { count: rows.length })
        }
        const byId = new Map(rows.map((row) => [row.id, row]))
        const ordered: Capture[] = []
        for (const [index, id] of ids.entries()) {
          const row = byId.get(id)!
          if (row.seq !== index + 1) await captures.setSeq(id, index + 1)
          ordered.push(toCapture({ ...row, seq: index + 1 }))
        }
        return ordered
      })
    },

    async checkPreview(caller, projectId) {
      const { record } = await access.requireReadable(caller, projectId)
      return { project_id: record.id, name: record.name }
    },

    lifecycleHook: {
      async onDelete(transaction, projectId) {
        const rows = await createCapturesRepository(transaction).deleteByProject(projectId)
        const files = createUploadsRepository(transaction)
        // the uploads were made for the project: its delete releases them once unreferenced
        for (const row of rows) await files.removeReferencesOfHolder(captureFileHolder(row.id))
      },
    },
  }
}
