import { type Kysely, sql } from 'kysely'

/**
 * Projects, project tokens, uploaded files and their references (row types in
 * ./projects-tables.ts). Dialect-neutral like 0001. The list indexes lead with the filters of
 * the project home (owner, kind) and end with each sort key and the id, so a page of a 10,000-
 * project list is an index range scan, not a sort.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploaded_files')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('sha256', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'integer', (column) => column.notNull())
    .addColumn('content_type', 'text', (column) => column.notNull())
    .addColumn('extension', 'text', (column) => column.notNull())
    .addColumn('original_name', 'text', (column) => column.notNull())
    .addColumn('thumbnail_sha256', 'text')
    .addColumn('owner_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    // no foreign key: a project's delete handles its uploads itself (see projects.service.ts)
    .addColumn('project_id', 'text')
    .addColumn('purpose', 'text', (column) => column.notNull().defaultTo('image'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addCheckConstraint('uploaded_files_extension_check', sql`extension in ('jpg', 'png')`)
    .addCheckConstraint('uploaded_files_purpose_check', sql`purpose in ('image', 'project-cover')`)
    .execute()
  await db.schema
    .createIndex('uploaded_files_sha256_index')
    .on('uploaded_files')
    .column('sha256')
    .execute()
  await db.schema
    .createIndex('uploaded_files_thumbnail_sha256_index')
    .on('uploaded_files')
    .column('thumbnail_sha256')
    .execute()
  await db.schema
    .createIndex('uploaded_files_project_id_index')
    .on('uploaded_files')
    .column('project_id')
    .execute()
  await db.schema
    .createIndex('uploaded_files_created_at_index')
    .on('uploaded_files')
    .column('created_at')
    .execute()

  await db.schema
    .createTable('file_references')
    .addColumn('file_id', 'text', (column) =>
      column.notNull().references('uploaded_files.id').onDelete('cascade'),
    )
    .addColumn('holder', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('file_references_primary_key', ['file_id', 'holder'])
    .execute()
  await db.schema
    .createIndex('file_references_holder_index')
    .on('file_references')
    .column('holder')
    .execute()

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('area_id', 'text')
    .addColumn('area_name', 'text')
    .addColumn('detailedaddress', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('use_shadow_editor_render', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('prewiewpath_uuid', 'text', (column) => column.references('uploaded_files.id'))
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('gis_width', 'double precision', (column) => column.notNull().defaultTo(600))
    .addColumn('gis_height', 'double precision', (column) => column.notNull().defaultTo(800))
    .addColumn('tile_radius', 'double precision', (column) => column.notNull().defaultTo(0.5))
    .addColumn('title_level', 'integer', (column) => column.notNull().defaultTo(15))
    .addColumn('tile_coordinates', 'text')
    .addColumn('project_center_lng', 'double precision')
    .addColumn('project_center_lat', 'double precision')
    .addColumn('shell_json_path', 'text')
    .addColumn('owner_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('is_paid', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('is_case', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addCheckConstraint('projects_kind_check', sql`kind in ('city', 'building')`)
    .addCheckConstraint(
      'projects_flags_check',
      sql`use_shadow_editor_render in (0, 1) and is_paid in (0, 1) and is_case in (0, 1)`,
    )
    .execute()
  for (const sortKey of ['updated_at', 'created_at', 'name'] as const) {
    await db.schema
      .createIndex(`projects_owner_kind_${sortKey}_index`)
      .on('projects')
      .columns(['owner_id', 'kind', sortKey, 'id'])
      .execute()
    // admins list everyone's projects of a kind
    await db.schema
      .createIndex(`projects_kind_${sortKey}_index`)
      .on('projects')
      .columns(['kind', sortKey, 'id'])
      .execute()
  }
  await db.schema.createIndex('projects_is_case_index').on('projects').column('is_case').execute()
  await db.schema
    .createIndex('projects_prewiewpath_uuid_index')
    .on('projects')
    .column('prewiewpath_uuid')
    .execute()

  await db.schema
    .createTable('project_tokens')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('revoked_at', 'text')
    .execute()
  await db.schema
    .createIndex('project_tokens_project_id_index')
    .on('project_tokens')
    .column('project_id')
    .execute()
}

/** Drops what `up` created, dependants first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_tokens').execute()
  await db.schema.dropTable('projects').execute()
  await db.schema.dropTable('file_references').execute()
  await db.schema.dropTable('uploaded_files').execute()
}
