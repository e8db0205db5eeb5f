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
/** The fewest bytes of a signing key (HMAC-SHA256's own size). */
export const signingKeyBytes = 32

/**
 * Where earlier versions kept the signing key under DATA_DIR: read once, so the addresses they
 * handed out stay valid when the key moves into the database (signing-key.ts).
 */
export function urlSigningKeyFile(dataDir: string): string {
  return join(dataDir, 'keys', 'url-signing.key')
}

/**
 * A signing key written as text (URL_SIGNING_KEY): hex digits, or base64 / base64url, of at
 * least {@link signingKeyBytes} bytes; undefined when the text is neither or too short.
 */
export function signingKeyOfText(text: string): Buffer | undefined {
  const trimmed = text.trim()
  let key: Buffer
  if (/^(?:[0-9a-fA-F]{2})+$/.test(trimmed)) key = Buffer.from(trimmed, 'hex')
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) key = Buffer.from(trimmed, 'base64')
  else return undefined
  return key.byteLength >= signingKeyBytes ? key : undefined
}

/** The signer of every file address, with this key. */
export function createUrlSigner(key: Buffer): UrlSigner {
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

/** A signer made before its key is known: the key is in the database, read once it is migrated. */
export interface DeferredUrlSigner extends UrlSigner {
  /** Gives the signer its key; until then it signs and checks nothing (it throws). */
  load(key: Buffer): void
}

/**
 * The app's signer, composed while the app is built (synchronously) and given its key when the
 * app gets ready (server/composition.ts), before the first request.
 */
export function deferredUrlSigner(): DeferredUrlSigner {
  let signer: UrlSigner | undefined
  const loaded = () => {
    if (signer === undefined) throw new Error('the URL-signing key is not loaded yet')
    return signer
  }
  return {
    load(key) {
      signer = createUrlSigner(key)
    },
    grant: (resource, scope, nowMs) => loaded().grant(resource, scope, nowMs),
    verify: (resource, grant, nowMs) => loaded().verify(resource, grant, nowMs),
  }
}

/**
 * The key in `keyFile`, made on first use (32 random bytes, readable by the server's user only):
 * the local payment provider's callback key (server/modules/orders/payment-providers.ts). The
 * URL-signing key no longer lives in a file: see signing-key.ts.
 */
export function loadOrCreateKey(keyFile: string): Buffer {
  try {
    const key = readFileSync(keyFile)
    if (key.byteLength >= signingKeyBytes) return key
    throw new Error(`${keyFile} is not a signing key (too short); delete it`)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error
  }
  mkdirSync(dirname(keyFile), { recursive: true })
  // 'wx' so two processes starting together cannot overwrite each other's key
  try {
    writeFileSync(keyFile, randomBytes(signingKeyBytes), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error
  }
  return readFileSync(keyFile)
}
