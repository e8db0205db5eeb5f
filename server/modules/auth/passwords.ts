import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

/**
 * Password hashing with Node's scrypt, no native add-on needed. The stored form carries its own
 * parameters (`scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, base64url), so the cost can be raised
 * later and old hashes still verify; `needsRehash` says when to re-hash after a sign-in.
 */

/** Cost parameters of one scrypt hash. */
export interface ScryptParameters {
  log2Cost: number
  blockSize: number
  parallelism: number
}

/**
 * N = 2^15, r = 8, p = 1: 32 MiB and ~0.1 s per hash on this project's 2-core servers. The
 * next step (2^16) doubles both; raise it when servers get faster — stored hashes keep theirs.
 */
export const currentScryptParameters: ScryptParameters = {
  log2Cost: 15,
  blockSize: 8,
  parallelism: 1,
}

const saltBytes = 16
const keyBytes = 32
/** Stored parameters beyond these are refused, so a tampered hash cannot exhaust memory. */
const maxLog2Cost = 20
const maxBlockSize = 32
const maxParallelism = 4

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const cost = 2 ** parameters.log2Cost
  const options: ScryptOptions = {
    N: cost,
    r: parameters.blockSize,
    p: parameters.parallelism,
    // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is just too small.
    maxmem: 256 * cost * parameters.blockSize,
  }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyBytes, options, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/** Hashes a password with a fresh random salt and the current parameters. */
export async function hashPassword(
  password: string,
  parameters: ScryptParameters = currentScryptParameters,
): Promise<string> {
  const salt = randomBytes(saltBytes)
  const key = await derive(password, salt, parameters)
  return [
    'scrypt',
    parameters.log2Cost,
    parameters.blockSize,
    parameters.parallelism,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$')
}

interface ParsedHash {
  parameters: ScryptParameters
  salt: Buffer
  key: Buffer
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined
  const [log2Cost, blockSize, parallelism] = parts.slice(1, 4).map(Number) as [
    number,
    number,
    number,
  ]
  const inRange = (value: number, max: number) =>
    Number.isInteger(value) && value >= 1 && value <= max
  if (!inRange(log2Cost, maxLog2Cost) || !inRange(blockSize, maxBlockSize)) return undefined
  if (!inRange(parallelism, maxParallelism)) return undefined
  const salt = Buffer.from(parts[4] ?? '', 'base64url')
  const key = Buffer.from(parts[5] ?? '', 'base64url')
  if (salt.length < 8 || key.length < 16) return undefined
  return { parameters: { log2Cost, blockSize, parallelism }, salt, key }
}

/**
 * Checks a password against a stored hash in constant time. A malformed stored hash never
 * matches (and does not throw), so a damaged row cannot be signed into.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (parsed === undefined) return false
  const key = await derive(password, parsed.salt, parsed.parameters)
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key)
}

/** True when a stored hash uses weaker parameters than the current ones. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored)
  if (parsed === undefined) return true
  const current = currentScryptParameters
  return (
    parsed.parameters.log2Cost < current.log2Cost ||
    parsed.parameters.blockSize < current.blockSize ||
    parsed.key.length < keyBytes
  )
}

/** A random password for generated accounts: 24 characters of base64url (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url')
}
