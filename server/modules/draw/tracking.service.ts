import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import type { DrawPoint } from '../../../contract/draw'
import type { LiveEvent } from '../../../contract/iot-live'
import {
  type creatLocationPoiBodySchema,
  type FenceEvent,
  type PositionReport,
  positionFutureToleranceMs,
  positionReportSchema,
  type TrackedObject,
  type TrackPosition,
  trackMaxPositions,
} from '../../../contract/tracking'
import { type FenceShape, fenceCrossings } from '../../../workers/geodesy/fence-index'
import { geodesicDistanceMeters } from '../../../workers/geodesy/draw-geometry'
import { AppError } from '../../http/app-error'
import type { TrackedObjectsTable } from '../../migrations/0018-tracking'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { createToken, hashToken, isWellFormedToken } from '../auth/tokens'
import type { LiveHub } from '../iot/live-hub'
import type { CategoryTree } from '../templates/category-tree'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import type { CityAccess } from '../tilesets/city-access'
import { type Clock, timestampOf } from '../time/clock'
import { createFenceChecker } from './fence-checker'

type ObjectRow = Selectable<TrackedObjectsTable>

/** What `objects` may be narrowed to: a location category (and those below it), a coding. */
export interface LocationPoiFilter {
  category_id?: string | undefined
  coding?: string | undefined
}

/** Fences, positioned objects, position reports and fence events (contract/tracking.ts). */
export interface TrackingService {
  setFence(user: AuthUser, drawId: string, isFence: boolean): Promise<void>
  fences(
    caller: ProjectCaller | null,
    projectId: string | undefined,
  ): Promise<{ draw_id: string; project_id: string; created_at: string }[]>
  events(
    caller: ProjectCaller | null,
    projectId: string | undefined,
    limit: number,
  ): Promise<FenceEvent[]>
  /** `creatLocationPoi`: a positioned object, with its device token (shown once). */
  addObject(
    user: AuthUser,
    input: z.output<typeof creatLocationPoiBodySchema>,
  ): Promise<{ object: TrackedObject; token: string }>
  removeObject(user: AuthUser, id: string): Promise<void>
  objects(
    caller: ProjectCaller | null,
    projectId: string | undefined,
    filter?: LocationPoiFilter,
  ): Promise<TrackedObject[]>
  track(
    caller: ProjectCaller | null,
    id: string,
    range: { from?: string | undefined; to?: string | undefined },
  ): Promise<TrackPosition[]>
  /** A device's position report (already JSON-parsed); answers the crossings it caused. */
  report(
    token: string,
    body: unknown,
  ): Promise<{ events: { fence_id: string; kind: 'enter' | 'leave' }[] }>
  /**
   * Called when a drawing changes or is deleted (`isDeleted`): a deleted drawing is no longer a
   * fence, and its project's fence index is built again on next use.
   */
  drawingChanged(projectId: string, drawId: string, isDeleted: boolean): Promise<void>
  lifecycleHook: ProjectLifecycleHook
  /** Ends the fence thread (the app closes). */
  close(): Promise<void>
}

/** A fence's shape from its drawing's stored points (a circle: centre and rim point). */
function fenceShapeOf(row: { id: string; type: number; points_json: string }): FenceShape | null {
  const points = JSON.parse(row.points_json) as DrawPoint[]
  if (row.type === 1 && points.length === 2) {
    const [center, rim] = points as [DrawPoint, DrawPoint]
    return { id: row.id, kind: 'circle', center, radiusMeters: geodesicDistanceMeters(center, rim) }
  }
  if (row.type === 4) return { id: row.id, kind: 'polygon', ring: points }
  return null
}

/** Epoch milliseconds of a report's `ts` (number or ISO text). */
function reportTimeMs(report: PositionReport, nowMs: number): number {
  if (report.ts === undefined) return nowMs
  return typeof report.ts === 'number' ? report.ts : Date.parse(report.ts)
}

/**
 * Builds the service. SQL for the tracking tables lives here only. Fences are drawn areas, so
 * they belong to city projects (`access`); location POIs are positioned objects of any project,
 * a building's as well as a city's (`projectAccess`). `categories` answers the category tree an
 * owner sees (a location POI's category must be a location node of it); `live` carries
 * positions, fence events and fence changes to the project's open editors, always after their
 * transaction committed.
 */
export function createTrackingService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: CityAccess
  projectAccess: ProjectAccess
  categories: { treeOf(ownerId: string): Promise<CategoryTree> }
  live?: LiveHub
}): TrackingService {
  const { database, clock, access, projectAccess, categories, live } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())
  /**
   * Which fences contain a position, answered in a worker thread over each project's fence
   * index, built there on first use after a change from the fences read here.
   */
  const fenceChecker = createFenceChecker({
    loadShapes: async (projectId) => {
      const rows = await db
        .selectFrom('fences')
        .innerJoin('area_draws', 'area_draws.id', 'fences.draw_id')
        .select(['area_draws.id', 'area_draws.type', 'area_draws.points_json'])
        .where('fences.project_id', '=', projectId)
        .orderBy('fences.created_at')
        .orderBy('fences.draw_id')
        .execute()
      return rows.map(fenceShapeOf).filter((shape) => shape !== null)
    },
  })

  const publish = (projectId: string, event: LiveEvent) => {
    if (live?.isWatched(projectId)) live.publish(projectId, event)
  }
  const publishFences = async (projectId: string) => {
    if (!live?.isWatched(projectId)) return
    const rows = await db
      .selectFrom('fences')
      .select('draw_id')
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('draw_id')
      .execute()
    publish(projectId, { type: 'fences', draw_ids: rows.map((row) => row.draw_id) })
  }

  const objectOf = (row: ObjectRow): TrackedObject => ({
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    category: row.category,
    category_id: row.category_id,
    coding: row.coding,
    last_position:
      row.last_lng === null || row.last_lat === null || row.last_at === null
        ? null
        : { lng: row.last_lng, lat: row.last_lat, heading: row.last_heading, at: row.last_at },
    inside_fence_ids: JSON.parse(row.inside_json) as string[],
    created_at: row.created_at,
  })
  const findObject = (id: string) =>
    db.selectFrom('tracked_objects').selectAll().where('id', '=', id).executeTakeFirst()
  const removeObjectRows = async (handle: Database, ids: string[]) => {
    if (ids.length === 0) return
    await handle.deleteFrom('track_positions').where('object_id', 'in', ids).execute()
    await handle.deleteFrom('fence_events').where('object_id', 'in', ids).execute()
    await handle.deleteFrom('tracked_objects').where('id', 'in', ids).execute()
  }

  return {
    async setFence(user, drawId, isFence) {
      const drawing = await db
        .selectFrom('area_draws')
        .select(['id', 'project_id', 'type', 'kind'])
        .where('id', '=', drawId)
        .executeTakeFirst()
      if (!drawing) throw new AppError('notFound', 'draw.notFound')
      await access.requireEditable(user, drawing.project_id)
      if (isFence && !(drawing.kind === 'area' && (drawing.type === 1 || drawing.type === 4)))
        throw new AppError('validation', 'tracking.fenceType')
      await db.deleteFrom('fences').where('draw_id', '=', drawId).execute()
      if (isFence)
        await db
          .insertInto('fences')
          .values({ draw_id: drawId, project_id: drawing.project_id, created_at: now() })
          .execute()
      fenceChecker.forget(drawing.project_id)
      await publishFences(drawing.project_id)
    },
    async fences(caller, projectId) {
      const project = (await access.resolveReadable(caller, projectId)).record.id
      return db
        .selectFrom('fences')
        .selectAll()
        .where('project_id', '=', project)
        .orderBy('created_at')
        .orderBy('draw_id')
        .execute()
    },
    async events(caller, projectId, limit) {
      const project = (await access.resolveReadable(caller, projectId)).record.id
      const rows = await db
        .selectFrom('fence_events')
        .selectAll()
        .where('project_id', '=', project)
        .orderBy('at', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((row) => ({
        id: row.id,
        project_id: row.project_id,
        fence_id: row.fence_id,
        object_id: row.object_id,
        kind: row.kind as 'enter' | 'leave',
        lng: row.lng,
        lat: row.lat,
        at: row.at,
      }))
    },
    async addObject(user, input) {
      const project = await projectAccess.requireEditable(user, input.project_id)
      let category = input.category
      if (input.category_id !== '') {
        // the caller's own location categories and the shared ones
        const node = (await categories.treeOf(user.id)).byId.get(input.category_id)
        if (node?.kind !== 'location')
          throw new AppError('validation', 'tracking.categoryNotLocation')
        if (category === '') category = node.category_name
      }
      const token = createToken()
      const row: ObjectRow = {
        id: randomUUID(),
        project_id: project.id,
        name: input.name,
        category,
        category_id: input.category_id,
        coding: input.coding,
        token_hash: hashToken(token),
        last_lng: null,
        last_lat: null,
        last_heading: null,
        last_at: null,
        inside_json: '[]',
        created_at: now(),
      }
      await db.transaction().execute(async (transaction) => {
        if (input.coding !== '') {
          // the lock keeps two adds of one coding from both passing the check
          await projectAccess.lockEditable(transaction, user, project.id)
          const taken = await transaction
            .selectFrom('tracked_objects')
            .select('id')
            .where('project_id', '=', project.id)
            .where('coding', '=', input.coding)
            .executeTakeFirst()
          if (taken)
            throw new AppError('conflict', 'tracking.codingTaken', { coding: input.coding })
        }
        await transaction.insertInto('tracked_objects').values(row).execute()
      })
      const object = objectOf(row)
      publish(project.id, { type: 'positioned', object })
      return { object, token }
    },
    async removeObject(user, id) {
      const row = await findObject(id)
      if (!row) throw new AppError('notFound', 'tracking.objectNotFound')
      await projectAccess.requireEditable(user, row.project_id)
      await db.transaction().execute((transaction) => removeObjectRows(transaction, [id]))
      publish(row.project_id, { type: 'positionedDeleted', id })
    },
    async objects(caller, projectId, filter = {}) {
      const project = (await access.resolveReadable(caller, projectId)).record
      let query = db.selectFrom('tracked_objects').selectAll().where('project_id', '=', project.id)
      if (filter.coding !== undefined) query = query.where('coding', '=', filter.coding)
      if (filter.category_id !== undefined) {
        // the category and every one below it, in the tree the project's owner sees
        const tree = await categories.treeOf(project.owner_id)
        query = query.where('category_id', 'in', tree.subtreeIds(filter.category_id))
      }
      const rows = await query.orderBy('created_at').orderBy('id').execute()
      return rows.map(objectOf)
    },
    async track(caller, id, range) {
      const row = await findObject(id)
      if (!row) throw new AppError('notFound', 'tracking.objectNotFound')
      await access.resolveReadable(caller, row.project_id)
      let query = db
        .selectFrom('track_positions')
        .select(['lng', 'lat', 'heading', 'at'])
        .where('object_id', '=', id)
      if (range.from !== undefined) query = query.where('at', '>=', range.from)
      if (range.to !== undefined) query = query.where('at', '<=', range.to)
      // the newest positions of the range, answered oldest first (a timeline plays forwards)
      const rows = await query.orderBy('at', 'desc').limit(trackMaxPositions).execute()
      return rows.reverse()
    },
    async report(token, body) {
      const row = isWellFormedToken(token)
        ? await db
            .selectFrom('tracked_objects')
            .selectAll()
            .where('token_hash', '=', hashToken(token))
            .executeTakeFirst()
        : undefined
      if (!row) throw new AppError('badCredentials', 'tracking.unknownToken')
      const parsed = positionReportSchema.safeParse(body)
      if (!parsed.success) throw new AppError('validation', 'tracking.badReport')
      const report = parsed.data
      const nowMs = clock.nowMs()
      const atMs = reportTimeMs(report, nowMs)
      if (!Number.isFinite(atMs)) throw new AppError('validation', 'tracking.badReport')
      if (atMs > nowMs + positionFutureToleranceMs)
        throw new AppError('validation', 'tracking.futureTimestamp', {
          seconds: Math.round((atMs - nowMs) / 1000),
        })
      const at = timestampOf(atMs)
      const heading = report.heading ?? null
      const position = { id: randomUUID(), object_id: row.id, lng: report.lng, lat: report.lat }
      // A late report (older than the last one) joins the history only: the object's place
      // and its fences are those of its newest position.
      const isNewest = row.last_at === null || at >= row.last_at
      const before = JSON.parse(row.inside_json) as string[]
      const after = isNewest
        ? await fenceChecker.containing(row.project_id, [report.lng, report.lat])
        : before
      const crossings = fenceCrossings(before, after)
      const createdAt = now()
      const events: FenceEvent[] = crossings.map((crossing) => ({
        id: randomUUID(),
        project_id: row.project_id,
        fence_id: crossing.fenceId,
        object_id: row.id,
        kind: crossing.kind,
        lng: report.lng,
        lat: report.lat,
        at,
      }))
      await db.transaction().execute(async (transaction) => {
        await transaction
          .insertInto('track_positions')
          .values({ ...position, heading, at })
          .execute()
        if (!isNewest) return
        await transaction
          .updateTable('tracked_objects')
          .set({
            last_lng: report.lng,
            last_lat: report.lat,
            last_heading: heading,
            last_at: at,
            inside_json: JSON.stringify(after),
          })
          .where('id', '=', row.id)
          .execute()
        for (const event of events)
          await transaction
            .insertInto('fence_events')
            .values({ ...event, created_at: createdAt })
            .execute()
      })
      if (isNewest) {
        publish(row.project_id, {
          type: 'positioned',
          object: objectOf({
            ...row,
            last_lng: report.lng,
            last_lat: report.lat,
            last_heading: heading,
            last_at: at,
            inside_json: JSON.stringify(after),
          }),
        })
        for (const event of events) publish(row.project_id, { type: 'fenceEvent', event })
      }
      return {
        events: crossings.map((crossing) => ({ fence_id: crossing.fenceId, kind: crossing.kind })),
      }
    },
    async drawingChanged(projectId, drawId, isDeleted) {
      fenceChecker.forget(projectId)
      if (!isDeleted) return
      const removed = await db.deleteFrom('fences').where('draw_id', '=', drawId).executeTakeFirst()
      if (removed.numDeletedRows > 0n) await publishFences(projectId)
    },
    lifecycleHook: {
      // Fences go along with their drawings' copies? The drawings get new ids in a copy and
      // tokens are secrets, so a copied project starts without fences and tracked objects.
      async onCopy() {},
      async onDelete(transaction, projectId) {
        const ids = (
          await transaction
            .selectFrom('tracked_objects')
            .select('id')
            .where('project_id', '=', projectId)
            .execute()
        ).map((row) => row.id)
        await removeObjectRows(transaction, ids)
        await transaction.deleteFrom('fence_events').where('project_id', '=', projectId).execute()
        await transaction.deleteFrom('fences').where('project_id', '=', projectId).execute()
        fenceChecker.forget(projectId)
      },
    },
    close: () => fenceChecker.close(),
  }
}
