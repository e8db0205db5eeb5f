import { type Kysely, sql } from 'kysely'

/**
 * Offline packages of projects (issue 20 item 6): one row per build. The zip is written under
 * DATA_DIR/offline-packages/ as `<id>.zip.part` and renamed to `<id>.zip` only once complete and
 * synced; the row turns `ready` after that, so a row never names a half-written file. A build
 * cut short by a crash leaves a `building` row: the start-up recovery marks it `failed` and
 * removes its part file (server/modules/orders/offline-packages.service.ts).
 * At most one build per project runs at a time (partial unique index). Dialect-neutral like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('offline_packages')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) =>
      column.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('state', 'text', (column) => column.notNull())
    // 'full' (a paid project) or 'trial' (the development trial: watermarked)
    .addColumn('variant', 'text', (column) => column.notNull())
    .addColumn('is_watermarked', 'integer', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint')
    .addColumn('sha256', 'text')
    .addColumn('entry_count', 'integer')
    .addColumn('error_message_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .addCheckConstraint(
      'offline_packages_state_check',
      sql`state in ('building', 'ready', 'failed', 'superseded')`,
    )
    .addCheckConstraint('offline_packages_variant_check', sql`variant in ('full', 'trial')`)
    .execute()
  await db.schema
    .createIndex('offline_packages_project_index')
    .on('offline_packages')
    .columns(['project_id', 'created_at'])
    .execute()
  // one build at a time per project: a second request joins the running one
  await db.schema
    .createIndex('offline_packages_building_index')
    .on('offline_packages')
    .column('project_id')
    .unique()
    .where(sql.ref('state'), '=', 'building')
    .execute()
}

/** Drops what `up` created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('offline_packages').execute()
}

/** The tables of this migration. */
export interface OfflinePackageTables {
  offline_packages: OfflinePackagesTable
}

/** One build of a project's offline package. */
export interface OfflinePackagesTable {
  id: string
  project_id: string
  user_id: string | null
  state: 'building' | 'ready' | 'failed' | 'superseded'
  variant: 'full' | 'trial'
  is_watermarked: number
  size_bytes: number | string | null
  sha256: string | null
  entry_count: number | null
  /** Why the build failed: a catalogue id (contract/messages.ts). */
  error_message_id: string | null
  created_at: string
  finished_at: string | null
  /** The job queue's id of the build (0035): what a cancel request cancels. */
  job_id: string | null
}
