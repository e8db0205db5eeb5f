import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * The one signer of file addresses (tiles, PMTiles basemaps, model and structure files, GML
 * files): a grant is `<expiry in seconds, base 36>.<scope>.<HMAC-SHA256, base64url>` over the
 * resource, the expiry and the scope. A `find` call that checked the caller hands the address
 * out; the file routes check it without headers, since the engine's `fetch`, loaders.gl and
 * MapLibre's `pmtiles://` send none.
 *
 * The scope says whose the address is: `-` for a signed-in reader (owner, admin, a case's
 * viewer), else the id of the project token it was handed to, so the file routes can refuse it
 * the moment that token is revoked (project-access.ts checks the scope on every request).
 *
 * Expiries are rounded up to a step, so one address stays the same for a while and browser
 * caches keep working: 12 h for signed-in readers (valid 12–24 h), 1 h for token holders
 * (valid 1–2 h; they renew by calling the project's find calls again, which answer fresh
 * addresses).
 */
export interface UrlSigner {
  /** A grant for the resource; `scope` is a project token's id, or null for a signed-in reader. */
  grant(resource: string, scope: string | null, nowMs: number): string
  /**
   * The scope of a grant this server made for this resource that has not expired
   * (null for a signed-in reader's), or undefined when it is not such a grant.
   */
  verify(resource: string, grant: string, nowMs: number): { scope: string | null } | undefined
}

/** Grants of signed-in readers last between this and twice this. */
export const readerGrantStepMs = 12 * 3_600_000
/** Grants handed to project-token holders last between this and twice this. */
export const tokenGrantStepMs = 3_600_000

const unscoped = '-'
const grantPattern = /^([0-9a-z]{1,12})\.(-|[0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/
const keyBytes = 32

/** Where the signing key lives under DATA_DIR. */
export function urlSigningKeyFile(dataDir: string): string {
  return join(dataDir, 'keys', 'url-signing.key')
}

/**
 * Opens the signer with the key in `keyFile`, made on first use (32 random bytes, readable by
 * the server's user only). Servers sharing DATA_DIR share the key, so any of them can check a
 * grant another made, and handed-out addresses survive restarts. Runs while the app is built,
 * hence synchronous.
 */
export function openUrlSigner(keyFile: string): UrlSigner {
  const key = loadOrCreateKey(keyFile)
  const signatureOf = (resource: string, expiry: string, scope: string) =>
    createHmac('sha256', key).update(`${resource}\n${expiry}\n${scope}`).digest('base64url')
  return {
    grant(resource, scope, nowMs) {
      const stepMs = scope === null ? readerGrantStepMs : tokenGrantStepMs
      const expirySeconds = (Math.ceil((nowMs + stepMs) / stepMs) * stepMs) / 1000
      const expiry = expirySeconds.toString(36)
      const scopeText = scope ?? unscoped
      return `${expiry}.${scopeText}.${signatureOf(resource, expiry, scopeText)}`
    },
    verify(resource, grant, nowMs) {
      const match = grantPattern.exec(grant)
      if (!match) return undefined
      const [, expiry, scopeText, signature] = match as unknown as [string, string, string, string]
      if (Number.parseInt(expiry, 36) * 1000 <= nowMs) return undefined
      const expected = Buffer.from(signatureOf(resource, expiry, scopeText))
      const given = Buffer.from(signature)
      if (expected.byteLength !== given.byteLength || !timingSafeEqual(expected, given)) {
        return undefined
      }
      return { scope: scopeText === unscoped ? null : scopeText }
    },
  }
}

/**
 * The key in `keyFile`, made on first use (32 random bytes, readable by the server's user only);
 * also the payment provider's callback key (server/modules/orders/payment-providers.ts).
 */
export function loadOrCreateKey(keyFile: string): Buffer {
  try {
    const key = readFileSync(keyFile)
    if (key.byteLength >= keyBytes) return key
    throw new Error(`${keyFile} is not a signing key (too short); delete it`)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error
  }
  mkdirSync(dirname(keyFile), { recursive: true })
  // 'wx' so two processes starting together cannot overwrite each other's key
  try {
    writeFileSync(keyFile, randomBytes(keyBytes), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error
  }
  return readFileSync(keyFile)
}
