import { createHash, randomBytes } from 'node:crypto'

/**
 * Opaque bearer tokens (decisions.md "API shape"): 32 random bytes as base64url (43 characters).
 * The server keeps only their SHA-256, so reading the database never yields a usable token.
 * A fast hash is enough here: unlike passwords, tokens have full entropy.
 */
export function createToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The stored form of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/

/** True when a value has the shape of a token we issue; anything else is refused unseen. */
export function isWellFormedToken(value: string): boolean {
  return tokenPattern.test(value)
}
