import { describe, expect, it } from 'vitest'
import { generatePassword, hashPassword, needsRehash, verifyPassword } from './passwords'

describe('passwords', () => {
  it('verifies the right password and refuses others', async () => {
    const stored = await hashPassword('correct horse battery staple')
    expect(stored).toMatch(/^scrypt\$15\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true)
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false)
    expect(await verifyPassword('', stored)).toBe(false)
  })

  it('salts every hash', async () => {
    const [first, second] = await Promise.all([hashPassword('same'), hashPassword('same')])
    expect(first).not.toBe(second)
    expect(await verifyPassword('same', second)).toBe(true)
  })

  it('treats canonically equal Unicode spellings as the same password', async () => {
    const stored = await hashPassword('caf\u00e9')
    expect(await verifyPassword('cafe\u0301', stored)).toBe(true)
  })

  it('verifies hashes made with other stored parameters', async () => {
    const weaker = await hashPassword('pw', { log2Cost: 10, blockSize: 8, parallelism: 1 })
    expect(await verifyPassword('pw', weaker)).toBe(true)
    expect(needsRehash(weaker)).toBe(true)
    expect(needsRehash(await hashPassword('pw'))).toBe(false)
  })

  it.each([
    '',
    'plain',
    'bcrypt$2b$10$abc',
    'scrypt$15$8$1$c2FsdA$',
    'scrypt$40$8$1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5',
    'scrypt$15$8$1$c2FsdHNhbHRzYWx0',
  ])('never matches the malformed stored hash %j', async (stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false)
  })

  it('generates long random passwords', () => {
    const password = generatePassword()
    expect(password).toMatch(/^[\w-]{24}$/)
    expect(generatePassword()).not.toBe(password)
  })
})
