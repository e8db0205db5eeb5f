import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { createVerificationCodes } from './verification-codes'
import type { CodeAddress } from './verification-codes.repository'

describe('verification codes under parallel guessing', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  const codesOf = (app: TestApp) =>
    createVerificationCodes({
      codes: app.app.deps.repositories.verificationCodes,
      clock: app.clock,
    })

  it('admits at most 5 guesses however many arrive at once', async () => {
    const codes = codesOf(testApp)
    const address: CodeAddress = { channel: 'sms', recipient: '01000000001', purpose: 'register' }
    const code = await codes.issue(address)
    const guesses = Array.from({ length: 30 }, (_, index) =>
      String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
    )
    const results = await Promise.allSettled(
      guesses.map((guess) => codes.check(address, guess, { consume: false })),
    )
    expect(results.every((result) => result.status === 'rejected')).toBe(true)
    const row = await testApp.app.deps.repositories.verificationCodes.findNewest(address)
    expect(row?.tries).toBe(5)
    await expect(codes.check(address, code, { consume: true })).rejects.toThrow(/expired/)
  })

  it('lets exactly one of parallel uses of the right code through', async () => {
    const codes = codesOf(testApp)
    const address: CodeAddress = {
      channel: 'email',
      recipient: 'p@example.com',
      purpose: 'register',
    }
    const code = await codes.issue(address)
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => codes.check(address, code, { consume: true })),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
  })

  it('stores no code in the clear', async () => {
    const codes = codesOf(testApp)
    const address: CodeAddress = { channel: 'sms', recipient: '01000000002', purpose: 'forget' }
    const code = await codes.issue(address)
    const row = await testApp.app.deps.repositories.verificationCodes.findNewest(address)
    expect(JSON.stringify(row)).not.toContain(code)
  })
})
