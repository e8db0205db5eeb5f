import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LoginDatum, RateLimitedDatum } from '../../../contract/auth'
import type { User } from '../../../contract/user'
import { callApi, createTestApp, signIn, type TestApp } from '../../testing/test-app'
import { callFrom, latestCodeTo, messagesTo, otherCode, readOutboxFile } from './accounts-test-kit'

const secondMs = 1_000
const minuteMs = 60_000

describe('sign-up by phone, sign-in, password change and reset (a new user’s path)', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('goes from an SMS code to a signed-in account and back through a forgotten password', async () => {
    const { app, config, clock } = testApp
    const tel = '010-2345-6789'
    const normalizedTel = '01023456789'

    const sent = await callApi(app, {
      url: '/web/register/verificationSms',
      form: { tel, purpose: 'register' },
    })
    expect(sent.envelope).toEqual({ code: '0', message: 'OK', datum: null })
    // The code travels only through the provider: the outbox file and table, not the answer.
    const code = await latestCodeTo(config.outboxFile, normalizedTel)
    expect(JSON.stringify(sent.envelope)).not.toContain(code)
    const lines = await readOutboxFile(config.outboxFile)
    expect(Object.keys(lines.at(-1) ?? {}).sort()).toEqual(['at', 'text', 'to'])
    expect(lines.at(-1)?.at).toBe(new Date(clock.nowMs()).toISOString())
    const stored = await app.deps.repositories.outbox.listTo(normalizedTel, 5)
    expect(stored[0]).toMatchObject({ channel: 'sms', text: expect.stringContaining(code) })

    const registered = await callApi<LoginDatum>(app, {
      url: '/web/register/registerByTelNo',
      json: { tel, code, password: 'Blue-river-42' },
    })
    expect(registered.envelope.code).toBe('0')
    expect(registered.envelope.datum.user).toMatchObject({
      name: normalizedTel,
      tel: normalizedTel,
      role: 'editor',
    })
    const firstToken = registered.envelope.datum.token
    const me = await callApi<User>(app, { url: '/web/user/findUserName', token: firstToken })
    expect(me.envelope.datum.name).toBe(normalizedTel)

    // The code is used up.
    const again = await callApi(app, {
      url: '/web/register/registerByTelNo',
      json: { tel, code, password: 'Blue-river-42', name: 'second-account' },
    })
    expect(again.statusCode).toBe(400)
    expect(again.envelope.datum).toMatchObject({ details: [{ field: 'code' }] })

    expect((await callApi(app, { url: '/web/logout', token: firstToken })).envelope.code).toBe('0')
    const token = await signIn(app, { name: normalizedTel, password: 'Blue-river-42' })

    const changed = await callApi(app, {
      url: '/web/user/updateUserPassword',
      token,
      json: { oldPassword: 'Blue-river-42', password: 'Green-valley-77' },
    })
    expect(changed.envelope.code).toBe('0')
    // The session that changed it stays; the old password no longer works.
    expect((await callApi(app, { url: '/web/user/findUserName', token })).envelope.code).toBe('0')
    const oldPassword = await callApi(app, {
      url: '/web/login',
      json: { name: normalizedTel, password: 'Blue-river-42' },
    })
    expect(oldPassword.envelope.code).toBe('1001')
    const otherSession = await signIn(app, { name: normalizedTel, password: 'Green-valley-77' })

    // Forgot password: a reset code, checked first, then used.
    clock.advanceMs(61 * secondMs)
    const resetSent = await callApi(app, {
      url: '/web/register/verificationSms',
      headers: { cookie: 'language=en' },
      json: { tel: normalizedTel, purpose: 'forget' },
    })
    expect(resetSent.envelope.code).toBe('0')
    const resetCode = await latestCodeTo(config.outboxFile, normalizedTel)
    expect((await messagesTo(config.outboxFile, normalizedTel)).at(-1)?.text).toContain(
      'password reset code',
    )
    for (let check = 0; check < 7; check++) {
      // A right code costs no try: checking it more often than the try budget still works.
      const verified = await callApi(app, {
        url: '/web/register/forgetPasswordVer',
        json: { tel: normalizedTel, code: resetCode },
      })
      expect(verified.envelope.code).toBe('0')
    }
    const reset = await callApi(app, {
      url: '/web/register/forgetPasswordByTelNo',
      json: { tel: normalizedTel, code: resetCode, password: 'Quiet-harbour-19' },
    })
    expect(reset.envelope.code).toBe('0')
    // Every session ended with the reset.
    for (const oldToken of [token, otherSession]) {
      const answer = await callApi(app, { url: '/web/user/findUserName', token: oldToken })
      expect(answer.envelope.code).toBe('2011')
    }
    await signIn(app, { name: normalizedTel, password: 'Quiet-harbour-19' })
  })

  it('accepts an optional name at sign-up and refuses a taken one before using the code', async () => {
    const { app, config, clock } = testApp
    clock.advanceMs(61 * secondMs)
    const tel = '+8613800138000'
    await callApi(app, { url: '/web/register/verificationSms', json: { tel, purpose: 'register' } })
    const code = await latestCodeTo(config.outboxFile, tel)
    const taken = await callApi(app, {
      url: '/web/register/registerByTelNo',
      json: { tel, code, password: 'Blue-river-42', name: 'demo' },
    })
    expect(taken.statusCode).toBe(409)
    const created = await callApi<LoginDatum>(app, {
      url: '/web/register/registerByTelNo',
      json: { tel, code, password: 'Blue-river-42', name: 'river' },
    })
    expect(created.envelope.datum.user).toMatchObject({ name: 'river', tel })
  })
})

describe('verification codes', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({
      env: { CODES_PER_RECIPIENT_PER_HOUR: '3', CODES_PER_IP_PER_HOUR: '6' },
    })
  })
  afterAll(async () => {
    await testApp.close()
  })

  const requestCode = (tel: string, clientAddress = '10.0.0.1') =>
    callFrom<RateLimitedDatum>(testApp.app, {
      url: '/web/register/verificationSms',
      clientAddress,
      json: { tel, purpose: 'register' },
    })
  const register = (tel: string, code: string) =>
    callApi(testApp.app, {
      url: '/web/register/registerByTelNo',
      json: { tel, code, password: 'Blue-river-42' },
    })

  it('counts down 60 s before another code, then the new code replaces the old one', async () => {
    const { config, clock } = testApp
    const tel = '13900000001'
    expect((await requestCode(tel)).envelope.code).toBe('0')
    const first = await latestCodeTo(config.outboxFile, tel)

    clock.advanceMs(20 * secondMs)
    const early = await requestCode(tel)
    expect(early.statusCode).toBe(429)
    expect(early.envelope.code).toBe('1029')
    expect(early.envelope.datum).toEqual({ retryAfterSeconds: 40 })
    expect(early.headers['retry-after']).toBe('40')
    expect(await messagesTo(config.outboxFile, tel)).toHaveLength(1)

    clock.advanceMs(40 * secondMs)
    expect((await requestCode(tel)).envelope.code).toBe('0')
    const second = await latestCodeTo(config.outboxFile, tel)
    if (second !== first) {
      const withOld = await register(tel, first)
      expect(withOld.envelope.code).toBe('1000')
    }
    expect((await register(tel, second)).envelope.code).toBe('0')
  })

  it('expires a code after 10 minutes', async () => {
    const { config, clock } = testApp
    const tel = '13900000002'
    await requestCode(tel)
    const code = await latestCodeTo(config.outboxFile, tel)
    clock.advanceMs(10 * minuteMs)
    const late = await register(tel, code)
    expect(late.statusCode).toBe(400)
    expect(late.envelope).toMatchObject({
      code: '1000',
      datum: { details: [{ field: 'code', message: expect.stringContaining('expired') }] },
    })
  })

  it('survives four wrong entries and dies at the fifth, even for the right code', async () => {
    const { config } = testApp
    const tel = '13900000003'
    await requestCode(tel)
    const code = await latestCodeTo(config.outboxFile, tel)
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await register(tel, otherCode(code))
      expect(wrong.envelope.code).toBe('1000')
      if (attempt < 5) expect(wrong.envelope.message).toContain(`${5 - attempt}`)
    }
    expect((await register(tel, code)).envelope.code).toBe('1000')
  })

  it('limits codes per phone and per client address per hour', async () => {
    const { clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const tel = '13900000004'
    for (let sent = 0; sent < 3; sent++) {
      expect((await requestCode(tel, '10.0.0.2')).envelope.code).toBe('0')
      clock.advanceMs(61 * secondMs)
    }
    const fourth = await requestCode(tel, '10.0.0.3')
    expect(fourth.statusCode).toBe(429)
    // The oldest of the three leaves the hour 3 × 61 s after it was sent.
    expect(fourth.envelope.datum.retryAfterSeconds).toBe(3_600 - 3 * 61)

    clock.advanceMs(2 * 3_600_000)
    for (let index = 0; index < 6; index++) {
      expect((await requestCode(`1390000010${index}`, '10.0.0.4')).envelope.code).toBe('0')
    }
    const seventh = await requestCode('13900000199', '10.0.0.4')
    expect(seventh.statusCode).toBe(429)
    expect((await requestCode('13900000199', '10.0.0.5')).envelope.code).toBe('0')
  })

  it('answers alike for registered and unknown phones, and tells the owner instead', async () => {
    const { app, config, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const tel = '13900000005'
    await requestCode(tel)
    await register(tel, await latestCodeTo(config.outboxFile, tel))
    clock.advanceMs(61 * secondMs)

    const registeredAgain = await requestCode(tel)
    const unknown = await requestCode('13900000006')
    expect(registeredAgain.envelope).toEqual(unknown.envelope)
    const notice = (await messagesTo(config.outboxFile, tel)).at(-1)?.text ?? ''
    // Korean without a language cookie, like the console.
    expect(notice).toContain('이미 계정이 있습니다')
    expect(notice).not.toMatch(/\d{6}/)

    // A reset code goes only to a phone with an account; the answer does not say which.
    clock.advanceMs(61 * secondMs)
    const before = (await readOutboxFile(config.outboxFile)).length
    const resetUnknown = await callApi(app, {
      url: '/web/register/verificationSms',
      json: { tel: '13900000007', purpose: 'forget' },
    })
    expect(resetUnknown.envelope).toEqual({ code: '0', message: 'OK', datum: null })
    expect((await readOutboxFile(config.outboxFile)).length).toBe(before)
  })

  it('writes the message in the language of the language cookie, Korean by default', async () => {
    const { config, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const cases = [
      [undefined, '가입 인증번호는'],
      ['language=zh', '您的注册验证码为'],
      ['theme=dark; language=en', 'your sign-up code is'],
      ['language=fr', '가입 인증번호는'],
    ] as const
    for (const [index, [cookie, expected]] of cases.entries()) {
      const tel = `1390000030${index}`
      const sent = await callFrom(testApp.app, {
        url: '/web/register/verificationSms',
        clientAddress: `10.0.3.${index}`,
        ...(cookie === undefined ? {} : { headers: { cookie } }),
        json: { tel, purpose: 'register' },
      })
      expect(sent.envelope.code).toBe('0')
      const text = (await messagesTo(config.outboxFile, tel)).at(-1)?.text ?? ''
      expect(text, String(cookie)).toContain(expected)
      expect(text).toContain(await latestCodeTo(config.outboxFile, tel))
    }
  })

  it('refuses short, common and self-describing passwords without using the code', async () => {
    const { config, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const tel = '13900000008'
    await requestCode(tel)
    const code = await latestCodeTo(config.outboxFile, tel)
    for (const password of ['short1!', 'password123', 'Qwerty123', tel, 'x'.repeat(129)]) {
      const refused = await callApi(testApp.app, {
        url: '/web/register/registerByTelNo',
        json: { tel, code, password },
      })
      expect(refused.statusCode, password).toBe(400)
      expect(refused.envelope.datum).toMatchObject({ details: [{ field: 'password' }] })
    }
    expect((await register(tel, code)).envelope.code).toBe('0')
  })
})

describe('sign-up by e-mail and the e-mail check', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({ env: { ACCOUNT_CHECKS_PER_IP_PER_HOUR: '4' } })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('signs up with an e-mail code, and the check then finds the address', async () => {
    const { app, config } = testApp
    const email = 'Mia.Chen@Example.com'
    const isExist = () =>
      callFrom<{ exists: boolean }>(app, {
        url: '/web/register/isexistemail',
        clientAddress: '10.1.0.1',
        json: { email },
      })
    expect((await isExist()).envelope.datum).toEqual({ exists: false })

    const sent = await callApi(app, { url: '/web/register/verificationMail', json: { email } })
    expect(sent.envelope.code).toBe('0')
    const code = await latestCodeTo(config.outboxFile, 'mia.chen@example.com')
    const created = await callApi<LoginDatum>(app, {
      url: '/web/register/registerbymail',
      form: { email, code, password: 'Lantern-Moss-31' },
    })
    expect(created.envelope.datum.user).toMatchObject({
      name: 'mia.chen@example.com',
      email: 'mia.chen@example.com',
      role: 'editor',
    })
    expect((await isExist()).envelope.datum).toEqual({ exists: true })
  })

  it('lets one client address check only so many addresses an hour', async () => {
    const { app, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const check = (index: number, clientAddress: string) =>
      callFrom<RateLimitedDatum>(app, {
        url: '/web/register/isexistemail',
        clientAddress,
        json: { email: `probe${index}@example.com` },
      })
    for (let index = 0; index < 4; index++) {
      expect((await check(index, '10.1.0.2')).envelope.code).toBe('0')
    }
    const refused = await check(4, '10.1.0.2')
    expect(refused.statusCode).toBe(429)
    expect(refused.envelope.datum.retryAfterSeconds).toBe(3_600)
    expect((await check(4, '10.1.0.3')).envelope.code).toBe('0')
    clock.advanceMs(3_600_000)
    expect((await check(5, '10.1.0.2')).envelope.code).toBe('0')
  })
})
