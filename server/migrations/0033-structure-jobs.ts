import type { Kysely } from 'kysely'

/**
 * The status of each structure merge and structure add while it runs and for a day after
 * (issue 22 item 2): written by the process running the job at each step, read by whichever
 * process answers `mergeStatus` or `addStatus`. Conventions of ./tables.ts.
 */
export interface StructureJobTables {
  structure_jobs: StructureJobsTable
}

/** One merge or add. */
export interface StructureJobsTable {
  id: string
  /** The job kind: 'modelConfig.merge' or 'modelConfig.add'. */
  kind: string
  owner_id: string
  /** JSON text of its status datum as last written (steps, progress, outcome). */
  status_json: string
  /** When the status was last written; a day after, the row is swept. */
  updated_at: string
}

/** Creates `structure_jobs`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('structure_jobs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('status_json', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('structure_jobs_updated_index')
    .on('structure_jobs')
    .column('updated_at')
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('structure_jobs').execute()
}
