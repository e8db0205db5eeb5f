import type { Kysely } from 'kysely'

/**
 * Location POIs and the building's placement (issue 18). A positioned object (SPEC §3, the
 * tracked objects of 0018) may name its model category from the location category tree
 * (`findlocationsystempoicategory`, id '0'): `tracked_objects.category_id`, '' when none. A
 * project keeps the heading and scale its anchors solved beside its location
 * (`project_center_*` of 0002): `projects.location_heading` (degrees clockwise from north of
 * the model's +y axis) and `projects.location_scale` (model metres to earth metres), null until
 * the building is placed by its anchors. Conventions of ./tables.ts.
 */

/** Adds the columns. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tracked_objects')
    .addColumn('category_id', 'text', (column) => column.notNull().defaultTo(''))
    .execute()
  await db.schema.alterTable('projects').addColumn('location_heading', 'double precision').execute()
  await db.schema.alterTable('projects').addColumn('location_scale', 'double precision').execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('location_scale').execute()
  await db.schema.alterTable('projects').dropColumn('location_heading').execute()
  await db.schema.alterTable('tracked_objects').dropColumn('category_id').execute()
}
