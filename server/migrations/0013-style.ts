import type { Kysely } from 'kysely'

/**
 * The global style setting of a project (issue 19, contract/style.ts): at most one per project,
 * kept as versioned JSON text so the record can grow without a migration per field, and a
 * setting of another version is recognised (and refused) instead of being half-read.
 * Dialect-neutral like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_styles')
    .addColumn('project_id', 'text', (column) =>
      column.primaryKey().references('projects.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('setting_json', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
}

/** Drops what `up` created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_styles').execute()
}

/** The tables of this migration. */
export interface StyleTables {
  project_styles: ProjectStylesTable
}

/** A project's global style setting. */
export interface ProjectStylesTable {
  project_id: string
  /** The version of `setting_json` (contract/style.ts `styleSettingVersion`). */
  version: number
  setting_json: string
  created_at: string
  updated_at: string
}
