import type { Kysely } from 'kysely'

/**
 * Drawings of city projects (issue 18, contract/draw.ts): areas and paths with their points and
 * the area and length the server measured from them. Conventions of ./tables.ts. No foreign key
 * to `projects`: a project's delete removes these rows through the drawing service's lifecycle
 * hook, and a copy carries them along.
 */
export interface DrawTables {
  area_draws: AreaDrawsTable
}

/** One area or path (SPEC §3 "Area drawing", "Path"). */
export interface AreaDrawsTable {
  id: string
  project_id: string
  /** 'area' or 'path'. */
  kind: string
  name: string
  description: string
  /** 1 circle, 2 point, 3 polyline, 4 polygon, 5 inflection point. */
  type: number
  /** JSON text of the [lng, lat] pairs. */
  points_json: string
  point_count: number
  /** Geodesic area on WGS84, m², measured by the server. */
  acreage: number
  /** Geodesic length, m, measured by the server. */
  length_m: number
  radius_m: number
  /** JSON text of contract `DrawStyle`. */
  style_json: string
  is_visible: number
  created_at: string
  updated_at: string
}

/** Creates `area_draws`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('area_draws')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('type', 'integer', (column) => column.notNull())
    .addColumn('points_json', 'text', (column) => column.notNull())
    .addColumn('point_count', 'integer', (column) => column.notNull())
    .addColumn('acreage', 'double precision', (column) => column.notNull())
    .addColumn('length_m', 'double precision', (column) => column.notNull())
    .addColumn('radius_m', 'double precision', (column) => column.notNull())
    .addColumn('style_json', 'text', (column) => column.notNull())
    .addColumn('is_visible', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('area_draws_project_index')
    .on('area_draws')
    .columns(['project_id', 'kind', 'created_at'])
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('area_draws').execute()
}
