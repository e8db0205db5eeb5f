import type { Kysely } from 'kysely'

/**
 * Materials (issue 21 item 4, SPEC §7 `/materialManager/*`): a user's PBR material library and
 * the assignments of those materials to meshes of building models. An assignment is an override
 * drawn over the model (its SBM stays untouched), keyed by the mesh name a pick reports.
 * Texture maps are uploads (`uploaded_files` ids, served at /web/files/). Conventions of
 * ./tables.ts; no foreign keys: the materials service removes what hangs off a deleted row.
 */
export interface MaterialTables {
  materials: MaterialsTable
  material_assignments: MaterialAssignmentsTable
}

/** One material of a user's library. */
export interface MaterialsTable {
  id: string
  owner_id: string
  name: string
  /** `#rrggbb` (sRGB). */
  base_color: string
  metalness: number
  roughness: number
  /** `#rrggbb`; black is no glow. */
  emissive: string
  /** Served upload names (`<uuid>.png|jpg`) or ''. */
  base_color_map: string
  normal_map: string
  emissive_map: string
  metal_rough_map: string
  created_at: string
  updated_at: string
}

/** A material drawn on one mesh of one building model. */
export interface MaterialAssignmentsTable {
  id: string
  project_id: string
  model_id: string
  mesh_name: string
  material_id: string
  created_at: string
}

/** Creates `materials` and `material_assignments`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('materials')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('owner_id', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('base_color', 'text', (column) => column.notNull())
    .addColumn('metalness', 'double precision', (column) => column.notNull())
    .addColumn('roughness', 'double precision', (column) => column.notNull())
    .addColumn('emissive', 'text', (column) => column.notNull())
    .addColumn('base_color_map', 'text', (column) => column.notNull())
    .addColumn('normal_map', 'text', (column) => column.notNull())
    .addColumn('emissive_map', 'text', (column) => column.notNull())
    .addColumn('metal_rough_map', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('materials_owner_index')
    .on('materials')
    .columns(['owner_id', 'name'])
    .execute()
  await db.schema
    .createTable('material_assignments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('model_id', 'text', (column) => column.notNull())
    .addColumn('mesh_name', 'text', (column) => column.notNull())
    .addColumn('material_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  // one material per mesh: assigning again replaces
  await db.schema
    .createIndex('material_assignments_mesh_index')
    .on('material_assignments')
    .columns(['model_id', 'mesh_name'])
    .unique()
    .execute()
  await db.schema
    .createIndex('material_assignments_project_index')
    .on('material_assignments')
    .column('project_id')
    .execute()
  await db.schema
    .createIndex('material_assignments_material_index')
    .on('material_assignments')
    .column('material_id')
    .execute()
}

/** Drops the tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('material_assignments').execute()
  await db.schema.dropTable('materials').execute()
}
