import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Signed addresses for files that a map page fetches without headers (3D Tiles, PMTiles):
 * `…/<grant>/…` where the grant is `<expiry in seconds, base 36>.<HMAC-SHA256, base64url>` of
 * the resource key and the expiry. A `find` call that checked the caller (owner's Token or the
 * project token) hands out the address; whoever holds it may read that resource until it
 * expires, the way a shared link works. Expiries are rounded up to the next 12-hour step, so
 * addresses stay the same for hours and browser caches keep working.
 */
export interface UrlSigner {
  /** A grant for the resource, valid at least `minimumValidityMs` from `nowMs`. */
  grant(resourceKey: string, nowMs: number): string
  /** True when the grant was made by this server for this resource and has not expired. */
  verify(resourceKey: string, grant: string, nowMs: number): boolean
}

/** Grants last between this and twice this. */
export const grantStepMs = 12 * 3_600_000

const grantPattern = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/

/**
 * Opens the signer with the key in `keyFile`, made on first use (32 random bytes, readable by
 * the server's user only). Servers sharing DATA_DIR share the key, so any of them can check a
 * grant another made.
 */
export async function openUrlSigner(keyFile: string, directory: string): Promise<UrlSigner> {
  await mkdir(directory, { recursive: true })
  let key: Buffer
  try {
    key = await readFile(keyFile)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error
    try {
      await writeFile(keyFile, randomBytes(32), { flag: 'wx', mode: 0o600 })
    } catch (writeError) {
      // another server made it first: use theirs
      if ((writeError as { code?: string }).code !== 'EEXIST') throw writeError
    }
    key = await readFile(keyFile)
  }
  if (key.byteLength < 32) throw new Error(`${keyFile} is not a signing key (too short); delete it`)
  const signatureOf = (resourceKey: string, expiry: string) =>
    createHmac('sha256', key).update(`${resourceKey}\n${expiry}`).digest('base64url')
  return {
    grant(resourceKey, nowMs) {
      const expirySeconds = Math.ceil((nowMs + grantStepMs) / grantStepMs) * (grantStepMs / 1000)
      const expiry = expirySeconds.toString(36)
      return `${expiry}.${signatureOf(resourceKey, expiry)}`
    },
    verify(resourceKey, grant, nowMs) {
      const match = grantPattern.exec(grant)
      if (!match) return false
      const expiry = match[1]!
      if (Number.parseInt(expiry, 36) * 1000 <= nowMs) return false
      const expected = Buffer.from(signatureOf(resourceKey, expiry))
      const given = Buffer.from(match[2]!)
      return expected.byteLength === given.byteLength && timingSafeEqual(expected, given)
    },
  }
}

/** Removes a folder tree; missing is fine. */
export async function removeTree(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true })
}

/** Reads the first bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, lengthBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(lengthBytes)
    const { bytesRead } = await handle.read(buffer, 0, lengthBytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The folders the city area keeps its files in, under DATA_DIR. */
export function cityDirectories(dataDir: string) {
  const tilesets = join(dataDir, 'tilesets')
  const basemaps = join(dataDir, 'basemaps')
  return {
    tilesets,
    basemaps,
    /** Uploads being received or inspected, on the same file system as the stores. */
    incoming: join(dataDir, 'city-incoming'),
    signingKey: join(dataDir, 'city-url-signing.key'),
  }
}
