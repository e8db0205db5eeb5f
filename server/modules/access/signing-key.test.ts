import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { signedInReader } from './project-access'
import { resolveUrlSigningKey } from './signing-key'
import { createUrlSigner, urlSigningKeyFile } from './url-signer'

/**
 * Issue 22 item 2: every server process signs file addresses with one key, shared through the
 * database (or URL_SIGNING_KEY), not through a shared DATA_DIR. On SQLite, and on PostgreSQL
 * when DATABASE_URL names one.
 */

const resource = 'tiles/6f1c4d2e-8a0b-4c3d-9e2f-1a2b3c4d5e6f/1/tileset.json'

describe('the URL-signing key', () => {
  let first: TestApp
  const others: TestApp[] = []
  beforeAll(async () => {
    first = await createTestApp({ seed: false })
  })
  afterAll(async () => {
    for (const other of others) await other.close()
    await first?.close()
  })

  const grantOf = (testApp: TestApp) =>
    testApp.app.deps.services.access.fileGrant(resource, signedInReader)
  const accepts = (testApp: TestApp, grant: string) =>
    testApp.app.deps.services.access.checkFileGrant(resource, grant)

  it('is the same in two app instances on one database, and in no file', async () => {
    const second = await createTestApp({ sharing: first, seed: false })
    others.push(second)
    expect(await accepts(second, grantOf(first))).toBe(true)
    expect(await accepts(first, grantOf(second))).toBe(true)
    // nothing two processes must agree on is left in DATA_DIR
    expect(existsSync(urlSigningKeyFile(first.config.dataDir))).toBe(false)
    const rows = await first.app.deps.database.db.selectFrom('server_keys').selectAll().execute()
    expect(rows.map((row) => row.name)).toEqual(['url-signing'])
  })

  it('is the one that landed first when processes start at the same moment', async () => {
    const { db } = first.app.deps.database
    const before = await db.selectFrom('server_keys').selectAll().executeTakeFirstOrThrow()
    await db.deleteFrom('server_keys').execute()
    try {
      const resolved = await Promise.all(
        Array.from({ length: 6 }, () =>
          resolveUrlSigningKey({
            configured: undefined,
            db,
            legacyKeyFile: join(first.config.dataDir, 'no-such-key'),
            nowMs: first.clock.nowMs(),
          }),
        ),
      )
      const stored = await db.selectFrom('server_keys').selectAll().execute()
      expect(stored).toHaveLength(1)
      for (const found of resolved)
        expect(found?.key.toString('base64')).toBe(stored[0]!.key_base64)
    } finally {
      await db.deleteFrom('server_keys').execute()
      await db.insertInto('server_keys').values(before).execute()
    }
  })

  it('keeps the key of an earlier DATA_DIR/keys file, so addresses handed out stay valid', async () => {
    const { db } = first.app.deps.database
    const before = await db.selectFrom('server_keys').selectAll().executeTakeFirstOrThrow()
    await db.deleteFrom('server_keys').execute()
    const keyFile = join(first.config.dataDir, 'earlier', 'keys', 'url-signing.key')
    const earlierKey = randomBytes(32)
    await mkdir(dirname(keyFile), { recursive: true })
    await writeFile(keyFile, earlierKey, { mode: 0o600 })
    try {
      const nowMs = first.clock.nowMs()
      const handedOut = createUrlSigner(earlierKey).grant(resource, null, nowMs)
      const resolved = await resolveUrlSigningKey({
        configured: undefined,
        db,
        legacyKeyFile: keyFile,
        nowMs,
      })
      expect(resolved?.source).toBe('keyFile')
      expect(createUrlSigner(resolved!.key).verify(resource, handedOut, nowMs)).toEqual({
        scope: null,
      })
      // a process started later, without that file, reads the same key from the database
      const later = await resolveUrlSigningKey({
        configured: undefined,
        db,
        legacyKeyFile: join(first.config.dataDir, 'no-such-key'),
        nowMs,
      })
      expect(later).toEqual({ key: earlierKey, source: 'database' })
    } finally {
      await db.deleteFrom('server_keys').execute()
      await db.insertInto('server_keys').values(before).execute()
    }
  })

  it('is read, never written, by a job worker, which waits for an API process to store it', async () => {
    const { db } = first.app.deps.database
    const before = await db.selectFrom('server_keys').selectAll().executeTakeFirstOrThrow()
    await db.deleteFrom('server_keys').execute()
    const asWorker = () =>
      resolveUrlSigningKey({
        configured: undefined,
        db,
        legacyKeyFile: urlSigningKeyFile(first.config.dataDir),
        nowMs: first.clock.nowMs(),
        readOnly: true,
      })
    try {
      expect(await asWorker()).toBeUndefined()
      expect(await db.selectFrom('server_keys').selectAll().execute()).toEqual([])
    } finally {
      await db.insertInto('server_keys').values(before).execute()
    }
    expect((await asWorker())?.key.toString('base64')).toBe(before.key_base64)
  })

  it('is URL_SIGNING_KEY when it is set, in every process that has it', async () => {
    const key = randomBytes(32)
    const configured = await createTestApp({
      sharing: first,
      seed: false,
      env: { URL_SIGNING_KEY: key.toString('base64') },
    })
    others.push(configured)
    const grant = grantOf(configured)
    const nowMs = configured.clock.nowMs()
    expect(createUrlSigner(key).verify(resource, grant, nowMs)).toEqual({ scope: null })
    // the database's key is not this one: a process without the variable refuses its grants
    expect(await accepts(first, grant)).toBe(false)
    expect(await accepts(configured, grantOf(first))).toBe(false)
  })
})
