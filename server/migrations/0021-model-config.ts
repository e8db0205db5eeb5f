import type { Kysely } from 'kysely'

/**
 * Model configuration (issue 21, contract/model-config.ts): finished structure merges (their
 * ZIP is the store's `model-merges/<row id>.zip`, DATA_DIR/model-merges on a folder store) and
 * per-model details (SPEC §7 `addModelDetail`…: manufacturer, product, serial, install date).
 * Conventions of ./tables.ts.
 * No foreign keys: a model's delete removes its details through the model-config service.
 */
export interface ModelConfigTables {
  model_merges: ModelMergesTable
  model_details: ModelDetailsTable
}

/** One finished structure merge. */
export interface ModelMergesTable {
  id: string
  owner_id: string
  output_name: string
  /** The building project it was installed into, or null. */
  project_id: string | null
  size_bytes: number
  /** JSON text of the merge's status datum (steps, floors, warnings) as it ended. */
  status_json: string
  created_at: string
}

/** The details of one building model (SPEC §7 model detail calls). */
export interface ModelDetailsTable {
  id: string
  model_id: string
  project_id: string
  company: string
  product: string
  serial_number: string
  /** `YYYY-MM-DD` or empty. */
  install_date: string
  description: string
  created_at: string
  updated_at: string
}

/** Creates `model_merges` and `model_details`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('model_merges')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('output_name', 'text', (column) => column.notNull())
    .addColumn('project_id', 'text')
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('status_json', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('model_details')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('company', 'text', (column) => column.notNull())
    .addColumn('product', 'text', (column) => column.notNull())
    .addColumn('serial_number', 'text', (column) => column.notNull())
    .addColumn('install_date', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('model_details_model_index')
    .on('model_details')
    .column('model_id')
    .unique()
    .execute()
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_details').execute()
  await db.schema.dropTable('model_merges').execute()
}
