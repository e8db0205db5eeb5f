import type { z } from 'zod'
import type {
  findPoiBodySchema,
  findPoiQuerySchema,
  PoiPage,
  ProjectPoisDatum,
} from '../../../contract/pois'
import { type SelectQueryBuilder, sql } from 'kysely'
import type { Tables } from '../../migrations/tables'
import type { Database, DatabaseDialect } from '../../plugins/db'
import { containsPattern } from '../templates/template-search'
import { chunksOf, idChunkSize, recordsOf, templateFactColumns } from './poi-records'
import { countOf, floorKey, templateKey } from './poi-counts'
import { narrowingNameGrams } from './poi-search'
import { libraryTemplateNameKey, nameKeyField } from '../templates/library-names'

/**
 * The reads of a project's POIs: `findPoi`'s filtered page and `findProjectPoiDetail`'s
 * columns. Every filter is an index range of `pois` (0011) read in page order.
 */

type FindBody = z.output<typeof findPoiBodySchema>
type FindQuery = z.output<typeof findPoiQuerySchema>

/** The template ids filed under a category node (any depth), any owner's. */
async function templatesUnder(db: Database, categoryNodeId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('poi_templates')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('category_id', '=', categoryNodeId),
        eb('piddes', '=', categoryNodeId),
        eb('piddes', 'like', `${categoryNodeId},%`),
        eb('piddes', 'like', `%,${categoryNodeId},%`),
        eb('piddes', 'like', `%,${categoryNodeId}`),
      ]),
    )
    .execute()
  return rows.map((row) => row.id)
}

/**
 * The total of a filtered list: from the kept counts when it is filtered by nothing, templates
 * (one, or a category's) or one floor alone; else `count` counts the matches.
 */
async function totalOf(
  db: Database,
  projectId: string,
  body: FindBody,
  count: () => Promise<number>,
  nodeTemplateIds?: readonly string[],
): Promise<number> {
  const filters = [
    body.category_id,
    body.category_node_id,
    body.floor_id,
    body.pid,
    body.type,
    body.model_id,
    body.name || undefined,
    body.devicecode || undefined,
  ].filter((value) => value !== undefined)
  if (filters.length === 0) return countOf(db, projectId, ['all'])
  if (filters.length > 1) return count()
  if (body.category_id !== undefined) return countOf(db, projectId, [templateKey(body.category_id)])
  if (body.floor_id !== undefined) return countOf(db, projectId, [floorKey(body.floor_id)])
  if (nodeTemplateIds !== undefined) return countOf(db, projectId, nodeTemplateIds.map(templateKey))
  return count()
}

/**
 * A name search's page and total in one pass: `LIKE` reads every candidate row anyway, so the
 * total comes with the page (`count(*) over ()`) instead of a second read of the same rows.
 * Past the last page no row carries it, and the matches are counted.
 */
async function namePage(
  db: Database,
  query: SelectQueryBuilder<Tables, 'pois', object>,
  body: FindBody,
  page: FindQuery,
): Promise<PoiPage> {
  const rows = await query
    .selectAll()
    .select(sql<number | string>`count(*) over ()`.as('matching_total'))
    .orderBy(body.sort, body.order)
    .orderBy('id', body.order)
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize)
    .execute()
  const total =
    rows[0] !== undefined
      ? Number(rows[0].matching_total)
      : Number(
          (await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow())
            .count,
        )
  const records = rows.map(({ matching_total: _total, ...row }) => row)
  return {
    list: total === 0 ? [] : await recordsOf(db, records),
    total,
    pageNo: page.pageNo,
    pageSize: page.pageSize,
  }
}

/** `findPoi`: a page of a project's POIs with every filter of the body, and their total. */
export async function findPoiPage(
  db: Database,
  dialect: DatabaseDialect,
  projectId: string,
  body: FindBody,
  page: FindQuery,
): Promise<PoiPage> {
  const empty = { list: [], total: 0, pageNo: page.pageNo, pageSize: page.pageSize }
  let query = db.selectFrom('pois').where('pois.project_id', '=', projectId)
  if (body.category_id !== undefined) query = query.where('category_id', '=', body.category_id)
  let nodeTemplateIds: string[] | undefined
  if (body.category_node_id !== undefined) {
    nodeTemplateIds = await templatesUnder(db, body.category_node_id)
    if (nodeTemplateIds.length === 0) return empty
    query = query.where('category_id', 'in', nodeTemplateIds)
  }
  if (body.floor_id !== undefined) query = query.where('floor_id', '=', body.floor_id)
  if (body.pid !== undefined) query = query.where('pid', '=', body.pid)
  if (body.type !== undefined) query = query.where('category_type', '=', body.type)
  if (body.devicecode !== undefined && body.devicecode !== '') {
    // codes starting with the text (case-sensitive). SQLite compares text by its bytes, so the
    // prefix is a range of the (project, devicecode) index; PostgreSQL's default collation is
    // linguistic (punctuation may be skipped), where only LIKE means "starts with".
    query =
      dialect === 'sqlite'
        ? query
            .where('devicecode', '>=', body.devicecode)
            .where('devicecode', '<', `${body.devicecode}\u{10FFFF}`)
        : query.where(
            'devicecode',
            'like',
            sql<string>`${`${body.devicecode.replace(/[\\%_]/g, (character) => `\\${character}`)}%`} escape '\\'`,
          )
  }
  if (body.model_id !== undefined) {
    const modelId = body.model_id
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('poi_model_links').select('poi_id').where('model_id', '=', modelId),
    )
  }
  if (body.name !== undefined && body.name !== '') {
    const name = body.name
    const narrowing = await narrowingNameGrams(db, projectId, name)
    if (narrowing?.isEmpty) return empty
    if (narrowing !== undefined) {
      const postingsOf = (gram: string) =>
        db
          .selectFrom('poi_name_grams')
          .select('poi_id')
          .where('poi_name_grams.project_id', '=', projectId)
          .where('gram', '=', gram)
      const [first, ...others] = narrowing.grams.map(postingsOf)
      const candidates = others.reduce((all, next) => all.intersect(next), first!)
      query = query.where('id', 'in', candidates)
    }
    const pattern = containsPattern(name)
    query = query.where(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`)
    return namePage(db, query, body, page)
  }
  const total = await totalOf(
    db,
    projectId,
    body,
    async () => {
      const { count } = await query
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      return Number(count)
    },
    nodeTemplateIds,
  )
  if (total === 0) return empty
  const sortColumn = body.sort
  const rows = await query
    .selectAll()
    .orderBy(sortColumn, body.order)
    .orderBy('id', body.order)
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize)
    .execute()
  return {
    list: await recordsOf(db, rows),
    total,
    pageNo: page.pageNo,
    pageSize: page.pageSize,
  }
}

/** `findProjectPoiDetail`: every POI of a project in columns (see the contract). */
export async function projectPoiColumns(
  db: Database,
  projectId: string,
): Promise<ProjectPoisDatum> {
  const rows = await db
    .selectFrom('pois')
    .select([
      'id',
      'name',
      'category_id',
      'x',
      'y',
      'z',
      'heading',
      'pitch',
      'roll',
      'floor_id',
      'pid',
      'devicecode',
      'level',
      'distance_min',
      'distance_max',
    ])
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const templateIndex = new Map<string, number>()
  const floorIndex = new Map<string, number>()
  const datum: ProjectPoisDatum = {
    projectid: projectId,
    count: rows.length,
    templates: [],
    floors: [],
    ids: new Array(rows.length),
    names: new Array(rows.length),
    template: new Array(rows.length),
    positions: new Array(rows.length * 3),
    heading: new Array(rows.length),
    pitch: new Array(rows.length),
    roll: new Array(rows.length),
    floor: new Array(rows.length),
    pid: new Array(rows.length),
    devicecode: new Array(rows.length),
    level: new Array(rows.length),
    distance_min: new Array(rows.length),
    distance_max: new Array(rows.length),
  }
  rows.forEach((row, index) => {
    let template = templateIndex.get(row.category_id)
    if (template === undefined) {
      template = templateIndex.size
      templateIndex.set(row.category_id, template)
    }
    let floor = -1
    if (row.floor_id !== '') {
      floor = floorIndex.get(row.floor_id) ?? floorIndex.size
      floorIndex.set(row.floor_id, floor)
    }
    datum.ids[index] = row.id
    datum.names[index] = row.name
    datum.template[index] = template
    datum.positions[index * 3] = Number(row.x)
    datum.positions[index * 3 + 1] = Number(row.y)
    datum.positions[index * 3 + 2] = Number(row.z)
    datum.heading[index] = Number(row.heading)
    datum.pitch[index] = Number(row.pitch)
    datum.roll[index] = Number(row.roll)
    datum.floor[index] = floor
    datum.pid[index] = row.pid
    datum.devicecode[index] = row.devicecode
    datum.level[index] = Number(row.level)
    datum.distance_min[index] = row.distance_min === null ? null : Number(row.distance_min)
    datum.distance_max[index] = row.distance_max === null ? null : Number(row.distance_max)
  })
  datum.floors = [...floorIndex.keys()]
  const found = new Map<string, Awaited<ReturnType<typeof templateRows>>[number]>()
  for (const chunk of chunksOf([...templateIndex.keys()], idChunkSize)) {
    for (const template of await templateRows(db, chunk)) found.set(template.id, template)
  }
  datum.templates = [...templateIndex.keys()].map((id) => {
    const template = found.get(id)
    return {
      id,
      name: template?.name ?? '',
      ...(template === undefined ? {} : nameKeyField(libraryTemplateNameKey(template))),
      type: template?.type === '3D' ? '3D' : '2D',
      category_node_id: template?.category_id ?? '',
      poicategory_code: template?.poicategory_code ?? '',
      iconpath: template?.iconpath ?? '',
      jpg_name: template?.jpg_name ?? '',
      sbm_name: template?.glbf_name ?? '',
      filepath: template?.file_path ?? '',
    }
  })
  return datum
}

function templateRows(db: Database, ids: readonly string[]) {
  return db.selectFrom('poi_templates').select(templateFactColumns).where('id', 'in', ids).execute()
}
