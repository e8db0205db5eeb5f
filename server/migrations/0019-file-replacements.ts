import type { Kysely } from 'kysely'

/**
 * The history of replaced files (issue 20, update traffic): one row each time a project's
 * stored file is replaced by a different one — a building model's SBM (a floor upload of the
 * same file name, `uploadandupdatemodel`, a structure install), the project's GML file, a
 * tileset's content (`uploadTiltModel` with an id). Written in the transaction of the
 * replacement, so a replacement and its row are both there or neither. The metering
 * (server/modules/orders/metering.ts) bills the new bytes as update traffic and keeps the
 * record's first upload as upload traffic. Conventions of ./tables.ts; rows go with the project.
 */
export interface FileReplacementTables {
  file_replacements: FileReplacementsTable
}

/** One replacement of a stored file by another. */
export interface FileReplacementsTable {
  id: string
  project_id: string
  /** What was replaced: 'model', 'gml' or 'tileset'. */
  area: string
  /** The model's or tileset's id; the project's id for its one GML file. */
  record_id: string
  /** Bytes of the file that was replaced. */
  previous_size_bytes: number | string
  /** When the replaced file was stored. */
  previous_stored_at: string
  /** Bytes of the new file (the update traffic). */
  size_bytes: number | string
  created_at: string
}

/** Creates the history table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_replacements')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('area', 'text', (column) => column.notNull())
    .addColumn('record_id', 'text', (column) => column.notNull())
    .addColumn('previous_size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('previous_stored_at', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('file_replacements_project_index')
    .on('file_replacements')
    .columns(['project_id', 'created_at'])
    .execute()
  // a record's last replacement (what the next one replaced)
  await db.schema
    .createIndex('file_replacements_record_index')
    .on('file_replacements')
    .columns(['area', 'record_id', 'created_at'])
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_replacements').execute()
}
