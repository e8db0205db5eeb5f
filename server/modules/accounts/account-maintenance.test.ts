import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callFrom } from '../../routes/web/accounts-test-kit'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { sweepAccountLeftovers } from './account-maintenance'

const hourMs = 3_600_000

describe('the sweep of account leftovers', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  const sweep = () => {
    const { clock, repositories, services } = testApp.app.deps
    return sweepAccountLeftovers({
      rateLimits: repositories.rateLimits,
      codes: repositories.verificationCodes,
      tickets: repositories.sessionTickets,
      outbox: repositories.outbox,
      guests: services.guests,
      clock,
    })
  }

  it('keeps what may still matter and removes it once it cannot', async () => {
    const { app, clock } = testApp
    await callFrom(app, {
      url: '/web/register/verificationSms',
      json: { tel: '01012121212', purpose: 'register' },
    })
    await callFrom(app, { url: '/web/login', json: { name: 'nobody', password: 'wrong-guess' } })
    await callApi(app, { url: '/web/login/guest', json: {} })
    const token = await signIn(app, testEditor)
    await callApi(app, { url: '/web/user/createTicket', token })

    expect(await sweep()).toEqual({
      rateLimitEvents: 0,
      lockouts: 0,
      codes: 0,
      tickets: 0,
      guests: 0,
      outboxMessages: 0,
    })
    clock.advanceMs(25 * hourMs)
    expect(await sweep()).toEqual({
      // the SMS counts per phone and per address, the failed sign-in, the guest sign-in
      rateLimitEvents: 4,
      // the failed sign-in's two counts: the name's, and the name's from that address
      lockouts: 2,
      codes: 1,
      tickets: 1,
      guests: 1,
      outboxMessages: 0,
    })
    clock.advanceMs(30 * 24 * hourMs)
    expect((await sweep()).outboxMessages).toBe(1)
    // The editor's account is untouched.
    await signIn(app, testEditor)
  })
})
