import { randomUUID } from 'node:crypto'
import type { Insertable } from 'kysely'
import type {
  CreatePoiListItem,
  CreatedPoisDatum,
  PoiCustomInput,
  UpdatePoiBody,
} from '../../../contract/pois'
import type { z } from 'zod'
import type {
  createPoiListItemSchema,
  poiCustomInputSchema,
  updatePoiBodySchema,
} from '../../../contract/pois'
import { AppError } from '../../http/app-error'
import type { PoisTable } from '../../migrations/0011-pois'
import type { Database } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import {
  devicecodeProblems,
  draftProblems,
  loadProjectContext,
  type PoiDraft,
  type PoiProblem,
  type PoiProjectContext,
  parentProblems,
} from './poi-checks'
import {
  createEventLoopSlices,
  type EventLoopSlices,
  flatMapInSlices,
  mapInSlices,
} from '../jobs/event-loop-slices'
import { CountChanges } from './poi-counts'
import { cartesianOf } from './poi-geometry'
import { nextPoiId } from './poi-ids'
import { chunksOf, idChunkSize, type PoiRow, poiRecordOf } from './poi-records'
import { insertNameGrams, replaceNameGrams } from './poi-search'

/**
 * The writes of POIs, each inside the caller's transaction: all checks first (the whole list),
 * then the rows, their custom properties, model links and name grams in chunks. Shared by the
 * single calls, the list calls and the batch add, so they keep one set of rules. Work per item
 * runs in slices of the event loop (../jobs/event-loop-slices.ts), so a list of thousands of
 * POIs never holds other requests for more than a few milliseconds at a time.
 */

/** A create item as the contract parses it (list item; `creatPoi` has no `source_id`). */
export type CreateItem = z.output<typeof createPoiListItemSchema>
/** An update item as the contract parses it. */
export type UpdateItem = z.output<typeof updatePoiBodySchema>
type CustomInput = z.output<typeof poiCustomInputSchema>

/** Thrown by the writes: the problems of a refused call (nothing was written). */
export class PoiProblems extends Error {
  constructor(readonly problems: PoiProblem[]) {
    super('POI problems')
  }
}

/** The project a write is about, locked for the transaction. */
export async function lockProject(
  transaction: Database,
  access: ProjectAccess,
  user: AuthUser,
  projectId: string,
): Promise<{ id: string; kind: 'city' | 'building' }> {
  await access.lockEditable(transaction, user, projectId)
  const project = await transaction
    .selectFrom('projects')
    .select(['id', 'kind'])
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow()
  return project
}

/** What {@link createPois} needs beyond the items. */
export interface CreateOptions {
  nowIso: string
  /** Copies take their source's custom property values (SPEC `isCopyProperties`). */
  isCopyProperties: boolean
  /**
   * How the work gives the event loop turns (default: slices of a few milliseconds from the
   * call on; bench/flood/flood-poi-list.ts passes endless slices for the unsliced anchor).
   */
  slices?: EventLoopSlices
}

/**
 * Creates POIs in a locked project: every item checked (template usable, coordinates of the
 * project's kind, floor, parent, models, device codes), then written; the template's static
 * attributes become each POI's custom properties (or a copy's source's, with
 * `isCopyProperties`), overridden by the item's own `customs`. Answers the records in order.
 */
export async function createPois(
  transaction: Database,
  user: AuthUser,
  project: { id: string; kind: 'city' | 'building' },
  items: readonly CreateItem[],
  options: CreateOptions,
): Promise<CreatedPoisDatum> {
  const context = await loadProjectContext(
    transaction,
    user,
    project,
    items.map((item) => item.category_id),
  )
  const slices = options.slices ?? createEventLoopSlices()
  const drafts = items.map((item, index) => ({ index, draft: item as PoiDraft }))
  const problems: PoiProblem[] = await flatMapInSlices(slices, drafts, ({ index, draft }) =>
    draftProblems(context, index, draft),
  )
  const sources = await sourceCustoms(transaction, project.id, items, problems)
  // every rule is checked, so a batch file lists all its bad cells at once
  problems.push(...(await devicecodeProblems(transaction, project.id, drafts)))
  problems.push(...(await parentProblems(transaction, project.id, drafts, new Map())))
  if (problems.length > 0) throw new PoiProblems(problems.sort((a, b) => a.index - b.index))

  const rows: Insertable<PoisTable>[] = await mapInSlices(slices, items, (item) => {
    const template = context.templates.get(item.category_id)!
    return {
      id: nextPoiId(),
      project_id: project.id,
      name: item.name,
      category_id: template.id,
      poicategory_code: template.poicategory_code,
      template_type: template.template_type,
      category_type: template.type,
      ...rowFields(item),
      ...cartesianOf(project.kind, item),
      created_at: options.nowIso,
      updated_at: options.nowIso,
    }
  })
  // statements give the event loop turns themselves (plugins/db.ts); building one is the rest
  for (const chunk of chunksOf(rows, 100)) {
    await slices.pause()
    await transaction.insertInto('pois').values(chunk).execute()
  }
  const properties = await templateProperties(transaction, context)
  const customRows = await flatMapInSlices(slices, rows, (row, index) => {
    const item = items[index]!
    const fromSource =
      options.isCopyProperties && item.source_id !== undefined
        ? sources.get(item.source_id)
        : undefined
    const base = fromSource ?? properties.get(row.category_id) ?? []
    return mergedCustoms(row.id, base, item.customs ?? [])
  })
  for (const chunk of chunksOf(customRows, 500)) {
    await slices.pause()
    await transaction.insertInto('poi_custom_properties').values(chunk).execute()
  }
  const links = await flatMapInSlices(slices, rows, (row, index) =>
    [...new Set(items[index]!.modelList)].map((modelId) => ({
      poi_id: row.id,
      model_id: modelId,
      project_id: project.id,
      created_at: options.nowIso,
    })),
  )
  for (const chunk of chunksOf(links, 1_000)) {
    await slices.pause()
    await transaction.insertInto('poi_model_links').values(chunk).execute()
  }
  await insertNameGrams(
    transaction,
    rows.map((row) => ({ id: row.id, project_id: project.id, name: row.name })),
    slices,
  )
  const counts = new CountChanges()
  for (const row of rows) counts.add(project.id, row, 1)
  await counts.write(transaction)
  return {
    count: rows.length,
    list: await mapInSlices(slices, rows, (row, index) =>
      poiRecordOf(storedRowOf(row), context.templates.get(row.category_id), [
        ...new Set(items[index]!.modelList),
      ]),
    ),
  }
}

/** The row columns an item sets beside name, template and position-derived ones. */
function rowFields(item: Partial<CreateItem>) {
  const fields: Partial<Insertable<PoisTable>> = {}
  const copy = <Key extends keyof CreateItem & keyof PoisTable>(key: Key) => {
    if (item[key] !== undefined) (fields as Record<string, unknown>)[key] = item[key]
  }
  for (const key of [
    'x',
    'y',
    'z',
    'heading',
    'pitch',
    'roll',
    'floor_id',
    'pid',
    'level',
    'state',
    'orientation',
    'pack',
    'poiid',
    'poi_style',
    'view_type',
    'devicecode',
    'distance_min',
    'distance_max',
    'event_code',
    'event_image',
    'gatecode',
  ] as const) {
    copy(key)
  }
  if (item.poiType !== undefined) fields.poi_type = item.poiType
  if (item.cameraPs !== undefined) fields.camera_ps = item.cameraPs
  if (item.cameraPss !== undefined) fields.camera_pss = item.cameraPss
  return fields
}

/** An inserted row as a stored one (every default filled). */
function storedRowOf(row: Insertable<PoisTable>): PoiRow {
  return {
    floor_id: '',
    pid: '',
    level: 0,
    state: '',
    heading: 0,
    pitch: 0,
    roll: 0,
    orientation: '',
    pack: '',
    poiid: '',
    poi_type: '',
    poi_style: '',
    view_type: '',
    camera_ps: '',
    camera_pss: '',
    x: 0,
    y: 0,
    z: 0,
    cartisian_x: 0,
    cartisian_y: 0,
    cartisian_z: 0,
    devicecode: '',
    event_code: '',
    event_image: '',
    gatecode: '',
    ...row,
    distance_min: row.distance_min ?? null,
    distance_max: row.distance_max ?? null,
  } as PoiRow
}

/** A custom property before it has a POI. */
interface CustomValue {
  property_column: string
  column_des: string
  column_value: string
}

/** The static attributes of the context's templates, as custom property values. */
async function templateProperties(
  transaction: Database,
  context: PoiProjectContext,
): Promise<Map<string, CustomValue[]>> {
  const byTemplate = new Map<string, CustomValue[]>()
  for (const chunk of chunksOf([...context.templates.keys()], idChunkSize)) {
    const rows = await transaction
      .selectFrom('poi_template_properties')
      .select(['template_id', 'property_column', 'column_des', 'column_example'])
      .where('template_id', 'in', chunk)
      .orderBy('created_at')
      .execute()
    for (const row of rows) {
      const list = byTemplate.get(row.template_id) ?? []
      list.push({
        property_column: row.property_column,
        column_des: row.column_des,
        column_value: row.column_example,
      })
      byTemplate.set(row.template_id, list)
    }
  }
  return byTemplate
}

/** The custom properties of the copies' sources; unknown sources become problems. */
async function sourceCustoms(
  transaction: Database,
  projectId: string,
  items: readonly CreateItem[],
  problems: PoiProblem[],
): Promise<Map<string, CustomValue[]>> {
  const sourceIds = [
    ...new Set(items.flatMap((item) => (item.source_id === undefined ? [] : [item.source_id]))),
  ]
  const found = new Set<string>()
  const customs = new Map<string, CustomValue[]>()
  for (const chunk of chunksOf(sourceIds, idChunkSize)) {
    const pois = await transaction
      .selectFrom('pois')
      .select('id')
      .where('project_id', '=', projectId)
      .where('id', 'in', chunk)
      .execute()
    for (const poi of pois) {
      found.add(poi.id)
      customs.set(poi.id, [])
    }
    const rows = await transaction
      .selectFrom('poi_custom_properties')
      .select(['poi_id', 'property_column', 'column_des', 'column_value'])
      .where('poi_id', 'in', chunk)
      .orderBy('property_column')
      .execute()
    for (const row of rows) {
      customs.get(row.poi_id)?.push({
        property_column: row.property_column,
        column_des: row.column_des,
        column_value: row.column_value,
      })
    }
  }
  items.forEach((item, index) => {
    if (item.source_id !== undefined && !found.has(item.source_id)) {
      problems.push({
        index,
        field: 'source_id',
        message: { id: 'poi.sourceNotFound', params: {} },
      })
    }
  })
  return customs
}

/** Base values with the item's own values laid over them (by attribute name). */
function mergedCustoms(poiId: string, base: readonly CustomValue[], own: readonly CustomInput[]) {
  const byColumn = new Map(base.map((value) => [value.property_column, { ...value }]))
  for (const value of own) {
    const existing = byColumn.get(value.property_column)
    byColumn.set(value.property_column, {
      property_column: value.property_column,
      column_des: value.column_des ?? existing?.column_des ?? value.property_column,
      column_value: value.column_value,
    })
  }
  return [...byColumn.values()].map((value) => ({ id: randomUUID(), poi_id: poiId, ...value }))
}

// ---------------------------------------------------------------------------------------------
// updates and deletes

/**
 * The stored rows of `ids`, each project locked for the caller; any id unknown or in a project
 * the caller may not change refuses the whole call with `refusal` (nothing is written).
 */
export async function lockPois(
  transaction: Database,
  access: ProjectAccess,
  user: AuthUser,
  ids: readonly string[],
  refusal: () => AppError,
): Promise<{ rows: Map<string, PoiRow>; projects: Map<string, 'city' | 'building'> }> {
  const rows = new Map<string, PoiRow>()
  for (const chunk of chunksOf([...new Set(ids)], idChunkSize)) {
    for (const row of await transaction
      .selectFrom('pois')
      .selectAll()
      .where('id', 'in', chunk)
      .execute()) {
      rows.set(row.id, row)
    }
  }
  if (rows.size !== new Set(ids).size) throw refusal()
  const projects = new Map<string, 'city' | 'building'>()
  for (const projectId of new Set([...rows.values()].map((row) => row.project_id))) {
    try {
      projects.set(projectId, (await lockProject(transaction, access, user, projectId)).kind)
    } catch (error) {
      // someone else's POI is as unknown as a made-up one
      if (error instanceof AppError && error.kind !== 'internal') throw refusal()
      throw error
    }
  }
  return { rows, projects }
}

/**
 * Applies updates to locked rows: the final state of every item is checked (per project) before
 * anything is written; same changes go out as one statement per chunk of POIs.
 */
export async function updatePois(
  transaction: Database,
  user: AuthUser,
  locked: { rows: Map<string, PoiRow>; projects: Map<string, 'city' | 'building'> },
  items: readonly UpdateItem[],
  nowIso: string,
): Promise<void> {
  const slices = createEventLoopSlices()
  // the last change of an id wins, as if the items were applied in order
  const merged = new Map<string, UpdateItem>()
  for (const item of items) merged.set(item.id, { ...merged.get(item.id), ...item })
  const entries = await mapInSlices(slices, [...merged.values()], (item, index) => {
    const row = locked.rows.get(item.id)!
    const draft: PoiDraft = {
      name: item.name ?? row.name,
      category_id: item.category_id ?? row.category_id,
      x: item.x ?? Number(row.x),
      y: item.y ?? Number(row.y),
      z: item.z ?? Number(row.z),
      floor_id: item.floor_id ?? row.floor_id,
      pid: item.pid ?? row.pid,
      devicecode: item.devicecode ?? row.devicecode,
      distance_min: item.distance_min !== undefined ? item.distance_min : row.distance_min,
      distance_max: item.distance_max !== undefined ? item.distance_max : row.distance_max,
      modelList: item.modelList ?? [],
    }
    return { index, id: item.id, item, row, draft }
  })

  const contexts = new Map<string, PoiProjectContext>()
  const problems: PoiProblem[] = []
  for (const [projectId, kind] of locked.projects) {
    const ofProject = entries.filter((entry) => entry.row.project_id === projectId)
    const context = await loadProjectContext(transaction, user, { id: projectId, kind }, [
      ...ofProject.map((entry) => entry.draft.category_id),
    ])
    contexts.set(projectId, context)
    for (const entry of ofProject) {
      await slices.pause()
      const found = draftProblems(context, entry.index, entry.draft).filter(
        // an unchanged template stays usable (it may be someone else's shared one since)
        (problem) => !(problem.field === 'category_id' && entry.item.category_id === undefined),
      )
      problems.push(...found)
    }
    if (problems.length > 0) continue
    const changedCodes = ofProject.filter(
      (entry) =>
        entry.item.devicecode !== undefined && entry.item.devicecode !== entry.row.devicecode,
    )
    problems.push(...(await devicecodeProblems(transaction, projectId, changedCodes)))
    const pending = new Map(ofProject.map((entry) => [entry.id, entry.draft.pid]))
    const changedParents = ofProject.filter(
      (entry) => entry.item.pid !== undefined && entry.item.pid !== entry.row.pid,
    )
    problems.push(...(await parentProblems(transaction, projectId, changedParents, pending)))
  }
  if (problems.length > 0) throw new PoiProblems(problems)

  // codes given up in this call are freed first, so two POIs may swap theirs
  const freed = entries
    .filter((entry) => entry.item.devicecode !== undefined && entry.row.devicecode !== '')
    .map((entry) => entry.id)
  for (const chunk of chunksOf(freed, idChunkSize)) {
    await transaction.updateTable('pois').set({ devicecode: '' }).where('id', 'in', chunk).execute()
  }

  // POIs with the same changes share one statement (a bulk edit sets one value on many)
  const groups = new Map<string, { changes: Record<string, unknown>; ids: string[] }>()
  const retemplated: Array<{ id: string; templateId: string }> = []
  for (const entry of entries) {
    await slices.pause()
    const context = contexts.get(entry.row.project_id)!
    const {
      id: _id,
      customs: _customs,
      modelList: _models,
      name,
      category_id,
      ...rest
    } = entry.item
    const changes: Record<string, unknown> = { ...rowFields(rest as Partial<CreateItem>) }
    if (name !== undefined) changes.name = name
    if (category_id !== undefined && category_id !== entry.row.category_id) {
      const template = context.templates.get(category_id)!
      Object.assign(changes, {
        category_id,
        poicategory_code: template.poicategory_code,
        template_type: template.template_type,
        category_type: template.type,
      })
      retemplated.push({ id: entry.id, templateId: category_id })
    }
    if (rest.x !== undefined || rest.y !== undefined || rest.z !== undefined) {
      Object.assign(changes, cartesianOf(context.kind, entry.draft))
    }
    const key = JSON.stringify(changes)
    const group = groups.get(key) ?? { changes, ids: [] }
    group.ids.push(entry.id)
    groups.set(key, group)
  }
  for (const { changes, ids } of groups.values()) {
    for (const chunk of chunksOf(ids, idChunkSize)) {
      await transaction
        .updateTable('pois')
        .set({ ...changes, updated_at: nowIso })
        .where('id', 'in', chunk)
        .execute()
    }
  }

  const counts = new CountChanges()
  for (const entry of entries) {
    const before = { category_id: entry.row.category_id, floor_id: entry.row.floor_id }
    const after = { category_id: entry.draft.category_id, floor_id: entry.draft.floor_id }
    if (before.category_id !== after.category_id || before.floor_id !== after.floor_id) {
      counts.add(entry.row.project_id, before, -1).add(entry.row.project_id, after, 1)
    }
  }
  await counts.write(transaction)
  await retemplateCustoms(transaction, retemplated)
  const renamed = entries.filter(
    (entry) => entry.item.name !== undefined && entry.item.name !== entry.row.name,
  )
  await replaceNameGrams(
    transaction,
    renamed.map((entry) => ({
      id: entry.id,
      project_id: entry.row.project_id,
      name: entry.draft.name,
    })),
  )
  const relinked = entries.filter((entry) => entry.item.modelList !== undefined)
  for (const chunk of chunksOf(relinked, idChunkSize)) {
    await transaction
      .deleteFrom('poi_model_links')
      .where(
        'poi_id',
        'in',
        chunk.map((entry) => entry.id),
      )
      .execute()
  }
  const links = relinked.flatMap((entry) =>
    [...new Set(entry.draft.modelList)].map((modelId) => ({
      poi_id: entry.id,
      model_id: modelId,
      project_id: entry.row.project_id,
      created_at: nowIso,
    })),
  )
  for (const chunk of chunksOf(links, 1_000)) {
    await transaction.insertInto('poi_model_links').values(chunk).execute()
  }
  await setCustoms(
    transaction,
    entries.flatMap((entry) =>
      (entry.item.customs ?? []).map((custom) => ({ poiId: entry.id, custom })),
    ),
  )
}

/** A POI made to use another template gets its attributes (same-named values are kept). */
async function retemplateCustoms(
  transaction: Database,
  changes: ReadonlyArray<{ id: string; templateId: string }>,
): Promise<void> {
  const byTemplate = new Map<string, string[]>()
  for (const change of changes) {
    byTemplate.set(change.templateId, [...(byTemplate.get(change.templateId) ?? []), change.id])
  }
  for (const [templateId, poiIds] of byTemplate) {
    const properties = await transaction
      .selectFrom('poi_template_properties')
      .select(['property_column', 'column_des', 'column_example'])
      .where('template_id', '=', templateId)
      .execute()
    const columns = properties.map((property) => property.property_column)
    for (const chunk of chunksOf(poiIds, idChunkSize)) {
      let removal = transaction.deleteFrom('poi_custom_properties').where('poi_id', 'in', chunk)
      if (columns.length > 0) removal = removal.where('property_column', 'not in', columns)
      await removal.execute()
      const present = new Set(
        (
          await transaction
            .selectFrom('poi_custom_properties')
            .select(['poi_id', 'property_column'])
            .where('poi_id', 'in', chunk)
            .execute()
        ).map((row) => `${row.poi_id}\u0000${row.property_column}`),
      )
      const inserts = chunk.flatMap((poiId) =>
        properties
          .filter((property) => !present.has(`${poiId}\u0000${property.property_column}`))
          .map((property) => ({
            id: randomUUID(),
            poi_id: poiId,
            property_column: property.property_column,
            column_des: property.column_des,
            column_value: property.column_example,
          })),
      )
      for (const rows of chunksOf(inserts, 1_000)) {
        await transaction.insertInto('poi_custom_properties').values(rows).execute()
      }
    }
  }
}

/** Sets custom property values (adding the attribute to a POI that has none of that name). */
async function setCustoms(
  transaction: Database,
  values: ReadonlyArray<{ poiId: string; custom: PoiCustomInput & CustomInput }>,
): Promise<void> {
  if (values.length === 0) return
  const poiIds = [...new Set(values.map((value) => value.poiId))]
  const present = new Set<string>()
  for (const chunk of chunksOf(poiIds, idChunkSize)) {
    for (const row of await transaction
      .selectFrom('poi_custom_properties')
      .select(['poi_id', 'property_column'])
      .where('poi_id', 'in', chunk)
      .execute()) {
      present.add(`${row.poi_id}\u0000${row.property_column}`)
    }
  }
  // same value, same attribute: one statement for all its POIs
  const updates = new Map<string, { custom: CustomInput; ids: string[] }>()
  const inserts = []
  for (const { poiId, custom } of values) {
    const key = `${poiId}\u0000${custom.property_column}`
    if (present.has(key)) {
      const groupKey = JSON.stringify([
        custom.property_column,
        custom.column_value,
        custom.column_des,
      ])
      const group = updates.get(groupKey) ?? { custom, ids: [] }
      group.ids.push(poiId)
      updates.set(groupKey, group)
    } else {
      present.add(key)
      inserts.push({
        id: randomUUID(),
        poi_id: poiId,
        property_column: custom.property_column,
        column_des: custom.column_des ?? custom.property_column,
        column_value: custom.column_value,
      })
    }
  }
  for (const { custom, ids } of updates.values()) {
    for (const chunk of chunksOf(ids, idChunkSize)) {
      await transaction
        .updateTable('poi_custom_properties')
        .set({
          column_value: custom.column_value,
          ...(custom.column_des === undefined ? {} : { column_des: custom.column_des }),
        })
        .where('poi_id', 'in', chunk)
        .where('property_column', '=', custom.property_column)
        .execute()
    }
  }
  for (const chunk of chunksOf(inserts, 1_000)) {
    await transaction.insertInto('poi_custom_properties').values(chunk).execute()
  }
}

/** Deletes POIs with their properties, links and grams; their children lose their parent. */
export async function deletePois(
  transaction: Database,
  rows: ReadonlyMap<string, PoiRow>,
  nowIso: string,
): Promise<number> {
  let deleted = 0
  const projectIds = [...new Set([...rows.values()].map((row) => row.project_id))]
  const counts = new CountChanges()
  for (const row of rows.values()) counts.add(row.project_id, row, -1)
  await counts.write(transaction)
  for (const chunk of chunksOf([...rows.keys()], idChunkSize)) {
    await transaction.deleteFrom('poi_custom_properties').where('poi_id', 'in', chunk).execute()
    await transaction.deleteFrom('poi_model_links').where('poi_id', 'in', chunk).execute()
    await transaction.deleteFrom('poi_name_grams').where('poi_id', 'in', chunk).execute()
    await transaction
      .updateTable('pois')
      .set({ pid: '', updated_at: nowIso })
      // the project narrows it to the parent index's range
      .where('project_id', 'in', [...projectIds])
      .where('pid', 'in', chunk)
      .execute()
    const result = await transaction.deleteFrom('pois').where('id', 'in', chunk).executeTakeFirst()
    deleted += Number(result.numDeletedRows)
  }
  return deleted
}

export type { CreatePoiListItem, UpdatePoiBody }
