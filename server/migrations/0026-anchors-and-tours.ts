import type { Kysely } from 'kysely'

/**
 * Anchor points (issue 18, contract/location.ts): points of a project's model paired with their
 * longitude and latitude, from which the model's place on the earth is solved; and the city's
 * view tour (contract/view-tour.ts): its viewpoints in order. Conventions of ./tables.ts. No
 * foreign key to `projects`: a project's delete removes these rows through the services'
 * lifecycle hooks, and a copy carries them along.
 */
export interface AnchorAndTourTables {
  location_anchors: LocationAnchorsTable
  view_tour_stops: ViewTourStopsTable
}

/** One anchor point (SPEC §3 "Anchor point"). */
export interface LocationAnchorsTable {
  id: string
  project_id: string
  /** '' for a building project's model, a tileset id in a city project. */
  target: string
  /** 1-based place among the model's anchors, in the order they were added. */
  seq: number
  name: string
  /** Relative coordinates, metres. */
  x: number
  y: number
  z: number
  lng: number
  lat: number
  /** Height offset, metres. */
  offset_m: number
  created_at: string
  updated_at: string
}

/** One viewpoint of a city project's view tour. */
export interface ViewTourStopsTable {
  id: string
  project_id: string
  /** 1-based place in the tour. */
  seq: number
  name: string
  lng: number
  lat: number
  zoom: number
  pitch: number
  bearing: number
  dwell_seconds: number
  created_at: string
}

/** Creates `location_anchors` and `view_tour_stops`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('location_anchors')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('target', 'text', (column) => column.notNull())
    .addColumn('seq', 'integer', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('x', 'double precision', (column) => column.notNull())
    .addColumn('y', 'double precision', (column) => column.notNull())
    .addColumn('z', 'double precision', (column) => column.notNull())
    .addColumn('lng', 'double precision', (column) => column.notNull())
    .addColumn('lat', 'double precision', (column) => column.notNull())
    .addColumn('offset_m', 'double precision', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('location_anchors_target_index')
    .on('location_anchors')
    .columns(['project_id', 'target', 'seq'])
    .execute()
  await db.schema
    .createTable('view_tour_stops')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('seq', 'integer', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('lng', 'double precision', (column) => column.notNull())
    .addColumn('lat', 'double precision', (column) => column.notNull())
    .addColumn('zoom', 'double precision', (column) => column.notNull())
    .addColumn('pitch', 'double precision', (column) => column.notNull())
    .addColumn('bearing', 'double precision', (column) => column.notNull())
    .addColumn('dwell_seconds', 'double precision', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('view_tour_stops_project_index')
    .on('view_tour_stops')
    .columns(['project_id', 'seq'])
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('view_tour_stops').execute()
  await db.schema.dropTable('location_anchors').execute()
}
