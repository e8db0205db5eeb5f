import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import {
  type addTourViewpointBodySchema,
  maxTourViewpoints,
  type TourViewpointRecord,
} from '../../../contract/view-tour'
import { AppError } from '../../http/app-error'
import type { ViewTourStopsTable } from '../../migrations/0026-anchors-and-tours'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import type { CityAccess } from '../tilesets/city-access'
import { type Clock, timestampOf } from '../time/clock'

type StopRow = Selectable<ViewTourStopsTable>
type AddInput = z.output<typeof addTourViewpointBodySchema>

/** The view tours of city projects (contract/view-tour.ts). */
export interface ViewTourService {
  list(caller: ProjectCaller | null, projectId: string | undefined): Promise<TourViewpointRecord[]>
  add(user: AuthUser, input: AddInput): Promise<TourViewpointRecord>
  remove(user: AuthUser, id: string): Promise<void>
  lifecycleHook: ProjectLifecycleHook
}

/** Builds the service. SQL for `view_tour_stops` lives here only. */
export function createViewTourService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  /** The city-only check on edits. */
  access: CityAccess
  /** Row locks for writes (the tour order must not interleave). */
  projectAccess: ProjectAccess
}): ViewTourService {
  const { database, clock, access, projectAccess } = dependencies
  const { db } = database

  const toDatum = (row: StopRow): TourViewpointRecord => ({
    id: row.id,
    project_id: row.project_id,
    seq: row.seq,
    name: row.name,
    lng: row.lng,
    lat: row.lat,
    zoom: row.zoom,
    pitch: row.pitch,
    bearing: row.bearing,
    dwell_seconds: row.dwell_seconds,
    created_at: row.created_at,
  })
  const listRows = (handle: Database, projectId: string) =>
    handle
      .selectFrom('view_tour_stops')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('seq')
      .orderBy('id')
      .execute()

  return {
    async list(caller, projectId) {
      const { record } = await access.resolveReadable(caller, projectId)
      return (await listRows(db, record.id)).map(toDatum)
    },

    async add(user, input) {
      await access.requireEditable(user, input.project_id)
      return db.transaction().execute(async (transaction) => {
        // two adds at once must not take the same place, nor pass the count together
        await projectAccess.lockEditable(transaction, user, input.project_id)
        const existing = await listRows(transaction, input.project_id)
        if (existing.length >= maxTourViewpoints)
          throw new AppError('conflict', 'tour.tooManyViewpoints', { maximum: maxTourViewpoints })
        const row: StopRow = {
          id: randomUUID(),
          project_id: input.project_id,
          seq: (existing.at(-1)?.seq ?? 0) + 1,
          name: input.name,
          lng: input.lng,
          lat: input.lat,
          zoom: input.zoom,
          pitch: input.pitch,
          bearing: input.bearing,
          dwell_seconds: input.dwell_seconds,
          created_at: timestampOf(clock.nowMs()),
        }
        await transaction.insertInto('view_tour_stops').values(row).execute()
        return toDatum(row)
      })
    },

    async remove(user, id) {
      const row = await db
        .selectFrom('view_tour_stops')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'tour.viewpointNotFound')
      await access.requireEditable(user, row.project_id)
      await db.transaction().execute(async (transaction) => {
        await projectAccess.lockEditable(transaction, user, row.project_id)
        await transaction.deleteFrom('view_tour_stops').where('id', '=', id).execute()
        // the others close up: places stay 1…n
        const rest = await listRows(transaction, row.project_id)
        for (const [index, stop] of rest.entries()) {
          if (stop.seq === index + 1) continue
          await transaction
            .updateTable('view_tour_stops')
            .set({ seq: index + 1 })
            .where('id', '=', stop.id)
            .execute()
        }
      })
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        for (const row of await listRows(transaction, fromProjectId)) {
          await transaction
            .insertInto('view_tour_stops')
            .values({ ...row, id: randomUUID(), project_id: toProjectId })
            .execute()
        }
      },
      async onDelete(transaction, projectId) {
        await transaction
          .deleteFrom('view_tour_stops')
          .where('project_id', '=', projectId)
          .execute()
      },
    },
  }
}
