import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RateLimitedDatum } from '../../../contract/auth'
import { createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { callFrom } from './accounts-test-kit'

const secondMs = 1_000
const minuteMs = 60_000

/** Defaults of docs/configuration.md: slowed after 3 failures (5 s, doubling), locked after 5. */
describe('password guessing on one account', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({ env: { SIGN_IN_FAILURES_PER_IP_PER_HOUR: '1000' } })
  })
  afterAll(async () => {
    await testApp.close()
  })

  const attempt = (password: string, clientAddress = '203.0.113.7') =>
    callFrom<RateLimitedDatum>(testApp.app, {
      url: '/web/login',
      clientAddress,
      json: { name: testEditor.name, password },
    })

  it('is slowed after 3 failures, then locked after 5, even for the right password', async () => {
    const { clock } = testApp
    for (let failure = 1; failure <= 3; failure++) {
      expect((await attempt(`guess-${failure}`)).envelope.code).toBe('1001')
    }
    // Slowed: the next attempt must wait 5 s, whoever makes it and whatever the password.
    const tooSoon = await attempt(testEditor.password, '198.51.100.1')
    expect(tooSoon.statusCode).toBe(429)
    expect(tooSoon.envelope.datum).toEqual({ retryAfterSeconds: 5 })
    clock.advanceMs(5 * secondMs)
    expect((await attempt('guess-4')).envelope.code).toBe('1001')
    // The wait doubles.
    clock.advanceMs(5 * secondMs)
    expect((await attempt('guess-5')).envelope.datum).toEqual({ retryAfterSeconds: 5 })
    clock.advanceMs(5 * secondMs)
    expect((await attempt('guess-5')).envelope.code).toBe('1001')

    // Locked for 15 minutes: the right password is refused before it is even checked.
    clock.advanceMs(minuteMs)
    const locked = await attempt(testEditor.password)
    expect(locked.statusCode).toBe(429)
    expect(locked.envelope.message).toContain('locked')
    expect(locked.envelope.datum.retryAfterSeconds).toBe(14 * 60)
    clock.advanceMs(14 * minuteMs - secondMs)
    expect((await attempt(testEditor.password)).envelope.code).toBe('1029')
    clock.advanceMs(secondMs)
    expect((await attempt(testEditor.password)).envelope.code).toBe('0')
    // A success forgets the failures: three more wrong guesses are answered at once again.
    for (let failure = 1; failure <= 3; failure++) {
      expect((await attempt(`again-${failure}`)).envelope.code).toBe('1001')
    }
    clock.advanceMs(minuteMs)
    await signIn(testApp.app, testEditor)
  })

  it('admits no more than 5 guesses however many arrive at once', async () => {
    const { app } = testApp
    const account = { name: 'parallel-target', password: 'Sturdy-Password-88' }
    await app.deps.services.users.createUser({ ...account, role: 'editor' })
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        callFrom(app, {
          url: '/web/login',
          clientAddress: `192.0.2.${index}`,
          json: { name: account.name, password: `wrong-${index}` },
        }),
      ),
    )
    const checked = answers.filter((answer) => answer.envelope.code === '1001')
    const refused = answers.filter((answer) => answer.envelope.code === '1029')
    expect(checked.length).toBeGreaterThan(0)
    expect(checked.length).toBeLessThanOrEqual(5)
    expect(checked.length + refused.length).toBe(20)
  })

  it('locks names that do not exist the same way, so probing names shows nothing', async () => {
    const { app, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const probe = (name: string) =>
      callFrom(app, { url: '/web/login', json: { name, password: 'whatever-it-is' } })
    const existing: string[] = []
    const missing: string[] = []
    for (let round = 0; round < 6; round++) {
      existing.push((await probe('demo')).envelope.message)
      missing.push((await probe('nobody-at-all')).envelope.message)
      clock.advanceMs(20 * secondMs)
    }
    expect(existing).toEqual(missing)
  })
})

describe('password guessing from one client address', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({ env: { SIGN_IN_FAILURES_PER_IP_PER_HOUR: '4' } })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('has an hourly failure budget over all account names, and successes do not spend it', async () => {
    const { app, clock } = testApp
    const login = (name: string, password: string, clientAddress = '203.0.113.50') =>
      callFrom<RateLimitedDatum>(app, {
        url: '/web/login',
        clientAddress,
        json: { name, password },
      })
    for (let index = 0; index < 3; index++) {
      expect((await login(`user-${index}`, 'wrong-password')).envelope.code).toBe('1001')
      expect((await login(testEditor.name, testEditor.password)).envelope.code).toBe('0')
    }
    expect((await login('user-3', 'wrong-password')).envelope.code).toBe('1001')
    const spent = await login('user-4', 'wrong-password')
    expect(spent.statusCode).toBe(429)
    expect(spent.envelope.datum.retryAfterSeconds).toBe(3_600)
    // Another address is not affected.
    expect((await login('user-4', 'wrong-password', '203.0.113.51')).envelope.code).toBe('1001')
    clock.advanceMs(3_600_000)
    expect((await login('user-5', 'wrong-password')).envelope.code).toBe('1001')
  })

  it('counts a wrong current password at password change as a failed sign-in', async () => {
    const { app, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const token = await signIn(app, testEditor)
    const change = (oldPassword: string) =>
      callFrom<RateLimitedDatum>(app, {
        url: '/web/user/updateUserPassword',
        clientAddress: '203.0.113.60',
        token,
        json: { oldPassword, password: 'Brand-new-secret-5' },
      })
    for (let failure = 1; failure <= 3; failure++) {
      const wrong = await change(`not-it-${failure}`)
      expect(wrong.statusCode).toBe(400)
      expect(wrong.envelope.datum).toMatchObject({ details: [{ field: 'oldPassword' }] })
    }
    expect((await change(testEditor.password)).statusCode).toBe(429)
  })
})
