import type { Kysely } from 'kysely'

/**
 * Inspections (issue 17 item 7; SPEC §7 `/investigation/*`, contract/investigations.ts): one row
 * per record against an alarm or a POI. Its photos are uploads (`uploaded_files`) kept alive by
 * `file_references` rows with the holder `investigation:<id>`; their ids and served names are
 * listed in order in `photos_json`, so a page of records is answered without a join.
 */
export interface InvestigationTables {
  investigations: InvestigationsTable
}

/** An inspection record. */
export interface InvestigationsTable {
  id: string
  project_id: string
  /** The alarm it answers, or null for a record against a POI only. */
  alarm_id: string | null
  /** The POI inspected (the alarm's POI), or null when the alarm's device had none. */
  poi_id: string | null
  /** The alarm's device code ('' without an alarm). */
  devicecode: string
  inspector: string
  inspected_at: string
  findings: string
  /** 'open', 'in_progress' or 'resolved'. */
  state: string
  /** JSON array of `{ id, name }`: the upload's uuid and its served name `<uuid>.<ext>`. */
  photos_json: string
  /** User names. */
  created_by: string
  created_at: string
  updated_by: string
  updated_at: string
}

/** Creates the table and its indexes (a project's page, an alarm's and a POI's records). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('investigations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('alarm_id', 'text')
    .addColumn('poi_id', 'text')
    .addColumn('devicecode', 'text', (column) => column.notNull())
    .addColumn('inspector', 'text', (column) => column.notNull())
    .addColumn('inspected_at', 'text', (column) => column.notNull())
    .addColumn('findings', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('photos_json', 'text', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_by', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('investigations_project_index')
    .on('investigations')
    .columns(['project_id', 'inspected_at'])
    .execute()
  await db.schema
    .createIndex('investigations_alarm_index')
    .on('investigations')
    .column('alarm_id')
    .execute()
  await db.schema
    .createIndex('investigations_poi_index')
    .on('investigations')
    .column('poi_id')
    .execute()
}

/** Drops it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('investigations').execute()
}
