import type { Kysely } from 'kysely'

/**
 * Keys every server process must share (issue 22 item 2: nothing two processes must agree on
 * lives in one machine's folder): one row per key, written once by whichever process comes
 * first (insert-if-absent) and read by all. Now only `url-signing`, the key of every signed file
 * address (server/modules/access/signing-key.ts). Conventions of ./tables.ts.
 */
export interface ServerKeyTables {
  server_keys: ServerKeysTable
}

/** One shared key. */
export interface ServerKeysTable {
  /** What the key is for, e.g. 'url-signing'. */
  name: string
  /** The key's bytes, base64 (text in both dialects). */
  key_base64: string
  created_at: string
}

/** Creates `server_keys`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_keys')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('key_base64', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
}

/** Undoes `up`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_keys').execute()
}
