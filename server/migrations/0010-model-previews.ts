import type { Kysely } from 'kysely'

/**
 * Model previews (issue #12 item 11): a library model and a converted model keep the stored
 * file (`sha256` in the content-addressed file store) of their thumbnail PNG. The unused
 * `preview_path` column of 0004 becomes `preview_sha256`; the address is made when serving, with
 * the same grant as the model's file. Row types stay in ./0004-building-models.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('building_models')
    .renameColumn('preview_path', 'preview_sha256')
    .execute()
  await db.schema.alterTable('converted_models').addColumn('preview_sha256', 'text').execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('converted_models').dropColumn('preview_sha256').execute()
  await db.schema
    .alterTable('building_models')
    .renameColumn('preview_sha256', 'preview_path')
    .execute()
}
