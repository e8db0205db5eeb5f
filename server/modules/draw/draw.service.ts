import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import {
  type AreaDraw,
  type AreaDrawName,
  type addAreaDrawBodySchema,
  type DrawKind,
  type DrawPoint,
  type DrawStyle,
  pathDrawTypes,
  type updateAreaDrawBodySchema,
} from '../../../contract/draw'
import {
  checkDrawing,
  type GeometryIssue,
  measureDrawing,
} from '../../../workers/geodesy/draw-geometry'
import { AppError, fieldError } from '../../http/app-error'
import type { AreaDrawsTable } from '../../migrations/0014-draw'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import type { CityAccess } from '../tilesets/city-access'
import { type Clock, timestampOf } from '../time/clock'

type AreaDrawRow = Selectable<AreaDrawsTable>
type AddInput = z.output<typeof addAreaDrawBodySchema>
type UpdateInput = z.output<typeof updateAreaDrawBodySchema>

/** Areas and paths of city projects (contract/draw.ts), measured on the server. */
export interface DrawService {
  add(user: AuthUser, input: AddInput): Promise<AreaDraw>
  update(user: AuthUser, input: UpdateInput): Promise<AreaDraw>
  remove(user: AuthUser, id: string): Promise<void>
  find(caller: ProjectCaller | null, id: string): Promise<AreaDraw>
  findAll(
    caller: ProjectCaller | null,
    projectId: string | undefined,
    kind: DrawKind | undefined,
  ): Promise<AreaDraw[]>
  names(caller: ProjectCaller | null, projectId: string | undefined): Promise<AreaDrawName[]>
  lifecycleHook: ProjectLifecycleHook
}

/** The catalogue message of a refused shape, on the `points` field (or `type`). */
function geometryError(issue: GeometryIssue): AppError {
  switch (issue.code) {
    case 'drawTypeUnknown':
      return fieldError('validation', 'type', 'validation.invalid')
    case 'tooFewPoints':
      return fieldError('validation', 'points', 'draw.tooFewPoints', {
        min: issue.params.min,
        count: issue.params.count,
      })
    case 'tooManyPoints':
      return fieldError('validation', 'points', 'draw.tooManyPoints', {
        max: issue.params.max,
        count: issue.params.count,
      })
    case 'coordinateOutOfRange':
      return fieldError('validation', 'points', 'draw.coordinateOutOfRange', {
        number: issue.params.index + 1,
      })
    case 'circleRadiusOutOfRange':
      return fieldError('validation', 'points', 'draw.circleRadiusOutOfRange', {
        maxKilometers: issue.params.maxMeters / 1000,
      })
    case 'polygonTooWide':
      return fieldError('validation', 'points', 'draw.polygonTooWide', {
        maxDegrees: issue.params.maxDegrees,
      })
    case 'polygonSelfIntersecting':
      return fieldError('validation', 'points', 'draw.polygonSelfIntersecting', {
        edgeA: issue.params.edgeA + 1,
        edgeB: issue.params.edgeB + 1,
      })
    case 'polygonWithoutArea':
      return fieldError('validation', 'points', 'draw.polygonWithoutArea')
  }
}

/**
 * Measures points as a drawing of `type` and `kind`, or throws the validation error: the
 * area and length stored are always these, never a client's.
 */
function measured(kind: DrawKind, type: number, points: readonly DrawPoint[]) {
  if (kind === 'path' && !pathDrawTypes.includes(type as 3 | 5))
    throw fieldError('validation', 'type', 'draw.pathType')
  const issue = checkDrawing(type, points)
  if (issue) throw geometryError(issue)
  const measure = measureDrawing(type, points)
  return {
    acreage: measure.areaSquareMeters,
    length_m: measure.lengthMeters,
    radius_m: measure.radiusMeters,
  }
}

/** Builds the service. SQL for `area_draws` lives here only. */
export function createDrawService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: CityAccess
  /** Told after a drawing's points change or it is deleted (fences are drawings). */
  onChange?: (projectId: string, drawId: string, isDeleted: boolean) => Promise<void>
}): DrawService {
  const { database, clock, access, onChange } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const toDatum = (row: AreaDrawRow): AreaDraw => ({
    id: row.id,
    project_id: row.project_id,
    kind: row.kind as DrawKind,
    name: row.name,
    description: row.description,
    type: row.type,
    points: JSON.parse(row.points_json) as DrawPoint[],
    acreage: row.acreage,
    length: row.length_m,
    radius: row.radius_m,
    style: JSON.parse(row.style_json) as DrawStyle,
    is_visible: row.is_visible === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  })
  const findRow = (id: string) =>
    db.selectFrom('area_draws').selectAll().where('id', '=', id).executeTakeFirst()
  const listRows = (handle: Database, projectId: string, kind?: DrawKind) => {
    let query = handle.selectFrom('area_draws').selectAll().where('project_id', '=', projectId)
    if (kind !== undefined) query = query.where('kind', '=', kind)
    return query.orderBy('created_at').orderBy('id').execute()
  }
  const loadEditable = async (user: AuthUser, id: string) => {
    const row = await findRow(id)
    if (!row) throw new AppError('notFound', 'draw.notFound')
    await access.requireEditable(user, row.project_id)
    return row
  }

  return {
    async add(user, input) {
      await access.requireEditable(user, input.project_id)
      const measure = measured(input.kind, input.type, input.points)
      const timestamp = now()
      const row: AreaDrawRow = {
        id: randomUUID(),
        project_id: input.project_id,
        kind: input.kind,
        name: input.name,
        description: input.description,
        type: input.type,
        points_json: JSON.stringify(input.points),
        point_count: input.points.length,
        ...measure,
        style_json: JSON.stringify(input.style),
        is_visible: input.is_visible ? 1 : 0,
        created_at: timestamp,
        updated_at: timestamp,
      }
      await db.insertInto('area_draws').values(row).execute()
      return toDatum(row)
    },
    async update(user, input) {
      const row = await loadEditable(user, input.id)
      const reshaped = input.type !== undefined || input.points !== undefined
      const type = input.type ?? row.type
      const points = input.points ?? (JSON.parse(row.points_json) as DrawPoint[])
      const measure = reshaped ? measured(row.kind as DrawKind, type, points) : undefined
      const style = { ...(JSON.parse(row.style_json) as DrawStyle), ...(input.style ?? {}) }
      await db
        .updateTable('area_draws')
        .set({
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.description === undefined ? {} : { description: input.description }),
          ...(measure === undefined
            ? {}
            : {
                type,
                points_json: JSON.stringify(points),
                point_count: points.length,
                ...measure,
              }),
          ...(input.style === undefined ? {} : { style_json: JSON.stringify(style) }),
          ...(input.is_visible === undefined ? {} : { is_visible: input.is_visible ? 1 : 0 }),
          updated_at: now(),
        })
        .where('id', '=', input.id)
        .execute()
      if (measure !== undefined) await onChange?.(row.project_id, row.id, false)
      return toDatum((await findRow(input.id))!)
    },
    async remove(user, id) {
      const row = await loadEditable(user, id)
      await db.deleteFrom('area_draws').where('id', '=', id).execute()
      await onChange?.(row.project_id, id, true)
    },
    async find(caller, id) {
      const row = await findRow(id)
      // The same answer for a drawing that does not exist and one the caller may not read
      // would hide which ids exist; but every other area answers 403 for a foreign project,
      // so drawings do too (after 404 for an unknown id).
      if (!row) throw new AppError('notFound', 'draw.notFound')
      await access.resolveReadable(caller, row.project_id)
      return toDatum(row)
    },
    async findAll(caller, projectId, kind) {
      const project = (await access.resolveReadable(caller, projectId)).record.id
      return (await listRows(db, project, kind)).map(toDatum)
    },
    async names(caller, projectId) {
      const project = (await access.resolveReadable(caller, projectId)).record.id
      return db
        .selectFrom('area_draws')
        .select(['id', 'name as area_name', 'kind', 'type'])
        .where('project_id', '=', project)
        .orderBy('created_at')
        .orderBy('id')
        .execute() as Promise<AreaDrawName[]>
    },
    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        for (const row of await listRows(transaction, fromProjectId)) {
          await transaction
            .insertInto('area_draws')
            .values({ ...row, id: randomUUID(), project_id: toProjectId })
            .execute()
        }
      },
      async onDelete(transaction, projectId) {
        await transaction.deleteFrom('area_draws').where('project_id', '=', projectId).execute()
      },
    },
  }
}
