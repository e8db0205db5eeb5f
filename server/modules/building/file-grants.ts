import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Read grants for model files: a keyed hash of the file's address that the server hands only to
 * callers who may read the project (owner, admin, project-token holder). The engine downloads
 * models with a plain `fetch(url)` that carries no Token header, so the grant travels in the
 * URL; it is stable (same file, same grant), so browsers cache the immutable bytes, and it
 * dies with the file (a replaced or deleted model answers 404).
 */
export interface FileGrants {
  /** The grant for a resource, e.g. `model:<id>:<sha256>`. */
  grantFor(resource: string): string
  isValid(resource: string, grant: string): boolean
}

const keyBytes = 32
const grantHexLength = 32

/**
 * Grants keyed by the secret in `keyFile`, made on first start (random, owner-readable only) so
 * handed-out URLs survive restarts. Runs at app build time, hence synchronous.
 */
export function createFileGrants(keyFile: string): FileGrants {
  const key = loadOrCreateKey(keyFile)
  const grantFor = (resource: string) =>
    createHmac('sha256', key).update(resource).digest('hex').slice(0, grantHexLength)
  return {
    grantFor,
    isValid(resource, grant) {
      if (!/^[0-9a-f]+$/.test(grant) || grant.length !== grantHexLength) return false
      return timingSafeEqual(Buffer.from(grantFor(resource)), Buffer.from(grant))
    },
  }
}

function loadOrCreateKey(keyFile: string): Buffer {
  try {
    const key = readFileSync(keyFile)
    if (key.byteLength === keyBytes) return key
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error
  }
  mkdirSync(dirname(keyFile), { recursive: true })
  const key = randomBytes(keyBytes)
  // 'wx' so two processes starting together cannot overwrite each other's key
  try {
    writeFileSync(keyFile, key, { mode: 0o600, flag: 'wx' })
    return key
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error
    return readFileSync(keyFile)
  }
}
