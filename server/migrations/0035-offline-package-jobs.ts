import type { Kysely } from 'kysely'

/**
 * The job of each offline package build (issue 22 item 3: cancellation visible in the UI): the
 * id the job queue gave the build, so a cancel request answered by any API process can cancel
 * it through the queue (on PostgreSQL the job's row tells the worker running it, wherever that
 * is). Null for builds made before this migration and for the moment between a build's row and
 * its job. Row type: `OfflinePackagesTable` (0016). Conventions of ./tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('offline_packages').addColumn('job_id', 'text').execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('offline_packages').dropColumn('job_id').execute()
}
