import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import {
  type addEventLinkBodySchema,
  type EventLink,
  type EventLinkKind,
  type EventLinkTargetKind,
  eventLinkMaxDepth,
  eventLinkMaxPerSource,
  type findEventLinksBodySchema,
} from '../../../contract/event-links'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'

type AddInput = z.output<typeof addEventLinkBodySchema>
type FindInput = z.output<typeof findEventLinksBodySchema>

/**
 * Event linkage (contract/event-links.ts): editors link a source POI's event to target POIs
 * and areas; whoever may read the project reads the links, and the editors react to them when
 * the event fires. Links to a POI or area that is gone are not answered (they are kept until
 * the project goes, which is harmless: ids are never reused).
 */
export interface EventLinksService {
  add(user: AuthUser, input: AddInput): Promise<EventLink>
  remove(user: AuthUser, id: string): Promise<{ deleted: number }>
  find(caller: ProjectCaller, input: FindInput): Promise<EventLink[]>
  findAll(caller: ProjectCaller, projectId: string): Promise<EventLink[]>
  /** Links are deleted with their project (a copy's POIs have new ids: links stay behind). */
  lifecycleHook: ProjectLifecycleHook
}

interface LinkRow {
  id: string
  project_id: string
  source_poi_id: string
  event: string
  target_kind: string
  target_id: string
  created_at: string
}

/** Builds the service. */
export function createEventLinksService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}): EventLinksService {
  const { database, clock, access } = dependencies
  const { db } = database

  const sourcePoi = async (id: string) => {
    const poi = await db
      .selectFrom('pois')
      .select(['id', 'project_id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst()
    if (!poi) throw fieldError('notFound', 'source', 'poi.notFound')
    return poi
  }

  /** Answers the rows as records with names; rows whose POI or area is gone are left out. */
  const recordsOf = async (rows: LinkRow[]): Promise<EventLink[]> => {
    if (rows.length === 0) return []
    const poiIds = [
      ...new Set([
        ...rows.map((row) => row.source_poi_id),
        ...rows.filter((row) => row.target_kind === 'poi').map((row) => row.target_id),
      ]),
    ]
    const areaIds = [
      ...new Set(rows.filter((row) => row.target_kind === 'area').map((row) => row.target_id)),
    ]
    const poiNames = new Map<string, string>()
    const areaNames = new Map<string, string>()
    for (let start = 0; start < poiIds.length; start += 500) {
      const found = await db
        .selectFrom('pois')
        .select(['id', 'name'])
        .where('id', 'in', poiIds.slice(start, start + 500))
        .execute()
      for (const poi of found) poiNames.set(poi.id, poi.name)
    }
    for (let start = 0; start < areaIds.length; start += 500) {
      const found = await db
        .selectFrom('area_draws')
        .select(['id', 'name'])
        .where('id', 'in', areaIds.slice(start, start + 500))
        .execute()
      for (const area of found) areaNames.set(area.id, area.name)
    }
    const records: EventLink[] = []
    for (const row of rows) {
      const sourceName = poiNames.get(row.source_poi_id)
      const targetName = (row.target_kind === 'poi' ? poiNames : areaNames).get(row.target_id)
      if (sourceName === undefined || targetName === undefined) continue
      records.push({
        id: row.id,
        projectid: row.project_id,
        source: row.source_poi_id,
        source_name: sourceName,
        event: row.event as EventLinkKind,
        target_kind: row.target_kind as EventLinkTargetKind,
        target: row.target_id,
        target_name: targetName,
        created_at: row.created_at,
      })
    }
    return records
  }

  return {
    async add(user, input) {
      const source = await sourcePoi(input.source)
      try {
        await access.requireEditable(user, source.project_id)
      } catch (error) {
        if (error instanceof AppError) throw fieldError('notFound', 'source', 'poi.notFound')
        throw error
      }
      if (input.target_kind === 'poi' && input.target === source.id) {
        throw fieldError('validation', 'target', 'poi.parentCycle')
      }
      const id = randomUUID()
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, source.project_id)
        await requireTarget(transaction, source.project_id, input.target_kind, input.target)
        const links = await transaction
          .selectFrom('event_links')
          .select(['source_poi_id', 'event', 'target_kind', 'target_id'])
          .where('project_id', '=', source.project_id)
          .execute()
        const duplicate = links.some(
          (link) =>
            link.source_poi_id === source.id &&
            link.event === input.event &&
            link.target_kind === input.target_kind &&
            link.target_id === input.target,
        )
        if (duplicate) throw fieldError('conflict', 'target', 'poi.alreadyLinked')
        const ofSource = links.filter((link) => link.source_poi_id === source.id).length
        if (ofSource >= eventLinkMaxPerSource) {
          throw fieldError('validation', 'source', 'eventLink.tooMany', {
            maximum: eventLinkMaxPerSource,
          })
        }
        checkChain(links, source.id, input.target_kind, input.target)
        await transaction
          .insertInto('event_links')
          .values({
            id,
            project_id: source.project_id,
            source_poi_id: source.id,
            event: input.event,
            target_kind: input.target_kind,
            target_id: input.target,
            created_at: timestampOf(clock.nowMs()),
          })
          .execute()
      })
      const row = await db
        .selectFrom('event_links')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      const [record] = await recordsOf([row])
      if (!record) throw new AppError('conflict', 'error.conflict')
      return record
    },

    async remove(user, id) {
      const row = await db
        .selectFrom('event_links')
        .select(['id', 'project_id'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'eventLink.notFound')
      try {
        await access.requireEditable(user, row.project_id)
      } catch (error) {
        if (error instanceof AppError) throw new AppError('notFound', 'eventLink.notFound')
        throw error
      }
      const deleted = await db.deleteFrom('event_links').where('id', '=', id).executeTakeFirst()
      return { deleted: Number(deleted.numDeletedRows) }
    },

    async find(caller, input) {
      const source = await sourcePoi(input.source)
      try {
        await access.requireReadable(caller, source.project_id)
      } catch (error) {
        if (error instanceof AppError) throw fieldError('notFound', 'source', 'poi.notFound')
        throw error
      }
      let query = db.selectFrom('event_links').selectAll().where('source_poi_id', '=', source.id)
      if (input.event !== undefined) query = query.where('event', '=', input.event)
      return recordsOf(await query.orderBy('created_at').orderBy('id').execute())
    },

    async findAll(caller, projectId) {
      await access.requireReadable(caller, projectId)
      const rows = await db
        .selectFrom('event_links')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      return recordsOf(rows)
    },

    lifecycleHook: {
      async onDelete(transaction, projectId) {
        await transaction.deleteFrom('event_links').where('project_id', '=', projectId).execute()
      },
    },
  }
}

/** The target must be a POI, or a drawn area, of the same project. */
async function requireTarget(
  transaction: Database,
  projectId: string,
  kind: EventLinkTargetKind,
  id: string,
): Promise<void> {
  const found =
    kind === 'poi'
      ? await transaction
          .selectFrom('pois')
          .select('id')
          .where('id', '=', id)
          .where('project_id', '=', projectId)
          .executeTakeFirst()
      : await transaction
          .selectFrom('area_draws')
          .select('id')
          .where('id', '=', id)
          .where('project_id', '=', projectId)
          .where('kind', '=', 'area')
          .executeTakeFirst()
  if (!found) throw fieldError('notFound', 'target', 'eventLink.targetNotFound')
}

/**
 * Refuses a POI → POI link that closes a cycle ('Unable to link parent POI.': the target already
 * reaches the source) or makes a chain deeper than {@link eventLinkMaxDepth} POIs. An area is a
 * leaf: it adds one level below the source's chain.
 */
function checkChain(
  links: readonly { source_poi_id: string; target_kind: string; target_id: string }[],
  sourceId: string,
  targetKind: EventLinkTargetKind,
  targetId: string,
): void {
  const next = new Map<string, Set<string>>()
  const previous = new Map<string, Set<string>>()
  for (const link of links) {
    if (link.target_kind !== 'poi') continue
    if (!next.has(link.source_poi_id)) next.set(link.source_poi_id, new Set())
    next.get(link.source_poi_id)?.add(link.target_id)
    if (!previous.has(link.target_id)) previous.set(link.target_id, new Set())
    previous.get(link.target_id)?.add(link.source_poi_id)
  }
  // the stored graph has no cycles (each link was checked), so these walks end
  const longest = (start: string, edges: Map<string, Set<string>>): number => {
    const memo = new Map<string, number>()
    const walk = (node: string): number => {
      const known = memo.get(node)
      if (known !== undefined) return known
      let depth = 1
      for (const other of edges.get(node) ?? []) depth = Math.max(depth, 1 + walk(other))
      memo.set(node, depth)
      return depth
    }
    return walk(start)
  }
  const above = longest(sourceId, previous)
  if (targetKind === 'area') {
    if (above + 1 > eventLinkMaxDepth + 1) {
      throw fieldError('validation', 'target', 'eventLink.tooDeep', { maximum: eventLinkMaxDepth })
    }
    return
  }
  const reaches = (from: string): boolean => {
    const seen = new Set<string>()
    const stack = [from]
    while (stack.length > 0) {
      const node = stack.pop() as string
      if (node === sourceId) return true
      if (seen.has(node)) continue
      seen.add(node)
      stack.push(...(next.get(node) ?? []))
    }
    return false
  }
  if (reaches(targetId)) throw fieldError('validation', 'target', 'poi.parentCycle')
  if (above + longest(targetId, next) > eventLinkMaxDepth) {
    throw fieldError('validation', 'target', 'eventLink.tooDeep', { maximum: eventLinkMaxDepth })
  }
}
