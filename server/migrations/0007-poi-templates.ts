import type { Kysely } from 'kysely'

/**
 * POI categories and templates (issue 15, contract/templates.ts), and the minimal POI storage
 * templates need before the POI issue (16) builds on it: `pois` and their custom properties.
 * Conventions of ./tables.ts, with one more: `owner_id` '' marks a shared row (system category,
 * library template), so "unique per owner" is a plain unique index in both dialects (a null
 * would never collide). No foreign keys: deletes go through the services, which remove the
 * dependent rows in the same transaction.
 */
export interface PoiTemplateTables {
  poi_categories: PoiCategoriesTable
  poi_templates: PoiTemplatesTable
  poi_template_grams: PoiTemplateGramsTable
  poi_template_properties: PoiTemplatePropertiesTable
  poi_template_labels: PoiTemplateLabelsTable
  poi_template_events: PoiTemplateEventsTable
  pois: PoisTable
  poi_custom_properties: PoiCustomPropertiesTable
}

/** A category node; the roots '1' (2D) and '2' (3D) are rows made here. */
export interface PoiCategoriesTable {
  id: string
  /** '' for a shared (system) category. */
  owner_id: string
  /** '0' for the roots and the location tree's top level. */
  pid: string
  kind: 'poi' | 'location'
  category_name: string
  created_at: string
  updated_at: string
}

/** A template (SPEC §3 "POI template"). */
export interface PoiTemplatesTable {
  id: string
  /** '' for a shared library template. */
  owner_id: string
  uuid: string
  name: string
  poicategory_code: string
  piddes: string
  category_id: string
  type: '2D' | '3D'
  iconpath: string
  category_zip_uuid: string
  bgtype: string
  template_type: '0' | '1'
  use_shadow_editor_render: number
  is_iot_device: number
  /** JSON text of `projectInfoAllCustoms`. */
  levels_json: string
  file_path: string
  jpg_name: string
  xml_name: string
  glbf_name: string
  created_at: string
  updated_at: string
}

/**
 * The 2- and 3-character pieces of each template's lower-cased name and code, so a substring
 * search looks up its rarest piece by index instead of scanning every template.
 */
export interface PoiTemplateGramsTable {
  owner_id: string
  gram: string
  template_id: string
}

/** A static attribute of a template. */
export interface PoiTemplatePropertiesTable {
  id: string
  template_id: string
  property_column: string
  column_des: string
  column_example: string
  created_at: string
}

/** A label of a template; `is_current` 0 means it is in the template's history. */
export interface PoiTemplateLabelsTable {
  id: string
  template_id: string
  label_key: string
  is_current: number
  created_at: string
}

/** One event kind of a template (a row only once it was set). */
export interface PoiTemplateEventsTable {
  template_id: string
  kind: 'link' | 'alarm' | 'offline' | 'fault'
  is_enabled: number
  event_code: string
  event_image: string
}

/**
 * A POI (SPEC §3 "POI/model record"), only the fields templates touch; issue 16 adds the rest.
 * `category_id` is the id of the template it is made from.
 */
export interface PoisTable {
  id: string
  project_id: string
  name: string
  category_id: string
  poicategory_code: string
  template_type: string
  category_type: string
  created_at: string
  updated_at: string
}

/** A POI's value of one static attribute (copied from its template, then edited per POI). */
export interface PoiCustomPropertiesTable {
  id: string
  poi_id: string
  property_column: string
  column_des: string
  column_value: string
}

const now = '2026-01-01T00:00:00.000Z'

/** Creates the tables, their indexes and the two root categories. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('poi_categories')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('pid', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('category_name', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('poi_categories_owner_index')
    .on('poi_categories')
    .columns(['owner_id', 'pid'])
    .execute()
  await db.schema
    .createIndex('poi_categories_pid_index')
    .on('poi_categories')
    .column('pid')
    .execute()
  await (db as Kysely<PoiTemplateTables>)
    .insertInto('poi_categories')
    .values([
      {
        id: '1',
        owner_id: '',
        pid: '0',
        kind: 'poi',
        category_name: '2D',
        created_at: now,
        updated_at: now,
      },
      {
        id: '2',
        owner_id: '',
        pid: '0',
        kind: 'poi',
        category_name: '3D',
        created_at: now,
        updated_at: now,
      },
    ])
    .execute()

  await db.schema
    .createTable('poi_templates')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('uuid', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('poicategory_code', 'text', (column) => column.notNull())
    .addColumn('piddes', 'text', (column) => column.notNull())
    .addColumn('category_id', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('iconpath', 'text', (column) => column.notNull())
    .addColumn('category_zip_uuid', 'text', (column) => column.notNull())
    .addColumn('bgtype', 'text', (column) => column.notNull())
    .addColumn('template_type', 'text', (column) => column.notNull())
    .addColumn('use_shadow_editor_render', 'integer', (column) => column.notNull())
    .addColumn('is_iot_device', 'integer', (column) => column.notNull())
    .addColumn('levels_json', 'text', (column) => column.notNull())
    .addColumn('file_path', 'text', (column) => column.notNull())
    .addColumn('jpg_name', 'text', (column) => column.notNull())
    .addColumn('xml_name', 'text', (column) => column.notNull())
    .addColumn('glbf_name', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  // the list page: an owner's templates newest first, a page at a time
  await db.schema
    .createIndex('poi_templates_owner_created_index')
    .on('poi_templates')
    .columns(['owner_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('poi_templates_owner_code_index')
    .on('poi_templates')
    .columns(['owner_id', 'poicategory_code'])
    .unique()
    .execute()
  // "is this category used?" and the list filtered by a category
  await db.schema
    .createIndex('poi_templates_category_index')
    .on('poi_templates')
    .columns(['category_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('poi_template_grams')
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('gram', 'text', (column) => column.notNull())
    .addColumn('template_id', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('poi_template_grams_key', ['owner_id', 'gram', 'template_id'])
    .execute()
  await db.schema
    .createIndex('poi_template_grams_template_index')
    .on('poi_template_grams')
    .column('template_id')
    .execute()

  await db.schema
    .createTable('poi_template_properties')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('template_id', 'text', (column) => column.notNull())
    .addColumn('property_column', 'text', (column) => column.notNull())
    .addColumn('column_des', 'text', (column) => column.notNull())
    .addColumn('column_example', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('poi_template_properties_column_index')
    .on('poi_template_properties')
    .columns(['template_id', 'property_column'])
    .unique()
    .execute()

  await db.schema
    .createTable('poi_template_labels')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('template_id', 'text', (column) => column.notNull())
    .addColumn('label_key', 'text', (column) => column.notNull())
    .addColumn('is_current', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('poi_template_labels_key_index')
    .on('poi_template_labels')
    .columns(['template_id', 'label_key'])
    .unique()
    .execute()

  await db.schema
    .createTable('poi_template_events')
    .addColumn('template_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('is_enabled', 'integer', (column) => column.notNull())
    .addColumn('event_code', 'text', (column) => column.notNull())
    .addColumn('event_image', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('poi_template_events_key', ['template_id', 'kind'])
    .execute()

  await db.schema
    .createTable('pois')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('category_id', 'text', (column) => column.notNull())
    .addColumn('poicategory_code', 'text', (column) => column.notNull())
    .addColumn('template_type', 'text', (column) => column.notNull())
    .addColumn('category_type', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('pois_project_index').on('pois').column('project_id').execute()
  await db.schema
    .createIndex('pois_template_index')
    .on('pois')
    .columns(['category_id', 'project_id'])
    .execute()

  await db.schema
    .createTable('poi_custom_properties')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('poi_id', 'text', (column) => column.notNull())
    .addColumn('property_column', 'text', (column) => column.notNull())
    .addColumn('column_des', 'text', (column) => column.notNull())
    .addColumn('column_value', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('poi_custom_properties_column_index')
    .on('poi_custom_properties')
    .columns(['poi_id', 'property_column'])
    .unique()
    .execute()
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'poi_custom_properties',
    'pois',
    'poi_template_events',
    'poi_template_labels',
    'poi_template_properties',
    'poi_template_grams',
    'poi_templates',
    'poi_categories',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
