import type { Kysely } from 'kysely'

/**
 * Where a template model's files are in the store's `template-models` area (issue 22: the
 * files moved from DATA_DIR into the file store, which may be a bucket). Null: the folder named
 * by the model's id, as every model made before this migration and every new model has it. A
 * model whose SBM was replaced names the new folder its files were written to, so the row
 * switches to whole new files in one update (a bucket has no folder rename to swap them);
 * the old folder goes afterwards. Row type: `TemplateModelsTable` (0009). Conventions of
 * ./tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('template_models').addColumn('files_folder', 'text').execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('template_models').dropColumn('files_folder').execute()
}
