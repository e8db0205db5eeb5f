import type { Kysely } from 'kysely'

/**
 * Visit mode's captures (issue 19, contract/visit.ts): a PNG of the scene (an upload of the
 * project, `uploaded_files`), the camera that made it and its place in the project's tour.
 * Dialect-neutral like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_captures')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('seq', 'integer', (column) => column.notNull())
    .addColumn('file_id', 'text', (column) => column.notNull())
    .addColumn('image_name', 'text', (column) => column.notNull())
    .addColumn('camera_json', 'text', (column) => column.notNull())
    .addColumn('dwell_seconds', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('project_captures_project_seq')
    .on('project_captures')
    .columns(['project_id', 'seq'])
    .execute()
}

/** Drops what `up` created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_captures').execute()
}

/** The tables of this migration. */
export interface CaptureTables {
  project_captures: ProjectCapturesTable
}

/** One capture of a project. */
export interface ProjectCapturesTable {
  id: string
  project_id: string
  name: string
  /** 1-based tour order; the service keeps it gap-free. */
  seq: number
  /** The `uploaded_files` row of the PNG (referenced by holder `capture:<id>`). */
  file_id: string
  /** The served name, `<uuid>.png`. */
  image_name: string
  /** `{"position":[x,y,z],"target":[x,y,z]}` */
  camera_json: string
  dwell_seconds: number
  created_at: string
}
