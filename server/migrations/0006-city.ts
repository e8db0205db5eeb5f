import type { Kysely } from 'kysely'

/**
 * City projects (issue #7): oblique-photography tilesets, single-building (GIS) models, uploaded
 * PMTiles basemaps and each project's basemap setting. Conventions of ./tables.ts. No foreign
 * key to `projects`: a project's delete removes these rows through its lifecycle hook, which
 * also removes their files (server/modules/tilesets/, basemaps/).
 */
export interface CityTables {
  tilesets: TilesetsTable
  gis_models: GisModelsTable
  basemap_files: BasemapFilesTable
  basemap_settings: BasemapSettingsTable
}

/** An oblique-photography tileset; its files live in a version folder of the tileset store. */
export interface TilesetsTable {
  id: string
  project_id: string
  name: string
  is_visible: number
  /** Placement for tilesets without their own georeference; all four null when unset. */
  placement_lng: number | null
  placement_lat: number | null
  placement_height_offset: number | null
  placement_heading: number | null
  /**
   * The served version folder, or null before the first upload. Copies of a project share a
   * version (no bytes copied); the folder goes when no row names it any more.
   */
  version_id: string | null
  /** The root tileset JSON, relative to the version folder. */
  root_path: string | null
  asset_version: string | null
  is_georeferenced: number
  /** JSON text of contract `TilesetStats`. */
  stats_json: string | null
  /** JSON text of contract `TilesetTopTile[]`. */
  top_tiles_json: string
  /** JSON text of a string array. */
  warnings_json: string
  file_name: string | null
  created_at: string
  updated_at: string
}

/** A named selection of features in a tileset ("monomer" model). */
export interface GisModelsTable {
  id: string
  project_id: string
  tileset_id: string | null
  modelname: string
  /** JSON text of the batch/feature ids. */
  feature_ids_json: string
  /** JSON text of the user's properties object. */
  properties_json: string
  created_at: string
  updated_at: string
}

/**
 * An uploaded PMTiles file. `file_key` names the bytes in the basemap store; copies of a
 * project share it, and the bytes go when no row names them any more.
 */
export interface BasemapFilesTable {
  id: string
  project_id: string
  name: string
  file_key: string
  size_bytes: number
  created_at: string
}

/** A project's basemap choice; no row means the offline default. */
export interface BasemapSettingsTable {
  project_id: string
  kind: 'offline' | 'online' | 'pmtiles'
  style_url: string | null
  pmtiles_id: string | null
  updated_at: string
}

/** Creates the city tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tilesets')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('is_visible', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('placement_lng', 'double precision')
    .addColumn('placement_lat', 'double precision')
    .addColumn('placement_height_offset', 'double precision')
    .addColumn('placement_heading', 'double precision')
    .addColumn('version_id', 'text')
    .addColumn('root_path', 'text')
    .addColumn('asset_version', 'text')
    .addColumn('is_georeferenced', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('stats_json', 'text')
    .addColumn('top_tiles_json', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('warnings_json', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('file_name', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('tilesets_project_index')
    .on('tilesets')
    .columns(['project_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('tilesets_version_index')
    .on('tilesets')
    .column('version_id')
    .execute()

  await db.schema
    .createTable('gis_models')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('tileset_id', 'text')
    .addColumn('modelname', 'text', (column) => column.notNull())
    .addColumn('feature_ids_json', 'text', (column) => column.notNull())
    .addColumn('properties_json', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('gis_models_project_index')
    .on('gis_models')
    .columns(['project_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('basemap_files')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('file_key', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'double precision', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('basemap_files_project_index')
    .on('basemap_files')
    .columns(['project_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('basemap_files_key_index')
    .on('basemap_files')
    .column('file_key')
    .execute()

  await db.schema
    .createTable('basemap_settings')
    .addColumn('project_id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('style_url', 'text')
    .addColumn('pmtiles_id', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
}

/** Drops the city tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['basemap_settings', 'basemap_files', 'gis_models', 'tilesets']) {
    await db.schema.dropTable(table).execute()
  }
}
