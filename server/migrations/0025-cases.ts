import { randomUUID } from 'node:crypto'
import { type Kysely, sql } from 'kysely'

/**
 * Project cases curated by admins (SPEC §7 `/case` menu and detail, issue 19 item 6): case
 * menus are the gallery's categories, in their order; a case detail shows one project in the
 * gallery with its own title, description, cover and place. A project is a case (readable by
 * everyone, `projects.is_case`) exactly while it has a detail: the cases service keeps the two
 * together. The cases seeded before this migration get a detail each, uncategorised, in the
 * order they were made. Conventions of ./tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('case_menus')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('case_details')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().unique().references('projects.id').onDelete('cascade'),
    )
    // null: uncategorised (a deleted menu leaves its cases here)
    .addColumn('menu_id', 'text')
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('cover_file_id', 'text')
    .addColumn('cover_name', 'text')
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('case_details_menu_order')
    .on('case_details')
    .columns(['menu_id', 'sort_order'])
    .execute()
  const seeded = await sql<{ id: string; name: string; description: string; created_at: string }>`
    select id, name, description, created_at from projects where is_case = 1
    order by created_at, id`.execute(db)
  for (const [index, project] of seeded.rows.entries()) {
    await sql`insert into case_details
      (id, project_id, menu_id, title, description, cover_file_id, cover_name, sort_order,
       created_at, updated_at)
      values (${randomUUID()}, ${project.id}, null, ${project.name},
       ${project.description}, null, null, ${index}, ${project.created_at},
       ${project.created_at})`.execute(db)
  }
}

/** Drops the tables (the projects keep their `is_case`). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('case_details').execute()
  await db.schema.dropTable('case_menus').execute()
}

/** The tables of this migration. */
export interface CaseTables {
  case_menus: CaseMenusTable
  case_details: CaseDetailsTable
}

/** One category of the case gallery. */
export interface CaseMenusTable {
  id: string
  name: string
  /** Gallery order, ascending; the service keeps it 0…n−1. */
  sort_order: number
  created_at: string
  updated_at: string
}

/** One project shown in the case gallery. */
export interface CaseDetailsTable {
  id: string
  /** At most one detail per project. */
  project_id: string
  menu_id: string | null
  title: string
  description: string
  /** The `uploaded_files` row of its own cover (holder `case:<id>`), or null: the project's. */
  cover_file_id: string | null
  /** The served name of that cover, `<uuid>.<ext>`. */
  cover_name: string | null
  /** Order inside its menu, ascending. */
  sort_order: number
  created_at: string
  updated_at: string
}
