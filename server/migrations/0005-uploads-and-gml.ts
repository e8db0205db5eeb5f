import type { Kysely } from 'kysely'

/**
 * The IndoorGML navigation network of a building project (issue #6), at most one per project.
 * The file's bytes live in the content-addressed store under `sha256`; a copied project's row
 * names the same bytes, and bytes no row names any more are removed (server/modules/gml/).
 * Resumable uploads need no table: tus keeps their state in files under DATA_DIR/resumable/.
 * Dialect-neutral like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_gml_files')
    .addColumn('project_id', 'text', (column) =>
      column.primaryKey().references('projects.id').onDelete('cascade'),
    )
    // random per stored version: the file's address, so a replaced file is never served stale
    .addColumn('file_id', 'text', (column) => column.notNull().unique())
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'integer', (column) => column.notNull())
    .addColumn('state_count', 'integer', (column) => column.notNull())
    .addColumn('transition_count', 'integer', (column) => column.notNull())
    .addColumn('offset_x', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('offset_y', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('offset_z', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('rotation_deg', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('scale', 'double precision', (column) => column.notNull().defaultTo(1))
    .addColumn('display_mode', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('project_gml_files_sha256_index')
    .on('project_gml_files')
    .column('sha256')
    .execute()
}

/** Drops what `up` created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_gml_files').execute()
}

/** Row types of the tables above, for Kysely (joined into `Tables` in ./tables.ts). */
export interface GmlTables {
  project_gml_files: ProjectGmlFilesTable
}

/** A building project's IndoorGML file, its counts and how it is placed and shown. */
export interface ProjectGmlFilesTable {
  project_id: string
  file_id: string
  sha256: string
  /** The name the client gave; for display only. */
  file_name: string
  size_bytes: number
  state_count: number
  /** Transition elements in the file (a directed pair counts twice). */
  transition_count: number
  offset_x: number
  offset_y: number
  offset_z: number
  rotation_deg: number
  scale: number
  /** 0 hide all, 1 nodes and paths, 2 nodes only, 3 paths only (SPEC §9). */
  display_mode: number
  created_at: string
  updated_at: string
}
