import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import {
  type addLocationMappingBodySchema,
  type LocationAnchor,
  maxAnchorsPerTarget,
  type updateLocationMappingBodySchema,
} from '../../../contract/location'
import { AppError } from '../../http/app-error'
import type { LocationAnchorsTable } from '../../migrations/0026-anchors-and-tours'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'

type AnchorRow = Selectable<LocationAnchorsTable>
type AddInput = z.output<typeof addLocationMappingBodySchema>
type UpdateInput = z.output<typeof updateLocationMappingBodySchema>

/** Anchor points of building models and city tilesets (contract/location.ts). */
export interface LocationAnchorsService {
  list(
    caller: ProjectCaller | null,
    projectId: string | undefined,
    target: string,
  ): Promise<LocationAnchor[]>
  add(user: AuthUser, input: AddInput): Promise<LocationAnchor>
  update(user: AuthUser, input: UpdateInput): Promise<LocationAnchor>
  remove(user: AuthUser, id: string): Promise<void>
  /**
   * Carries anchors along with a project and removes them with it. Runs before the tilesets'
   * hook, which repoints a copy's anchors at the copied tilesets.
   */
  lifecycleHook: ProjectLifecycleHook
}

/** Builds the service. SQL for `location_anchors` lives here (and in the tilesets' copy hook). */
export function createLocationAnchorsService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}): LocationAnchorsService {
  const { database, clock, access } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const toDatum = (row: AnchorRow): LocationAnchor => ({
    id: row.id,
    project_id: row.project_id,
    target: row.target,
    name: row.name,
    x: row.x,
    y: row.y,
    z: row.z,
    lng: row.lng,
    lat: row.lat,
    offset: row.offset_m,
    created_at: row.created_at,
    updated_at: row.updated_at,
  })
  const listRows = (handle: Database, projectId: string, target?: string) => {
    let query = handle
      .selectFrom('location_anchors')
      .selectAll()
      .where('project_id', '=', projectId)
    if (target !== undefined) query = query.where('target', '=', target)
    return query.orderBy('target').orderBy('seq').execute()
  }
  /**
   * A building project's anchors place its own model (target ''); a city project's place one
   * of its tilesets, which must exist.
   */
  const checkTarget = async (handle: Database, projectId: string, kind: string, target: string) => {
    if (kind !== 'city') {
      if (target !== '') throw new AppError('validation', 'location.targetNotFound')
      return
    }
    const tileset = await handle
      .selectFrom('tilesets')
      .select('id')
      .where('id', '=', target)
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    if (!tileset) throw new AppError('validation', 'location.targetNotFound')
  }
  const loadEditable = async (user: AuthUser, id: string) => {
    const row = await db
      .selectFrom('location_anchors')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) throw new AppError('notFound', 'location.anchorNotFound')
    await access.requireEditable(user, row.project_id)
    return row
  }

  return {
    async list(caller, projectId, target) {
      const { record } = await access.resolveReadable(caller, projectId)
      return (await listRows(db, record.id, target)).map(toDatum)
    },

    async add(user, input) {
      const project = await access.requireEditable(user, input.project_id)
      return db.transaction().execute(async (transaction) => {
        // the lock keeps two adds from both passing the count, and a delete of the project
        // from running between the check and the insert
        await access.lockEditable(transaction, user, input.project_id)
        await checkTarget(transaction, input.project_id, project.kind, input.target)
        const existing = await listRows(transaction, input.project_id, input.target)
        if (existing.length >= maxAnchorsPerTarget)
          throw new AppError('conflict', 'location.tooManyAnchors', {
            maximum: maxAnchorsPerTarget,
          })
        const timestamp = now()
        const row: AnchorRow = {
          id: randomUUID(),
          project_id: input.project_id,
          target: input.target,
          // the lock above makes this place the model's own
          seq: (existing.at(-1)?.seq ?? 0) + 1,
          name: input.name,
          x: input.x,
          y: input.y,
          z: input.z,
          lng: input.lng,
          lat: input.lat,
          offset_m: input.offset,
          created_at: timestamp,
          updated_at: timestamp,
        }
        await transaction.insertInto('location_anchors').values(row).execute()
        return toDatum(row)
      })
    },

    async update(user, input) {
      const row = await loadEditable(user, input.id)
      const changes: Partial<AnchorRow> = {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.x === undefined ? {} : { x: input.x }),
        ...(input.y === undefined ? {} : { y: input.y }),
        ...(input.z === undefined ? {} : { z: input.z }),
        ...(input.lng === undefined ? {} : { lng: input.lng }),
        ...(input.lat === undefined ? {} : { lat: input.lat }),
        ...(input.offset === undefined ? {} : { offset_m: input.offset }),
        updated_at: now(),
      }
      await db.updateTable('location_anchors').set(changes).where('id', '=', row.id).execute()
      return toDatum({ ...row, ...changes })
    },

    async remove(user, id) {
      const row = await loadEditable(user, id)
      await db.deleteFrom('location_anchors').where('id', '=', row.id).execute()
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        for (const row of await listRows(transaction, fromProjectId)) {
          await transaction
            .insertInto('location_anchors')
            .values({ ...row, id: randomUUID(), project_id: toProjectId })
            .execute()
        }
      },
      async onDelete(transaction, projectId) {
        await transaction
          .deleteFrom('location_anchors')
          .where('project_id', '=', projectId)
          .execute()
      },
    },
  }
}
