import type { Kysely } from 'kysely'

/**
 * The city model library (issue 21 item 6, contract/city-models.ts): a city project's glTF
 * and SBM models placed on the map, with how their animation plays. Conventions of ./tables.ts.
 * The bytes live in the content-addressed file store under `sha256`; no foreign key to
 * `projects`: a project's delete removes these rows through the service's lifecycle hook (and
 * frees bytes no row names once it has committed), and a copy carries them along.
 */
export interface CityModelTables {
  city_models: CityModelsTable
}

/** One model of a city project's library. */
export interface CityModelsTable {
  id: string
  project_id: string
  model_name: string
  file_name: string
  /** 'glb' (animations kept) or 'sbm'. */
  format: string
  sha256: string
  size_bytes: number
  animation_count: number
  lng: number
  lat: number
  height: number
  /** A building project's scene metres (0030; y up); 0 in a city project. */
  x: number
  y: number
  z: number
  heading: number
  scale: number
  animation_clip: number
  animation_speed: number
  /** 0/1. */
  animation_loop: number
  /** 0/1. */
  animation_autoplay: number
  created_at: string
  updated_at: string
}

/** Creates `city_models`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('city_models')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('model_name', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('format', 'text', (column) => column.notNull())
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('animation_count', 'integer', (column) => column.notNull())
    .addColumn('lng', 'double precision', (column) => column.notNull())
    .addColumn('lat', 'double precision', (column) => column.notNull())
    .addColumn('height', 'double precision', (column) => column.notNull())
    .addColumn('heading', 'double precision', (column) => column.notNull())
    .addColumn('scale', 'double precision', (column) => column.notNull())
    .addColumn('animation_clip', 'integer', (column) => column.notNull())
    .addColumn('animation_speed', 'double precision', (column) => column.notNull())
    .addColumn('animation_loop', 'integer', (column) => column.notNull())
    .addColumn('animation_autoplay', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('city_models_project_index')
    .on('city_models')
    .columns(['project_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('city_models_sha256_index')
    .on('city_models')
    .column('sha256')
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('city_models').execute()
}
