import { type Kysely, sql } from 'kysely'

/**
 * Code-confirmed change of a person's phone or e-mail (issue 21): a verification code (0003) may
 * now be for `purpose` 'change', sent to the new phone or address; the change is made only with
 * it. SQLite cannot alter a table's check, so the table is made again with the wider purpose
 * check and the rows are copied (codes live ten minutes; live ones keep working). Conventions
 * of ./tables.ts.
 */

const columns =
  'id, channel, recipient, purpose, code_hash, tries, created_at, expires_at, consumed_at'

/**
 * Makes `verification_codes` again, allowing `purposes`, with the rows whose purpose is one of
 * them. `interim` names the new table until the old one is gone (its primary key index keeps a
 * name of its own in PostgreSQL, so `up` and `down` use different ones).
 */
async function remake(
  db: Kysely<unknown>,
  interim: string,
  purposes: readonly string[],
): Promise<void> {
  const allowed = sql.join(purposes.map((purpose) => sql.lit(purpose)))
  await db.schema
    .createTable(interim)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('recipient', 'text', (column) => column.notNull())
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('tries', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('consumed_at', 'text')
    .addCheckConstraint(`${interim}_channel_check`, sql`channel in ('sms', 'email')`)
    .addCheckConstraint(`${interim}_purpose_check`, sql`purpose in (${allowed})`)
    .execute()
  await sql`insert into ${sql.table(interim)} (${sql.raw(columns)}) select ${sql.raw(columns)} from verification_codes where purpose in (${allowed})`.execute(
    db,
  )
  await db.schema.dropTable('verification_codes').execute()
  await db.schema.alterTable(interim).renameTo('verification_codes').execute()
  await db.schema
    .createIndex('verification_codes_recipient_index')
    .on('verification_codes')
    .columns(['channel', 'recipient', 'purpose', 'created_at'])
    .execute()
  await db.schema
    .createIndex('verification_codes_expires_at_index')
    .on('verification_codes')
    .column('expires_at')
    .execute()
}

/** Allows 'change' codes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await remake(db, 'verification_codes_with_change', ['register', 'forget', 'change'])
}

/** Undoes `up` (change codes are dropped). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await remake(db, 'verification_codes_without_change', ['register', 'forget'])
}
