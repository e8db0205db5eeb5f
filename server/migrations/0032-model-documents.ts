import type { Kysely } from 'kysely'

/**
 * Documents attached to model details (issue 21 item 5, contract/model-config.ts): manuals,
 * certificates and data sheets of a building project's models. Conventions of ./tables.ts.
 * The bytes live in the content-addressed file store under `sha256` (the project's files), never
 * in the database; no foreign keys: deleting the details or the project removes these rows
 * through the model details service, which frees bytes no row names once it has committed.
 */
export interface ModelDocumentTables {
  model_documents: ModelDocumentsTable
}

/** One document of a model's details. */
export interface ModelDocumentsTable {
  id: string
  /** The `model_details` row it belongs to. */
  detail_id: string
  project_id: string
  /** The checked name it was uploaded under. */
  file_name: string
  /** The type its content was recognised as. */
  content_type: string
  sha256: string
  size_bytes: number
  created_at: string
}

/** Creates `model_documents`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('model_documents')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('detail_id', 'text', (column) => column.notNull())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('content_type', 'text', (column) => column.notNull())
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('model_documents_detail_index')
    .on('model_documents')
    .columns(['detail_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('model_documents_project_index')
    .on('model_documents')
    .column('project_id')
    .execute()
  await db.schema
    .createIndex('model_documents_sha256_index')
    .on('model_documents')
    .column('sha256')
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_documents').execute()
}
