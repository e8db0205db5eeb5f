import type { Selectable } from 'kysely'
import type { Poi, PoiCustom } from '../../../contract/pois'
import type { PoisTable } from '../../migrations/0011-pois'
import { libraryTemplateNameKey } from '../templates/library-names'
import type { TemplateRow } from '../templates/template-access'
import type { Database } from '../../plugins/db'

/** A stored POI row. */
export type PoiRow = Selectable<PoisTable>

/** What a POI record shows of its template (the look and the names). */
export type PoiTemplateFacts = Pick<
  TemplateRow,
  | 'id'
  | 'owner_id'
  | 'name'
  | 'type'
  | 'category_id'
  | 'poicategory_code'
  | 'iconpath'
  | 'jpg_name'
  | 'glbf_name'
  | 'file_path'
>

/** The template columns {@link PoiTemplateFacts} reads. */
export const templateFactColumns = [
  'id',
  'owner_id',
  'name',
  'type',
  'category_id',
  'poicategory_code',
  'iconpath',
  'jpg_name',
  'glbf_name',
  'file_path',
] as const

/** Bound parameters per statement stay well below both dialects' limits with chunks this big. */
export const idChunkSize = 500

/** Splits a list into chunks of `size`. */
export function chunksOf<Item>(items: readonly Item[], size: number): Item[][] {
  const chunks: Item[][] = []
  for (let start = 0; start < items.length; start += size) {
    chunks.push(items.slice(start, start + size))
  }
  return chunks
}

/** Reads a number column (PostgreSQL may hand back numeric text). */
const numberOf = (value: number | string) => Number(value)
const nullableNumberOf = (value: number | string | null) => (value === null ? null : Number(value))

/** The contract record of a row, with its template's look and its linked models. */
export function poiRecordOf(
  row: PoiRow,
  template: PoiTemplateFacts | undefined,
  modelList: readonly string[],
): Poi {
  const kind = (template?.type ?? row.category_type) === '3D' ? '3D' : '2D'
  return {
    id: row.id,
    projectid: row.project_id,
    name: row.name,
    floor_id: row.floor_id,
    pid: row.pid,
    type: kind,
    level: numberOf(row.level),
    state: row.state,
    heading: numberOf(row.heading),
    pitch: numberOf(row.pitch),
    roll: numberOf(row.roll),
    orientation: row.orientation,
    pack: row.pack,
    poiid: row.poiid,
    poiType: row.poi_type,
    poi_style: row.poi_style,
    view_type: row.view_type,
    modelList: [...modelList],
    category_id: row.category_id,
    category_node_id: template?.category_id ?? '',
    poicategory_code: row.poicategory_code,
    template_type: row.template_type,
    category_type: row.category_type,
    cameraPs: row.camera_ps,
    cameraPss: row.camera_pss,
    cartisian_x: numberOf(row.cartisian_x),
    cartisian_y: numberOf(row.cartisian_y),
    cartisian_z: numberOf(row.cartisian_z),
    x: numberOf(row.x),
    y: numberOf(row.y),
    z: numberOf(row.z),
    devicecode: row.devicecode,
    distance_min: nullableNumberOf(row.distance_min),
    distance_max: nullableNumberOf(row.distance_max),
    event_code: row.event_code,
    event_image: row.event_image,
    gatecode: row.gatecode,
    iconpath: template?.iconpath ?? '',
    jpg_name: template?.jpg_name ?? '',
    sbm_name: template?.glbf_name ?? '',
    filepath: template?.file_path ?? '',
    template_name: template?.name ?? '',
    ...(template === undefined ? {} : templateNameKeyField(template)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** The templates of some POI rows, by id (templates deleted since are simply absent). */
export async function templatesOfRows(
  handle: Database,
  rows: readonly Pick<PoiRow, 'category_id'>[],
): Promise<Map<string, PoiTemplateFacts>> {
  const ids = [...new Set(rows.map((row) => row.category_id))]
  const templates = new Map<string, PoiTemplateFacts>()
  for (const chunk of chunksOf(ids, idChunkSize)) {
    const found = await handle
      .selectFrom('poi_templates')
      .select(templateFactColumns)
      .where('id', 'in', chunk)
      .execute()
    for (const template of found) templates.set(template.id, template)
  }
  return templates
}

/** The linked model ids of some POIs, by POI id. */
export async function modelLinksOf(
  handle: Database,
  poiIds: readonly string[],
): Promise<Map<string, string[]>> {
  const links = new Map<string, string[]>()
  for (const chunk of chunksOf(poiIds, idChunkSize)) {
    const rows = await handle
      .selectFrom('poi_model_links')
      .select(['poi_id', 'model_id'])
      .where('poi_id', 'in', chunk)
      .orderBy('created_at')
      .orderBy('model_id')
      .execute()
    for (const row of rows) {
      const list = links.get(row.poi_id) ?? []
      list.push(row.model_id)
      links.set(row.poi_id, list)
    }
  }
  return links
}

/** Contract records of rows, in their order (templates and links read in a few queries). */
export async function recordsOf(handle: Database, rows: readonly PoiRow[]): Promise<Poi[]> {
  const templates = await templatesOfRows(handle, rows)
  const links = await modelLinksOf(
    handle,
    rows.map((row) => row.id),
  )
  return rows.map((row) =>
    poiRecordOf(row, templates.get(row.category_id), links.get(row.id) ?? []),
  )
}

/** A POI's custom properties, by name. */
export async function customsOf(handle: Database, poiId: string): Promise<PoiCustom[]> {
  return handle
    .selectFrom('poi_custom_properties')
    .select(['id', 'poi_id', 'property_column', 'column_des', 'column_value'])
    .where('poi_id', '=', poiId)
    .orderBy('property_column')
    .execute()
}

/** `{ template_name_key }` of a seeded library template (see templates/library-names.ts). */
function templateNameKeyField(template: PoiTemplateFacts): { template_name_key?: string } {
  const key = libraryTemplateNameKey(template)
  return key === undefined ? {} : { template_name_key: key }
}
