import { type Generated, type Kysely, sql } from 'kysely'

/**
 * Building models of a project (row types in ./building-tables.ts): floors, models with their
 * placement, the stored structure manifest, and converted library models not yet in a project.
 * Model bytes live in the content-addressed file store under `sha256`; rows sharing bytes (a
 * copied project, a library model added twice) count as references, and bytes no row names are
 * removed (server/modules/building/building-files.ts). Dialect-neutral like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('building_floors')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('elevation', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('sort_order', 'integer', (column) => column.notNull().defaultTo(0))
    // the floor's id in a manifest or SBM floor metadata ('F1'), so re-uploads update it
    .addColumn('floor_key', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('building_floors_project_key_index')
    .on('building_floors')
    .columns(['project_id', 'floor_key'])
    .unique()
    .execute()

  await db.schema
    .createTable('building_models')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('floor_id', 'text', (column) =>
      column.references('building_floors.id').onDelete('set null'),
    )
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('triangle_count', 'bigint', (column) => column.notNull())
    .addColumn('has_stored_bvh', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('preview_path', 'text')
    .addColumn('position_x', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('position_y', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('position_z', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('rotation_x', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('rotation_y', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('rotation_z', 'double precision', (column) => column.notNull().defaultTo(0))
    .addColumn('scale_x', 'double precision', (column) => column.notNull().defaultTo(1))
    .addColumn('scale_y', 'double precision', (column) => column.notNull().defaultTo(1))
    .addColumn('scale_z', 'double precision', (column) => column.notNull().defaultTo(1))
    .addColumn('is_visible', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addCheckConstraint('building_models_role_check', sql`role in ('shell', 'floor', 'model')`)
    .addCheckConstraint(
      'building_models_flags_check',
      sql`has_stored_bvh in (0, 1) and is_visible in (0, 1)`,
    )
    .execute()
  await db.schema
    .createIndex('building_models_project_index')
    .on('building_models')
    .columns(['project_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('building_models_sha256_index')
    .on('building_models')
    .column('sha256')
    .execute()
  await db.schema
    .createIndex('building_models_floor_index')
    .on('building_models')
    .column('floor_id')
    .execute()

  await db.schema
    .createTable('building_structures')
    .addColumn('project_id', 'text', (column) =>
      column.primaryKey().references('projects.id').onDelete('cascade'),
    )
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('manifest_json', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('building_structures_sha256_index')
    .on('building_structures')
    .column('sha256')
    .execute()

  await db.schema
    .createTable('converted_models')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('source_name', 'text', (column) => column.notNull())
    .addColumn('source_format', 'text', (column) => column.notNull())
    .addColumn('category_zip_uuid', 'text')
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('triangle_count', 'bigint', (column) => column.notNull())
    .addColumn('has_stored_bvh', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('converted_models_sha256_index')
    .on('converted_models')
    .column('sha256')
    .execute()
}

/** Drops what `up` created, dependants first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('converted_models').execute()
  await db.schema.dropTable('building_structures').execute()
  await db.schema.dropTable('building_models').execute()
  await db.schema.dropTable('building_floors').execute()
}

/**
 * Row types of the tables of this migration, in the conventions of ./tables.ts
 * (text UUID ids, ISO text timestamps, 0/1 booleans).
 */
export interface BuildingTables {
  building_floors: BuildingFloorsTable
  building_models: BuildingModelsTable
  building_structures: BuildingStructuresTable
  converted_models: ConvertedModelsTable
}

/** A floor of a building project. */
export interface BuildingFloorsTable {
  id: string
  project_id: string
  name: string
  elevation: number
  sort_order: number
  /** The floor's id in a manifest or SBM floor metadata; unique per project when set. */
  floor_key: string | null
  created_at: string
  updated_at: string
}

/** A model of a project's model library; its bytes are the stored file `sha256`. */
export interface BuildingModelsTable {
  id: string
  project_id: string
  name: string
  file_name: string
  role: 'shell' | 'floor' | 'model'
  floor_id: string | null
  sha256: string
  /** bigint in PostgreSQL arrives as text: read through Number(). */
  size_bytes: number | string
  triangle_count: number | string
  has_stored_bvh: number
  /** The stored thumbnail PNG (0010 renamed the unused `preview_path` to this). */
  preview_sha256: string | null
  position_x: Generated<number>
  position_y: Generated<number>
  position_z: Generated<number>
  rotation_x: Generated<number>
  rotation_y: Generated<number>
  rotation_z: Generated<number>
  scale_x: Generated<number>
  scale_y: Generated<number>
  scale_z: Generated<number>
  is_visible: Generated<number>
  created_at: string
  updated_at: string
}

/** A project's uploaded building-structure manifest (one per project). */
export interface BuildingStructuresTable {
  project_id: string
  sha256: string
  name: string
  /** The validated manifest, as JSON text. */
  manifest_json: string
  created_at: string
  updated_at: string
}

/** An SBM made by a conversion, served by its id until nothing uses it. */
export interface ConvertedModelsTable {
  id: string
  owner_id: string | null
  sha256: string
  source_name: string
  source_format: string
  category_zip_uuid: string | null
  size_bytes: number | string
  triangle_count: number | string
  has_stored_bvh: number
  /** The stored thumbnail PNG (added by 0010). */
  preview_sha256: string | null
  created_at: string
}
