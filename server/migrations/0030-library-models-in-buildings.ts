import type { Kysely } from 'kysely'

/**
 * Library models in building projects (issue 21): the model library of 0028 serves building
 * projects too. A building's models stand at scene metres (`x`, `y`, `z`; y is up) where a
 * city's stand on the map (`lng`, `lat`, `height`); the columns of the other kind stay 0.
 * Conventions of ./tables.ts.
 */

const sceneColumns = ['x', 'y', 'z'] as const

/** Adds the scene-metre columns (one statement each: SQLite adds one column at a time). */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of sceneColumns) {
    await db.schema
      .alterTable('city_models')
      .addColumn(column, 'double precision', (definition) => definition.notNull().defaultTo(0))
      .execute()
  }
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...sceneColumns].reverse()) {
    await db.schema.alterTable('city_models').dropColumn(column).execute()
  }
}
