import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Database } from '../../plugins/db'
import { signingKeyBytes } from './url-signer'

/** The `server_keys` row of the URL-signing key (0037). */
const urlSigningKeyName = 'url-signing'

/** Where the URL-signing key came from, for the start-up log line. */
export type SigningKeySource = 'configuration' | 'database' | 'keyFile' | 'new'

/**
 * The key every server process signs file addresses with (issue 22 item 2: shared without a
 * shared folder). In order: URL_SIGNING_KEY when set; else the key in the database; else one
 * written there now, insert-if-absent, so processes starting together all read back the one
 * that landed first. The key written is the one an earlier version kept in `DATA_DIR/keys`
 * when that file exists here, so the addresses it handed out (valid up to a day) stay valid;
 * else 32 random bytes. Needs the migrated database.
 *
 * With `readOnly` (a job worker, which may start before any API process has migrated the
 * database and may not see the key file of theirs), nothing is written: undefined until an API
 * process has stored the key.
 */
export async function resolveUrlSigningKey(input: {
  configured: Buffer | undefined
  db: Database
  /** `urlSigningKeyFile(DATA_DIR)`: read, never written. */
  legacyKeyFile: string
  nowMs: number
  readOnly?: boolean
}): Promise<{ key: Buffer; source: SigningKeySource } | undefined> {
  if (input.configured !== undefined) return { key: input.configured, source: 'configuration' }
  const { db } = input
  const stored = async () => {
    const row = await db
      .selectFrom('server_keys')
      .select('key_base64')
      .where('name', '=', urlSigningKeyName)
      .executeTakeFirst()
    return row === undefined ? undefined : Buffer.from(row.key_base64, 'base64')
  }
  const existing = await stored()
  if (existing !== undefined) return { key: existing, source: 'database' }
  if (input.readOnly === true) return undefined
  const fromFile = await readLegacyKey(input.legacyKeyFile)
  await db
    .insertInto('server_keys')
    .values({
      name: urlSigningKeyName,
      key_base64: (fromFile ?? randomBytes(signingKeyBytes)).toString('base64'),
      created_at: new Date(input.nowMs).toISOString(),
    })
    // another process may have written it since we looked: its key stands, ours is dropped
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  const agreed = await stored()
  if (agreed === undefined) throw new Error('the URL-signing key could not be stored')
  const isOurs = fromFile !== undefined && agreed.equals(fromFile)
  return { key: agreed, source: isOurs ? 'keyFile' : 'new' }
}

/** The key file of an earlier version, or undefined when there is none. */
async function readLegacyKey(keyFile: string): Promise<Buffer | undefined> {
  try {
    const key = await readFile(keyFile)
    if (key.byteLength >= signingKeyBytes) return key
    throw new Error(`${keyFile} is not a signing key (too short); delete it`)
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined
    throw error
  }
}
