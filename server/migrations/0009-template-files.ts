import type { Kysely } from 'kysely'

/**
 * The file side of POI templates (issue 15): the models made from 3D template zips and the
 * stored batch-POI files. Their bytes live in folders of their own under DATA_DIR (one per
 * template model, one file per batch file), never in the shared content-addressed store, so no
 * other area's clean-up can remove bytes a template still shows. Dialect-neutral like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('template_models')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // null: a model of the seeded system library, shown to everyone
    .addColumn('owner_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
    .addColumn('source_name', 'text', (column) => column.notNull())
    .addColumn('source_format', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('triangle_count', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('template_models_owner_index')
    .on('template_models')
    .column('owner_id')
    .execute()

  await db.schema
    .createTable('poi_batch_files')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    // the POI template the file was filled for
    .addColumn('template_id', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('row_count', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('poi_batch_files_owner_index')
    .on('poi_batch_files')
    .column('owner_id')
    .execute()
}

/** Drops what `up` created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('poi_batch_files').execute()
  await db.schema.dropTable('template_models').execute()
}

/** Row types of the tables above, for Kysely (joined into `Tables` in ./tables.ts). */
export interface TemplateFileTables {
  template_models: TemplateModelsTable
  poi_batch_files: PoiBatchFilesTable
}

/**
 * A model made from a 3D template zip: its files are the store's `template-models/<folder>/`
 * (DATA_DIR/template-models/ on a folder store), the folder being `files_folder` or the id.
 */
export interface TemplateModelsTable {
  id: string
  owner_id: string | null
  /** The model's name inside the zip; for display only. */
  source_name: string
  source_format: string
  /** Bytes of the SBM. */
  size_bytes: number
  triangle_count: number
  created_at: string
  /** The folder of its files when not its id (0036): set when its SBM was replaced. */
  files_folder: string | null
}

/**
 * A filled batch-POI file that passed validation: the store's `poi-batch-files/<id>.xlsx`
 * (DATA_DIR/poi-batch-files/ on a folder store).
 */
export interface PoiBatchFilesTable {
  id: string
  owner_id: string
  template_id: string
  file_name: string
  size_bytes: number
  row_count: number
  created_at: string
}
