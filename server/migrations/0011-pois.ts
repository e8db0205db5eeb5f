import type { Generated, Kysely } from 'kysely'
import { sql } from 'kysely'

/**
 * POIs (issue 16, contract/pois.ts): the rest of the SPEC §3 "POI/model record" on the `pois`
 * table of 0007, the links of POIs to models, the name pieces (grams) a name search looks up,
 * and the per-project counts (all, per template, per floor) that page totals are read from.
 * Every new column has a default, so rows written before (and the templates area's writes,
 * which set only their own columns) stay valid. Indexes serve `findPoi`: a project's page in
 * creation order, or filtered by template, floor, parent, name or device code, each an index
 * range read in page order, never a scan of the project. `devicecode` is unique per project
 * when set (a partial unique index, in both dialects).
 */
export interface PoiTables {
  pois: PoisTable
  poi_model_links: PoiModelLinksTable
  poi_name_grams: PoiNameGramsTable
  poi_counts: PoiCountsTable
}

/** How many POIs a project has under a key: 'all', 'template:<id>', 'floor:<id>'. */
export interface PoiCountsTable {
  project_id: string
  key: string
  count: number
}

/** A POI: 0007's columns and the record's others (contract `Poi`; spec names in snake case). */
export interface PoisTable {
  id: string
  project_id: string
  name: string
  /** The template's id. */
  category_id: string
  poicategory_code: string
  template_type: string
  /** The template's kind, '2D' or '3D'. */
  category_type: string
  floor_id: Generated<string>
  pid: Generated<string>
  level: Generated<number>
  state: Generated<string>
  heading: Generated<number>
  pitch: Generated<number>
  roll: Generated<number>
  orientation: Generated<string>
  pack: Generated<string>
  poiid: Generated<string>
  poi_type: Generated<string>
  poi_style: Generated<string>
  view_type: Generated<string>
  camera_ps: Generated<string>
  camera_pss: Generated<string>
  x: Generated<number>
  y: Generated<number>
  z: Generated<number>
  cartisian_x: Generated<number>
  cartisian_y: Generated<number>
  cartisian_z: Generated<number>
  devicecode: Generated<string>
  distance_min: number | null
  distance_max: number | null
  event_code: Generated<string>
  event_image: Generated<string>
  gatecode: Generated<string>
  created_at: string
  updated_at: string
}

/** A POI linked to a model of its project (building model or monomer). */
export interface PoiModelLinksTable {
  poi_id: string
  model_id: string
  project_id: string
  created_at: string
}

/** The 2- and 3-character pieces of a POI's lower-cased name (see modules/pois/poi-search.ts). */
export interface PoiNameGramsTable {
  project_id: string
  gram: string
  poi_id: string
}

const textColumns = [
  'floor_id',
  'pid',
  'state',
  'orientation',
  'pack',
  'poiid',
  'poi_type',
  'poi_style',
  'view_type',
  'camera_ps',
  'camera_pss',
  'devicecode',
  'event_code',
  'event_image',
  'gatecode',
] as const

const numberColumns = [
  'heading',
  'pitch',
  'roll',
  'x',
  'y',
  'z',
  'cartisian_x',
  'cartisian_y',
  'cartisian_z',
] as const

/** Adds the columns, the link and gram tables and the indexes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of textColumns) {
    await db.schema
      .alterTable('pois')
      .addColumn(column, 'text', (definition) => definition.notNull().defaultTo(''))
      .execute()
  }
  for (const column of numberColumns) {
    await db.schema
      .alterTable('pois')
      .addColumn(column, 'double precision', (definition) => definition.notNull().defaultTo(0))
      .execute()
  }
  await db.schema
    .alterTable('pois')
    .addColumn('level', 'integer', (definition) => definition.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('pois').addColumn('distance_min', 'double precision').execute()
  await db.schema.alterTable('pois').addColumn('distance_max', 'double precision').execute()

  // the page orders (created_at, id); each filter has its own range in that order
  await db.schema.dropIndex('pois_project_index').execute()
  await db.schema
    .createIndex('pois_project_page_index')
    .on('pois')
    .columns(['project_id', 'created_at', 'id'])
    .execute()
  for (const [name, column] of [
    ['pois_template_page_index', 'category_id'],
    ['pois_floor_page_index', 'floor_id'],
    ['pois_parent_page_index', 'pid'],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('pois')
      .columns(['project_id', column, 'created_at', 'id'])
      .execute()
  }
  await db.schema
    .createIndex('pois_name_index')
    .on('pois')
    .columns(['project_id', 'name', 'id'])
    .execute()
  await db.schema
    .createIndex('pois_devicecode_index')
    .on('pois')
    .columns(['project_id', 'devicecode', 'id'])
    .execute()
  await db.schema
    .createIndex('pois_devicecode_unique')
    .on('pois')
    .columns(['project_id', 'devicecode'])
    .unique()
    .where(sql.ref('devicecode'), '<>', '')
    .execute()

  await db.schema
    .createTable('poi_model_links')
    .addColumn('poi_id', 'text', (column) => column.notNull())
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('poi_model_links_key', ['poi_id', 'model_id'])
    .execute()
  await db.schema
    .createIndex('poi_model_links_model_index')
    .on('poi_model_links')
    .columns(['model_id', 'poi_id'])
    .execute()
  await db.schema
    .createIndex('poi_model_links_project_index')
    .on('poi_model_links')
    .column('project_id')
    .execute()

  await db.schema
    .createTable('poi_name_grams')
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('gram', 'text', (column) => column.notNull())
    .addColumn('poi_id', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('poi_name_grams_lookup_index')
    .on('poi_name_grams')
    .columns(['project_id', 'gram', 'poi_id'])
    .execute()
  await db.schema
    .createIndex('poi_name_grams_poi_index')
    .on('poi_name_grams')
    .column('poi_id')
    .execute()

  await db.schema
    .createTable('poi_counts')
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('poi_counts_key', ['project_id', 'key'])
    .execute()
  // POIs made before this migration (by the templates area's tests or tools) are counted once
  await sql`
    insert into poi_counts (project_id, key, count)
    select project_id, 'all', count(*) from pois group by project_id
    union all
    select project_id, 'template:' || category_id, count(*) from pois
      group by project_id, category_id
  `.execute(db)
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('poi_counts').execute()
  await db.schema.dropTable('poi_name_grams').execute()
  await db.schema.dropTable('poi_model_links').execute()
  for (const name of [
    'pois_devicecode_unique',
    'pois_devicecode_index',
    'pois_name_index',
    'pois_parent_page_index',
    'pois_floor_page_index',
    'pois_template_page_index',
    'pois_project_page_index',
  ]) {
    await db.schema.dropIndex(name).execute()
  }
  await db.schema.createIndex('pois_project_index').on('pois').column('project_id').execute()
  for (const column of [
    'distance_max',
    'distance_min',
    'level',
    ...numberColumns,
    ...textColumns,
  ]) {
    await db.schema.alterTable('pois').dropColumn(column).execute()
  }
}
