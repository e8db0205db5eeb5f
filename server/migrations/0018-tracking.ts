import type { Kysely } from 'kysely'

/**
 * Electronic fences and GPS positioning (issue 18, contract/tracking.ts). Conventions of
 * ./tables.ts. A fence is an area drawing (`area_draws`, circle or polygon) marked as one; the
 * objects tracked in a project report positions with a device token (only its SHA-256 is
 * kept); each report that crosses a fence's edge records an enter or leave event. No foreign
 * keys to `projects`: the tracking service's lifecycle hook removes a project's rows.
 */
export interface TrackingTables {
  fences: FencesTable
  tracked_objects: TrackedObjectsTable
  track_positions: TrackPositionsTable
  fence_events: FenceEventsTable
}

/** An area drawing marked as an electronic fence. */
export interface FencesTable {
  /** The `area_draws` id (one fence per drawing). */
  draw_id: string
  project_id: string
  created_at: string
}

/** A positioned object (SPEC §3): a person, vehicle or moving POI that reports positions. */
export interface TrackedObjectsTable {
  id: string
  project_id: string
  name: string
  /** SPEC §3 "model category". */
  category: string
  /** The location category (a `poi_categories` id of the location tree), '' for none (0027). */
  category_id: string
  /** SPEC §3 "coding": the object's own code. */
  coding: string
  /** SHA-256 hex of its device token. */
  token_hash: string
  last_lng: number | null
  last_lat: number | null
  last_heading: number | null
  /** When the last position was taken (the report's time). */
  last_at: string | null
  /** JSON text of the ids of the fences it was inside at its last position. */
  inside_json: string
  created_at: string
}

/** One reported position (the track history). */
export interface TrackPositionsTable {
  id: string
  object_id: string
  lng: number
  lat: number
  heading: number | null
  at: string
}

/** An enter or leave of a fence by a tracked object (the alarm record of a fence). */
export interface FenceEventsTable {
  id: string
  project_id: string
  fence_id: string
  object_id: string
  /** 'enter' or 'leave'. */
  kind: string
  lng: number
  lat: number
  at: string
  created_at: string
}

/** Creates the tables of fences, tracked objects, their positions and fence events. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fences')
    .addColumn('draw_id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('fences_project_index').on('fences').column('project_id').execute()
  await db.schema
    .createTable('tracked_objects')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('category', 'text', (column) => column.notNull())
    .addColumn('coding', 'text', (column) => column.notNull())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('last_lng', 'double precision')
    .addColumn('last_lat', 'double precision')
    .addColumn('last_heading', 'double precision')
    .addColumn('last_at', 'text')
    .addColumn('inside_json', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('tracked_objects_project_index')
    .on('tracked_objects')
    .columns(['project_id', 'created_at'])
    .execute()
  await db.schema
    .createTable('track_positions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('object_id', 'text', (column) => column.notNull())
    .addColumn('lng', 'double precision', (column) => column.notNull())
    .addColumn('lat', 'double precision', (column) => column.notNull())
    .addColumn('heading', 'double precision')
    .addColumn('at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('track_positions_object_index')
    .on('track_positions')
    .columns(['object_id', 'at'])
    .execute()
  await db.schema
    .createTable('fence_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('fence_id', 'text', (column) => column.notNull())
    .addColumn('object_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('lng', 'double precision', (column) => column.notNull())
    .addColumn('lat', 'double precision', (column) => column.notNull())
    .addColumn('at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('fence_events_project_index')
    .on('fence_events')
    .columns(['project_id', 'at'])
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['fence_events', 'track_positions', 'tracked_objects', 'fences'])
    await db.schema.dropTable(table).execute()
}
