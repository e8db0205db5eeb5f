import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import { uploadedFilesRoot, uploadedThumbnailsRoot } from '../../../contract/files'
import {
  type addInvestigationBodySchema,
  type findInvestigationsBodySchema,
  type Investigation,
  type InvestigationPage,
  type InvestigationState,
  investigationLimits,
  type updateInvestigationBodySchema,
} from '../../../contract/investigations'
import { AppError, fieldError } from '../../http/app-error'
import type { InvestigationsTable } from '../../migrations/0023-investigations'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { createUploadsRepository } from '../projects/uploads.repository'
import type { UploadsService } from '../projects/uploads.service'
import { type Clock, timestampOf } from '../time/clock'
import { publishInvestigation } from './live-events'
import type { LiveHub } from './live-hub'

type AddInput = z.output<typeof addInvestigationBodySchema>
type UpdateInput = z.output<typeof updateInvestigationBodySchema>
type FindInput = z.output<typeof findInvestigationsBodySchema>
type Row = Selectable<InvestigationsTable>

/** A stored photo: the upload's uuid and its served name. */
interface StoredPhoto {
  id: string
  name: string
}

/**
 * Inspection records (contract/investigations.ts): editors of a project record what was found
 * at an alarm or a POI, with photos from the shared image upload; readers of the project (user
 * or project token) list them. A record of a project the caller may not change is as unknown
 * as a made-up id, as alarms are. Every change reaches the project's live stream once
 * committed, so other open editors list it without a reload.
 */
export interface InvestigationsService {
  add(user: AuthUser, input: AddInput): Promise<Investigation>
  update(user: AuthUser, input: UpdateInput): Promise<Investigation>
  remove(user: AuthUser, id: string): Promise<{ deleted: number }>
  find(caller: ProjectCaller, input: FindInput): Promise<InvestigationPage>
  /** Records go with their project (a copy starts without them, as without alarms). */
  lifecycleHook: ProjectLifecycleHook
}

/** The reference holder that keeps a record's photos alive. */
export function investigationFileHolder(investigationId: string): string {
  return `investigation:${investigationId}`
}

function photosOf(row: Pick<Row, 'photos_json'>): StoredPhoto[] {
  try {
    const parsed: unknown = JSON.parse(row.photos_json)
    return Array.isArray(parsed) ? (parsed as StoredPhoto[]) : []
  } catch {
    return []
  }
}

function investigationOf(row: Row): Investigation {
  return {
    id: row.id,
    projectid: row.project_id,
    alarm_id: row.alarm_id ?? '',
    poi_id: row.poi_id ?? '',
    devicecode: row.devicecode,
    inspector: row.inspector,
    inspected_at: row.inspected_at,
    findings: row.findings,
    state: row.state as InvestigationState,
    photos: photosOf(row).map((photo) => ({
      id: photo.id,
      url: `${uploadedFilesRoot}${photo.name}`,
      thumbnail_url: `${uploadedThumbnailsRoot}${photo.name}`,
    })),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_by: row.updated_by,
    updated_at: row.updated_at,
  }
}

/** Builds the service. */
export function createInvestigationsService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
  /** Releases photos no record uses any more. */
  uploads: UploadsService
  /** The live stream: changes are published after their commit. */
  live?: LiveHub
}): InvestigationsService {
  const { database, clock, access, uploads, live } = dependencies
  const { db } = database
  const notFound = () => new AppError('notFound', 'investigation.notFound')

  /** The time of the inspection as stored text; refused when ahead of the server's clock. */
  const inspectedAtOf = (value: string | number | undefined): string | undefined => {
    if (value === undefined) return undefined
    const ms = typeof value === 'number' ? value : Date.parse(value)
    if (!Number.isFinite(ms) || ms > clock.nowMs() + investigationLimits.maxFutureSkewMs) {
      throw fieldError('validation', 'inspected_at', 'investigation.inFuture')
    }
    return timestampOf(ms)
  }

  /**
   * The photos as stored: each an upload made for this project, by the caller or already on
   * the record (`kept`: an admin may edit an owner's record without re-uploading its photos).
   */
  const checkPhotos = async (
    handle: Database,
    user: AuthUser,
    projectId: string,
    ids: readonly string[],
    kept: readonly StoredPhoto[],
  ): Promise<StoredPhoto[]> => {
    if (new Set(ids).size !== ids.length) {
      throw fieldError('validation', 'photos', 'investigation.duplicatePhoto')
    }
    const keptIds = new Set(kept.map((photo) => photo.id))
    if (ids.length === 0) return []
    const rows = await handle
      .selectFrom('uploaded_files')
      .select(['id', 'extension', 'owner_id', 'project_id'])
      .where('id', 'in', [...ids])
      .execute()
    const byId = new Map(rows.map((row) => [row.id, row]))
    return ids.map((id) => {
      const row = byId.get(id)
      const isUsable =
        row !== undefined &&
        row.project_id === projectId &&
        (keptIds.has(id) || row.owner_id === user.id)
      if (!isUsable) throw fieldError('notFound', 'photos', 'investigation.photoNotFound')
      return { id, name: `${id}.${row.extension}` }
    })
  }

  /** The record if the user may change it; a record they may not change is not found. */
  const editableRow = async (user: AuthUser, id: string): Promise<Row> => {
    const row = await db
      .selectFrom('investigations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) throw notFound()
    await requireEditableAs(user, row.project_id, notFound)
    return row
  }

  const requireEditableAs = async (user: AuthUser, projectId: string, refusal: () => AppError) => {
    try {
      await access.requireEditable(user, projectId)
    } catch (error) {
      if (error instanceof AppError) throw refusal()
      throw error
    }
  }

  /** What a new record is against: the alarm (and its POI), or a POI. */
  const subjectOf = async (user: AuthUser, input: AddInput) => {
    if (input.alarm_id !== undefined) {
      const alarm = await db
        .selectFrom('iot_alarms')
        .select(['id', 'project_id', 'poi_id', 'devicecode'])
        .where('id', '=', input.alarm_id)
        .executeTakeFirst()
      const refusal = () => fieldError('notFound', 'alarm_id', 'alarm.notFound')
      if (!alarm) throw refusal()
      await requireEditableAs(user, alarm.project_id, refusal)
      if (input.poi_id !== undefined && input.poi_id !== alarm.poi_id) {
        throw fieldError('validation', 'poi_id', 'investigation.poiNotOfAlarm')
      }
      return {
        projectId: alarm.project_id,
        alarmId: alarm.id as string | null,
        poiId: alarm.poi_id,
        devicecode: alarm.devicecode,
      }
    }
    if (input.poi_id !== undefined) {
      const poi = await db
        .selectFrom('pois')
        .select(['id', 'project_id'])
        .where('id', '=', input.poi_id)
        .executeTakeFirst()
      const refusal = () => fieldError('notFound', 'poi_id', 'poi.notFound')
      if (!poi) throw refusal()
      await requireEditableAs(user, poi.project_id, refusal)
      return {
        projectId: poi.project_id,
        alarmId: null,
        poiId: poi.id as string | null,
        devicecode: '',
      }
    }
    throw fieldError('validation', 'alarm_id', 'investigation.nameTheSubject')
  }

  const load = async (id: string) =>
    investigationOf(
      await db
        .selectFrom('investigations')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    )

  /** The committed record, told to the project's open streams. */
  const loadAndPublish = async (id: string) => {
    const record = await load(id)
    if (live !== undefined) publishInvestigation(live, record)
    return record
  }

  return {
    async add(user, input) {
      const subject = await subjectOf(user, input)
      const nowIso = timestampOf(clock.nowMs())
      const inspectedAt = inspectedAtOf(input.inspected_at) ?? nowIso
      const id = randomUUID()
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, subject.projectId)
        let existing = transaction
          .selectFrom('investigations')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('project_id', '=', subject.projectId)
        existing =
          subject.alarmId !== null
            ? existing.where('alarm_id', '=', subject.alarmId)
            : existing.where('alarm_id', 'is', null).where('poi_id', '=', subject.poiId)
        const { count } = await existing.executeTakeFirstOrThrow()
        if (Number(count) >= investigationLimits.maxPerSubject) {
          throw new AppError('conflict', 'investigation.tooMany', {
            maximum: investigationLimits.maxPerSubject,
          })
        }
        const photos = await checkPhotos(transaction, user, subject.projectId, input.photos, [])
        await transaction
          .insertInto('investigations')
          .values({
            id,
            project_id: subject.projectId,
            alarm_id: subject.alarmId,
            poi_id: subject.poiId,
            devicecode: subject.devicecode,
            inspector: input.inspector ?? user.name,
            inspected_at: inspectedAt,
            findings: input.findings,
            state: input.state,
            photos_json: JSON.stringify(photos),
            created_by: user.name,
            created_at: nowIso,
            updated_by: user.name,
            updated_at: nowIso,
          })
          .execute()
        const files = createUploadsRepository(transaction)
        for (const photo of photos) {
          await files.addReference(photo.id, investigationFileHolder(id), nowIso)
        }
      })
      return loadAndPublish(id)
    },

    async update(user, input) {
      const found = await editableRow(user, input.id)
      const inspectedAt = inspectedAtOf(input.inspected_at)
      const nowIso = timestampOf(clock.nowMs())
      const released = await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, found.project_id)
        // deleted meanwhile by another request: say so rather than write a ghost
        const current = await transaction
          .selectFrom('investigations')
          .selectAll()
          .where('id', '=', found.id)
          .executeTakeFirst()
        if (!current) throw notFound()
        const before = photosOf(current)
        let photos = before
        const removed: string[] = []
        if (input.photos !== undefined) {
          photos = await checkPhotos(transaction, user, current.project_id, input.photos, before)
          const files = createUploadsRepository(transaction)
          const holder = investigationFileHolder(current.id)
          const next = new Set(photos.map((photo) => photo.id))
          for (const photo of before) {
            if (next.has(photo.id)) continue
            await files.removeReference(photo.id, holder)
            removed.push(photo.id)
          }
          for (const photo of photos) await files.addReference(photo.id, holder, nowIso)
        }
        await transaction
          .updateTable('investigations')
          .set({
            ...(input.inspector === undefined ? {} : { inspector: input.inspector }),
            ...(inspectedAt === undefined ? {} : { inspected_at: inspectedAt }),
            ...(input.findings === undefined ? {} : { findings: input.findings }),
            ...(input.state === undefined ? {} : { state: input.state }),
            photos_json: JSON.stringify(photos),
            updated_by: user.name,
            updated_at: nowIso,
          })
          .where('id', '=', current.id)
          .execute()
        return removed
      })
      // photos no record uses any more go once the change has committed
      await uploads.release(released)
      return loadAndPublish(found.id)
    },

    async remove(user, id) {
      const found = await editableRow(user, id)
      const released = await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, found.project_id)
        const deleted = await transaction
          .deleteFrom('investigations')
          .where('id', '=', found.id)
          .executeTakeFirst()
        if (Number(deleted.numDeletedRows) === 0) throw notFound()
        return createUploadsRepository(transaction).removeReferencesOfHolder(
          investigationFileHolder(found.id),
        )
      })
      await uploads.release(released)
      live?.publish(found.project_id, { type: 'investigationDeleted', id: found.id })
      return { deleted: 1 }
    },

    async find(caller, input) {
      await access.requireReadable(caller, input.projectid)
      let query = db.selectFrom('investigations').where('project_id', '=', input.projectid)
      if (input.alarm_id !== undefined) query = query.where('alarm_id', '=', input.alarm_id)
      if (input.poi_id !== undefined) query = query.where('poi_id', '=', input.poi_id)
      if (input.state !== undefined) query = query.where('state', '=', input.state)
      const total = await query
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      const rows = await query
        .selectAll()
        .orderBy('inspected_at', 'desc')
        .orderBy('id', 'desc')
        .limit(input.pageSize)
        .offset((input.pageNo - 1) * input.pageSize)
        .execute()
      return {
        list: rows.map(investigationOf),
        total: Number(total.count),
        pageNo: input.pageNo,
        pageSize: input.pageSize,
      }
    },

    lifecycleHook: {
      async onDelete(transaction, projectId) {
        const rows = await transaction
          .selectFrom('investigations')
          .select('id')
          .where('project_id', '=', projectId)
          .execute()
        const files = createUploadsRepository(transaction)
        // the photos were uploaded for the project: its delete releases them once unreferenced
        for (const row of rows)
          await files.removeReferencesOfHolder(investigationFileHolder(row.id))
        await transaction.deleteFrom('investigations').where('project_id', '=', projectId).execute()
      },
    },
  }
}
