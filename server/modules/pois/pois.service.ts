import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type {
  CreatedPoisDatum,
  createPoiBodySchema,
  findPoiBodySchema,
  findPoiQuerySchema,
  ModelPoiItem,
  PoiCustom,
  PoiDetail,
  PoiModel,
  PoiPage,
  ProjectPoisDatum,
} from '../../../contract/pois'
import { AppError, fieldErrorOf } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'
import type { PoiProblem } from './poi-checks'
import { recountProject } from './poi-counts'
import { nextPoiId } from './poi-ids'
import { findPoiPage, projectPoiColumns } from './poi-queries'
import { chunksOf, customsOf, idChunkSize, modelLinksOf, recordsOf } from './poi-records'
import { insertNameGrams } from './poi-search'
import {
  type CreateItem,
  createPois,
  deletePois,
  lockPois,
  lockProject,
  PoiProblems,
  type UpdateItem,
  updatePois,
} from './poi-writes'

type CreateBody = z.output<typeof createPoiBodySchema>
type FindBody = z.output<typeof findPoiBodySchema>
type FindQuery = z.output<typeof findPoiQuerySchema>

/**
 * POIs (issue 16, contract/pois.ts). Project access goes through the one project-access module:
 * reads for whoever may read the project (owner, admin, project cases, project-token holders),
 * writes for whoever may change it (owner, admin). A POI of a project the caller may not read
 * or change is as unknown as a made-up id. Every write is one transaction: lists are all or
 * nothing.
 */
export interface PoisService {
  create(user: AuthUser, body: CreateBody): Promise<PoiDetail>
  createList(
    user: AuthUser,
    projectId: string,
    items: readonly CreateItem[],
    options: { isCopyProperties: boolean },
  ): Promise<CreatedPoisDatum>
  update(user: AuthUser, item: UpdateItem): Promise<PoiDetail>
  updateList(user: AuthUser, items: readonly UpdateItem[]): Promise<{ count: number }>
  remove(user: AuthUser, id: string): Promise<{ deleted: number }>
  removeList(user: AuthUser, ids: readonly string[]): Promise<{ count: number }>
  /** Links POIs to a model of their project; a link that exists refuses the call. */
  linkToModel(
    user: AuthUser,
    modelId: string,
    poiIds: readonly string[],
  ): Promise<{ count: number }>
  detail(caller: ProjectCaller, id: string): Promise<PoiDetail>
  customs(caller: ProjectCaller, id: string): Promise<PoiCustom[]>
  page(caller: ProjectCaller, body: FindBody, query: FindQuery): Promise<PoiPage>
  projectColumns(caller: ProjectCaller, projectId: string): Promise<ProjectPoisDatum>
  modelIds(caller: ProjectCaller, id: string): Promise<{ poi_id: string; modelList: string[] }>
  modelsOf(caller: ProjectCaller, id: string): Promise<PoiModel[]>
  poisOfModel(caller: ProjectCaller, modelId: string): Promise<ModelPoiItem[]>
  /** Copies a project's POIs with it (parents, floors and model links point at the copies). */
  lifecycleHook: ProjectLifecycleHook
}

/** The field a problem names, as the call sent it. */
export type ProblemField = (problem: PoiProblem) => string

/** Turns refused checks into the answer: the first problem, its field as the call named it. */
export async function withProblemsAs<Result>(
  fieldOf: ProblemField,
  work: () => Promise<Result>,
): Promise<Result> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof PoiProblems) {
      const first = error.problems[0]!
      throw fieldErrorOf('validation', fieldOf(first), first.message)
    }
    throw error
  }
}

const single: ProblemField = (problem) => problem.field
const inList: ProblemField = (problem) => `list.${problem.index}.${problem.field}`

/** Builds the service. */
export function createPoisService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}): PoisService {
  const { database, access } = dependencies
  const { db } = database
  const now = () => timestampOf(dependencies.clock.nowMs())
  const notFound = () => new AppError('notFound', 'poi.notFound')
  const notYours = () => new AppError('notFound', 'poi.notYours')

  /** The POI row if the caller may read its project. */
  const readablePoi = async (caller: ProjectCaller, id: string) => {
    const row = await db.selectFrom('pois').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw notFound()
    try {
      await access.requireReadable(caller, row.project_id)
    } catch (error) {
      if (error instanceof AppError && error.kind !== 'sessionTimeout') throw notFound()
      throw error
    }
    return row
  }

  const detailOf = async (handle: Database, id: string): Promise<PoiDetail> => {
    const row = await handle.selectFrom('pois').selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw notFound()
    const [record] = await recordsOf(handle, [row])
    return { ...record!, customs: await customsOf(handle, id) }
  }

  const modelRows = async (handle: Database, projectId: string, modelIds: readonly string[]) => {
    if (modelIds.length === 0) return []
    const building = await handle
      .selectFrom('building_models')
      .select(['id', 'name as modelname'])
      .where('project_id', '=', projectId)
      .where('id', 'in', [...modelIds])
      .execute()
    const monomers = await handle
      .selectFrom('gis_models')
      .select(['id', 'modelname'])
      .where('project_id', '=', projectId)
      .where('id', 'in', [...modelIds])
      .execute()
    return [
      ...building.map((row) => ({ ...row, kind: 'building' as const })),
      ...monomers.map((row) => ({ ...row, kind: 'monomer' as const })),
    ]
  }

  return {
    async create(user, body) {
      const { projectid, ...item } = body
      return withProblemsAs(single, () =>
        db.transaction().execute(async (transaction) => {
          const project = await lockProject(transaction, access, user, projectid)
          const created = await createPois(transaction, user, project, [item], {
            nowIso: now(),
            isCopyProperties: false,
          })
          return detailOf(transaction, created.list[0]!.id)
        }),
      )
    },

    async createList(user, projectId, items, options) {
      return withProblemsAs(inList, () =>
        db.transaction().execute(async (transaction) => {
          const project = await lockProject(transaction, access, user, projectId)
          return createPois(transaction, user, project, items, { nowIso: now(), ...options })
        }),
      )
    },

    async update(user, item) {
      return withProblemsAs(single, () =>
        db.transaction().execute(async (transaction) => {
          const locked = await lockPois(transaction, access, user, [item.id], notFound)
          await updatePois(transaction, user, locked, [item], now())
          return detailOf(transaction, item.id)
        }),
      )
    },

    async updateList(user, items) {
      return withProblemsAs(inList, () =>
        db.transaction().execute(async (transaction) => {
          const locked = await lockPois(
            transaction,
            access,
            user,
            items.map((item) => item.id),
            notYours,
          )
          await updatePois(transaction, user, locked, items, now())
          return { count: locked.rows.size }
        }),
      )
    },

    async remove(user, id) {
      return db.transaction().execute(async (transaction) => {
        const locked = await lockPois(transaction, access, user, [id], notFound)
        return { deleted: await deletePois(transaction, locked.rows, now()) }
      })
    },

    async removeList(user, ids) {
      return db.transaction().execute(async (transaction) => {
        const locked = await lockPois(transaction, access, user, ids, notYours)
        return { count: await deletePois(transaction, locked.rows, now()) }
      })
    },

    async linkToModel(user, modelId, poiIds) {
      return db.transaction().execute(async (transaction) => {
        const locked = await lockPois(transaction, access, user, poiIds, notYours)
        const projectIds = [...locked.projects.keys()]
        if (projectIds.length !== 1) {
          throw fieldErrorOf('validation', 'model_id', { id: 'poi.modelNotFound', params: {} })
        }
        const projectId = projectIds[0]!
        if ((await modelRows(transaction, projectId, [modelId])).length === 0) {
          throw fieldErrorOf('validation', 'model_id', { id: 'poi.modelNotFound', params: {} })
        }
        const ids = [...new Set(poiIds)]
        for (const chunk of chunksOf(ids, idChunkSize)) {
          const existing = await transaction
            .selectFrom('poi_model_links')
            .select('poi_id')
            .where('model_id', '=', modelId)
            .where('poi_id', 'in', chunk)
            .executeTakeFirst()
          if (existing) throw new AppError('conflict', 'poi.alreadyLinked')
        }
        const createdAt = now()
        for (const chunk of chunksOf(ids, 1_000)) {
          await transaction
            .insertInto('poi_model_links')
            .values(
              chunk.map((poiId) => ({
                poi_id: poiId,
                model_id: modelId,
                project_id: projectId,
                created_at: createdAt,
              })),
            )
            .execute()
        }
        return { count: ids.length }
      })
    },

    async detail(caller, id) {
      await readablePoi(caller, id)
      return detailOf(db, id)
    },

    async customs(caller, id) {
      await readablePoi(caller, id)
      return customsOf(db, id)
    },

    async page(caller, body, query) {
      await access.requireReadable(caller, body.projectid)
      return findPoiPage(db, database.dialect, body.projectid, body, query)
    },

    async projectColumns(caller, projectId) {
      await access.requireReadable(caller, projectId)
      return projectPoiColumns(db, projectId)
    },

    async modelIds(caller, id) {
      await readablePoi(caller, id)
      return { poi_id: id, modelList: (await modelLinksOf(db, [id])).get(id) ?? [] }
    },

    async modelsOf(caller, id) {
      const row = await readablePoi(caller, id)
      const ids = (await modelLinksOf(db, [id])).get(id) ?? []
      const models = await modelRows(db, row.project_id, ids)
      const order = new Map(ids.map((modelId, index) => [modelId, index]))
      return models.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    },

    async poisOfModel(caller, modelId) {
      const link = await db
        .selectFrom('poi_model_links')
        .select('project_id')
        .where('model_id', '=', modelId)
        .executeTakeFirst()
      if (!link) {
        // a model without POIs answers none, once it is known to be a readable project's
        const model =
          (await db
            .selectFrom('building_models')
            .select('project_id')
            .where('id', '=', modelId)
            .executeTakeFirst()) ??
          (await db
            .selectFrom('gis_models')
            .select('project_id')
            .where('id', '=', modelId)
            .executeTakeFirst())
        if (!model) throw new AppError('notFound', 'poi.modelNotFound')
        await access.requireReadable(caller, model.project_id)
        return []
      }
      await access.requireReadable(caller, link.project_id)
      const rows = await db
        .selectFrom('pois')
        .selectAll()
        .where('id', 'in', (eb) =>
          eb.selectFrom('poi_model_links').select('poi_id').where('model_id', '=', modelId),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      return (await recordsOf(db, rows)).map((record) => ({
        ...record,
        icon_path: record.iconpath,
      }))
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        await copyProjectPois(transaction, fromProjectId, toProjectId)
        await recountProject(transaction, toProjectId)
      },
      async onDelete(transaction, projectId) {
        await transaction
          .deleteFrom('poi_custom_properties')
          .where('poi_id', 'in', (eb) =>
            eb.selectFrom('pois').select('id').where('project_id', '=', projectId),
          )
          .execute()
        await transaction
          .deleteFrom('poi_model_links')
          .where('project_id', '=', projectId)
          .execute()
        await transaction.deleteFrom('poi_name_grams').where('project_id', '=', projectId).execute()
        await transaction.deleteFrom('poi_counts').where('project_id', '=', projectId).execute()
        await transaction.deleteFrom('pois').where('project_id', '=', projectId).execute()
      },
    },
  }
}

/**
 * Copies a project's POIs into its copy (after the building and city hooks copied floors and
 * models): new ids, parents pointing at the copied parents, floors and model links at the
 * copied floors and models (matched by their place in the same order, as the copies were made
 * in it), custom properties and name grams along.
 */
async function copyProjectPois(
  transaction: Database,
  fromProjectId: string,
  toProjectId: string,
): Promise<void> {
  const pois = await transaction
    .selectFrom('pois')
    .selectAll()
    .where('project_id', '=', fromProjectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  if (pois.length === 0) return
  const floorIds = await pairedIds(transaction, 'building_floors', fromProjectId, toProjectId)
  const buildingModelIds = await pairedIds(
    transaction,
    'building_models',
    fromProjectId,
    toProjectId,
  )
  const monomerIds = await pairedIds(transaction, 'gis_models', fromProjectId, toProjectId)
  const poiIds = new Map(pois.map((poi) => [poi.id, nextPoiId()]))
  const copies = pois.map((poi) => ({
    ...poi,
    id: poiIds.get(poi.id)!,
    project_id: toProjectId,
    pid: poiIds.get(poi.pid) ?? '',
    floor_id: floorIds.get(poi.floor_id) ?? '',
  }))
  for (const chunk of chunksOf(copies, 200)) {
    await transaction.insertInto('pois').values(chunk).execute()
  }
  for (const chunk of chunksOf(pois, idChunkSize)) {
    const ids = chunk.map((poi) => poi.id)
    const customs = await transaction
      .selectFrom('poi_custom_properties')
      .selectAll()
      .where('poi_id', 'in', ids)
      .execute()
    for (const rows of chunksOf(customs, 1_000)) {
      await transaction
        .insertInto('poi_custom_properties')
        .values(rows.map((row) => ({ ...row, id: randomUUID(), poi_id: poiIds.get(row.poi_id)! })))
        .execute()
    }
    const links = await transaction
      .selectFrom('poi_model_links')
      .selectAll()
      .where('poi_id', 'in', ids)
      .execute()
    const copiedLinks = links.flatMap((link) => {
      const modelId = buildingModelIds.get(link.model_id) ?? monomerIds.get(link.model_id)
      return modelId === undefined
        ? []
        : [
            {
              ...link,
              poi_id: poiIds.get(link.poi_id)!,
              model_id: modelId,
              project_id: toProjectId,
            },
          ]
    })
    for (const rows of chunksOf(copiedLinks, 1_000)) {
      await transaction.insertInto('poi_model_links').values(rows).execute()
    }
  }
  await insertNameGrams(
    transaction,
    copies.map((copy) => ({ id: copy.id, project_id: toProjectId, name: copy.name })),
  )
}

/**
 * Source id → copy id of a project's floors or models, paired by what the copy keeps of them
 * (names, order, file): the other areas' copy hooks make new ids and do not say which is which.
 */
async function pairedIds(
  transaction: Database,
  table: 'building_floors' | 'building_models' | 'gis_models',
  fromProjectId: string,
  toProjectId: string,
): Promise<Map<string, string>> {
  const keysOf = async (projectId: string): Promise<Array<{ id: string; key: string }>> => {
    if (table === 'building_floors') {
      const rows = await transaction
        .selectFrom('building_floors')
        .select(['id', 'name', 'sort_order', 'elevation'])
        .where('project_id', '=', projectId)
        .execute()
      return rows.map((row) => ({
        id: row.id,
        key: JSON.stringify([row.name, Number(row.sort_order), Number(row.elevation)]),
      }))
    }
    if (table === 'building_models') {
      const rows = await transaction
        .selectFrom('building_models')
        .select(['id', 'name', 'file_name', 'role', 'sha256'])
        .where('project_id', '=', projectId)
        .execute()
      return rows.map((row) => ({
        id: row.id,
        key: JSON.stringify([row.name, row.file_name, row.role, row.sha256]),
      }))
    }
    const rows = await transaction
      .selectFrom('gis_models')
      .select(['id', 'modelname', 'feature_ids_json'])
      .where('project_id', '=', projectId)
      .execute()
    return rows.map((row) => ({
      id: row.id,
      key: JSON.stringify([row.modelname, row.feature_ids_json]),
    }))
  }
  const copies = new Map<string, string[]>()
  for (const row of await keysOf(toProjectId)) {
    copies.set(row.key, [...(copies.get(row.key) ?? []), row.id])
  }
  const pairs = new Map<string, string>()
  for (const row of await keysOf(fromProjectId)) {
    const copy = copies.get(row.key)?.shift()
    if (copy !== undefined) pairs.set(row.id, copy)
  }
  return pairs
}
