import { type Kysely, sql } from 'kysely'

/**
 * Accounts, sessions and notices. Dialect-neutral: only `text` and `integer` columns, checks
 * written in plain SQL both SQLite and PostgreSQL accept (conventions in ./tables.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('nickname', 'text')
    .addColumn('sex', 'text')
    .addColumn('tel', 'text', (column) => column.unique())
    .addColumn('email', 'text', (column) => column.unique())
    .addColumn('birthday', 'text')
    .addColumn('job_title', 'text')
    .addColumn('company', 'text')
    .addColumn('avatar', 'text')
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('disabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addCheckConstraint('users_role_check', sql`role in ('admin', 'editor', 'guest')`)
    .addCheckConstraint('users_disabled_check', sql`disabled in (0, 1)`)
    .execute()

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('revoked_at', 'text')
    .addCheckConstraint('sessions_kind_check', sql`kind in ('user', 'guest')`)
    .execute()
  await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute()
  await db.schema
    .createIndex('sessions_expires_at_index')
    .on('sessions')
    .column('expires_at')
    .execute()

  await db.schema
    .createTable('notices')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('author_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('notices_created_at_index')
    .on('notices')
    .column('created_at')
    .execute()

  await db.schema
    .createTable('notice_reads')
    .addColumn('notice_id', 'text', (column) =>
      column.notNull().references('notices.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('read_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('notice_reads_primary_key', ['notice_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('notice_reads_user_id_index')
    .on('notice_reads')
    .column('user_id')
    .execute()
}

/** Drops what `up` created, children first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notice_reads').execute()
  await db.schema.dropTable('notices').execute()
  await db.schema.dropTable('sessions').execute()
  await db.schema.dropTable('users').execute()
}
