import { type Kysely, sql } from 'kysely'

/**
 * What sign-up, sign-in limits, tickets and roles need (row types in ./tables.ts): the outbox of
 * the local message provider, verification codes, rate-limit events, sign-in lockouts, one-time
 * sign-in tickets, roles (seeded with the three built-in ones) and which user holds which role.
 * Dialect-neutral like 0001.
 */

/** Ids of the built-in roles: fixed, so every database agrees on them. */
export const builtinRoleIds = {
  admin: '00000000-0000-4000-8000-00000000a001',
  editor: '00000000-0000-4000-8000-00000000a002',
  guest: '00000000-0000-4000-8000-00000000a003',
} as const

/**
 * The menu keys the built-in roles start with, as they were when this migration was written
 * (a migration never changes; contract/role.ts holds today's list).
 */
const seededMenuKeys = {
  admin: [
    'projectManage.city',
    'projectManage.space',
    'projectManage.cases',
    'templateManage.list',
    'modelConfig.merge',
    'modelConfig.add',
    'modelConfig.conversion',
    'modelConfig.cases',
    'system.person',
    'system.security',
    'system.users',
    'system.roles',
    'system.issue',
    'orderManage.personal',
    'orderManage.myOrder',
    'orderManage.balance',
  ],
  editor: [
    'projectManage.city',
    'projectManage.space',
    'projectManage.cases',
    'templateManage.list',
    'modelConfig.merge',
    'modelConfig.add',
    'modelConfig.conversion',
    'modelConfig.cases',
    'system.person',
    'system.security',
    'orderManage.personal',
    'orderManage.myOrder',
    'orderManage.balance',
  ],
  guest: ['projectManage.cases', 'system.person'],
}

/** Creates the tables and seeds the three built-in roles. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('recipient', 'text', (column) => column.notNull())
    .addColumn('subject', 'text')
    .addColumn('text', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addCheckConstraint('outbox_channel_check', sql`channel in ('sms', 'email')`)
    .execute()
  await db.schema
    .createIndex('outbox_recipient_index')
    .on('outbox')
    .columns(['recipient', 'created_at'])
    .execute()
  await db.schema.createIndex('outbox_created_at_index').on('outbox').column('created_at').execute()

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('recipient', 'text', (column) => column.notNull())
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('tries', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('consumed_at', 'text')
    .addCheckConstraint('verification_codes_channel_check', sql`channel in ('sms', 'email')`)
    .addCheckConstraint('verification_codes_purpose_check', sql`purpose in ('register', 'forget')`)
    .execute()
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

  await db.schema
    .createTable('rate_limit_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('bucket', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('rate_limit_events_bucket_index')
    .on('rate_limit_events')
    .columns(['bucket', 'created_at'])
    .execute()
  await db.schema
    .createIndex('rate_limit_events_created_at_index')
    .on('rate_limit_events')
    .column('created_at')
    .execute()

  await db.schema
    .createTable('sign_in_lockouts')
    .addColumn('account_key', 'text', (column) => column.primaryKey())
    .addColumn('failure_count', 'integer', (column) => column.notNull())
    .addColumn('last_failure_at', 'text', (column) => column.notNull())
    .addColumn('locked_until', 'text')
    .execute()
  await db.schema
    .createIndex('sign_in_lockouts_last_failure_at_index')
    .on('sign_in_lockouts')
    .column('last_failure_at')
    .execute()

  await db.schema
    .createTable('session_tickets')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('ticket_hash', 'text', (column) => column.notNull().unique())
    .addColumn('session_id', 'text', (column) =>
      column.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .execute()
  await db.schema
    .createIndex('session_tickets_expires_at_index')
    .on('session_tickets')
    .column('expires_at')
    .execute()

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('access_level', 'text', (column) => column.notNull())
    .addColumn('menu_keys', 'text', (column) => column.notNull())
    .addColumn('is_builtin', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addCheckConstraint(
      'roles_access_level_check',
      sql`access_level in ('admin', 'editor', 'guest')`,
    )
    .addCheckConstraint('roles_is_builtin_check', sql`is_builtin in (0, 1)`)
    .execute()
  const now = new Date().toISOString()
  await (db as Kysely<{ roles: Record<string, unknown> }>)
    .insertInto('roles')
    .values(
      (['admin', 'editor', 'guest'] as const).map((level) => ({
        id: builtinRoleIds[level],
        name: level,
        description: null,
        access_level: level,
        menu_keys: JSON.stringify(seededMenuKeys[level]),
        is_builtin: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute()

  // A user without a row here holds the built-in role of their level (users.role).
  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'text', (column) =>
      column.primaryKey().references('users.id').onDelete('cascade'),
    )
    // no cascade: a role that users hold cannot be deleted (roles.service.ts checks first)
    .addColumn('role_id', 'text', (column) => column.notNull().references('roles.id'))
    .addColumn('assigned_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('user_roles_role_id_index')
    .on('user_roles')
    .column('role_id')
    .execute()
}

/** Drops what `up` created, dependants first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'user_roles',
    'roles',
    'session_tickets',
    'sign_in_lockouts',
    'rate_limit_events',
    'verification_codes',
    'outbox',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
