import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LoginDatum } from '../../../contract/auth'
import type { User } from '../../../contract/user'
import { badCredentialsMessage } from '../../modules/auth/auth.service'
import { hashPassword, needsRehash } from '../../modules/auth/passwords'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'

const minuteMs = 60_000

describe('sign-in, sessions and the signed-in user', () => {
  let testApp: TestApp

  beforeAll(async () => {
    testApp = await createTestApp({ env: { TOKEN_IDLE_MINUTES: '30', TOKEN_LIFETIME_HOURS: '2' } })
  })
  afterAll(async () => {
    await testApp.close()
  })

  const findUserName = (token: string) =>
    callApi<User>(testApp.app, { url: '/web/user/findUserName', token })

  it('signs in and answers a token with the user, never the password hash', async () => {
    const answer = await callApi<LoginDatum>(testApp.app, { url: '/web/login', json: testEditor })
    expect(answer.statusCode).toBe(200)
    expect(answer.envelope.code).toBe('0')
    expect(answer.envelope.datum.token).toMatch(/^[\w-]{43}$/)
    expect(answer.envelope.datum.user).toMatchObject({ name: 'demo', role: 'editor' })
    expect(JSON.stringify(answer.envelope)).not.toMatch(/password|scrypt/)
  })

  it('answers wrong credentials the same way whether the name exists or not', async () => {
    const wrongPassword = await callApi(testApp.app, {
      url: '/web/login',
      json: { name: testAdmin.name, password: 'not the password' },
    })
    const unknownName = await callApi(testApp.app, {
      url: '/web/login',
      form: { name: 'nobody-here', password: 'not the password' },
    })
    for (const answer of [wrongPassword, unknownName]) {
      expect(answer.statusCode).toBe(401)
      expect(answer.envelope).toEqual({
        code: '1001',
        message: 'Incorrect user name or password.',
        messageId: 'auth.badCredentials',
        params: {},
        datum: null,
      })
    }
    expect(badCredentialsMessage).toBe('Incorrect user name or password.')
  })

  it('names the missing field of an incomplete sign-in', async () => {
    const answer = await callApi(testApp.app, { url: '/web/login', form: { password: 'x' } })
    expect(answer.statusCode).toBe(400)
    expect(answer.envelope).toEqual({
      code: '1000',
      message: 'name: Required',
      messageId: 'validation.invalidFields',
      params: { fields: 'name' },
      datum: {
        details: [
          { field: 'name', message: 'Required', messageId: 'validation.required', params: {} },
        ],
      },
    })
  })

  it('answers the signed-in user to findUserName with an empty payload', async () => {
    const token = await signIn(testApp.app, testEditor)
    const answer = await findUserName(token)
    expect(answer.envelope.code).toBe('0')
    expect(answer.envelope.datum).toEqual({
      id: expect.any(String),
      name: 'demo',
      nickname: 'Demo',
      sex: null,
      tel: null,
      email: null,
      birthday: null,
      job_title: null,
      company: null,
      avatar: null,
      role: 'editor',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    })
  })

  it('ends a session left idle longer than TOKEN_IDLE_MINUTES', async () => {
    const token = await signIn(testApp.app, testEditor)
    testApp.clock.advanceMs(29 * minuteMs)
    expect((await findUserName(token)).envelope.code).toBe('0')
    // That call was activity: the idle window starts again.
    testApp.clock.advanceMs(29 * minuteMs)
    expect((await findUserName(token)).envelope.code).toBe('0')
    testApp.clock.advanceMs(31 * minuteMs)
    const expired = await findUserName(token)
    expect(expired.statusCode).toBe(401)
    expect(expired.envelope.code).toBe('2011')
  })

  it('extends the idle window on refreshToken and answers the same token', async () => {
    const refreshed = await signIn(testApp.app, testEditor)
    const untouched = await signIn(testApp.app, testEditor)
    testApp.clock.advanceMs(20 * minuteMs)
    const answer = await callApi(testApp.app, { url: '/web/refreshToken', token: refreshed })
    expect(answer.envelope).toEqual({ code: '0', message: 'OK', datum: { token: refreshed } })
    testApp.clock.advanceMs(20 * minuteMs)
    expect((await findUserName(refreshed)).envelope.code).toBe('0')
    expect((await findUserName(untouched)).envelope.code).toBe('2011')
  })

  it('ends a session after TOKEN_LIFETIME_HOURS however active it is', async () => {
    const token = await signIn(testApp.app, testEditor)
    for (let elapsedMinutes = 20; elapsedMinutes < 120; elapsedMinutes += 20) {
      testApp.clock.advanceMs(20 * minuteMs)
      expect((await callApi(testApp.app, { url: '/web/refreshToken', token })).envelope.code).toBe(
        '0',
      )
    }
    testApp.clock.advanceMs(20 * minuteMs)
    expect((await callApi(testApp.app, { url: '/web/refreshToken', token })).envelope.code).toBe(
      '2011',
    )
  })

  it('revokes the token on logout, and only that token', async () => {
    const token = await signIn(testApp.app, testEditor)
    const other = await signIn(testApp.app, testEditor)
    const answer = await callApi(testApp.app, { url: '/web/logout', token })
    expect(answer.envelope).toEqual({ code: '0', message: 'OK', datum: null })
    expect((await findUserName(token)).envelope.code).toBe('2011')
    expect((await callApi(testApp.app, { url: '/web/logout', token })).envelope.code).toBe('2011')
    expect((await findUserName(other)).envelope.code).toBe('0')
  })

  it('answers forbidden to a role below the call', async () => {
    const editorToken = await signIn(testApp.app, testEditor)
    const refused = await callApi(testApp.app, {
      url: '/web/notice/createNotice',
      token: editorToken,
      form: { title: 'Maintenance', body: 'Tonight' },
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.envelope.code).toBe('1003')
    const adminToken = await signIn(testApp.app, testAdmin)
    const allowed = await callApi(testApp.app, {
      url: '/web/notice/createNotice',
      token: adminToken,
      form: { title: 'Maintenance', body: 'Tonight' },
    })
    expect(allowed.envelope).toMatchObject({
      code: '0',
      datum: { title: 'Maintenance', body: 'Tonight', author_id: expect.any(String) },
    })
  })

  it('moves an old, cheaper password hash to the current cost on sign-in', async () => {
    const { users } = testApp.app.deps.repositories
    const account = { name: 'legacy', password: 'legacy password' }
    const row = await testApp.app.deps.services.users.createUser({ ...account, role: 'editor' })
    const cheap = await hashPassword(account.password, {
      log2Cost: 10,
      blockSize: 8,
      parallelism: 1,
    })
    await users.update(row.id, { password_hash: cheap })
    await signIn(testApp.app, account)
    const stored = (await users.findById(row.id))?.password_hash as string
    expect(stored).not.toBe(cheap)
    expect(needsRehash(stored)).toBe(false)
    await signIn(testApp.app, account)
  })

  it('shuts out a disabled account, including its open sessions', async () => {
    const { users, usersService } = {
      users: testApp.app.deps.repositories.users,
      usersService: testApp.app.deps.services.users,
    }
    const account = { name: 'soon-disabled', password: 'a fine password' }
    const row = await usersService.createUser({ ...account, role: 'editor' })
    const token = await signIn(testApp.app, account)
    await users.update(row.id, { disabled: 1 })
    expect((await findUserName(token)).envelope.code).toBe('2011')
    const login = await callApi(testApp.app, { url: '/web/login', json: account })
    expect(login.statusCode).toBe(403)
    expect(login.envelope.code).toBe('1003')
  })
})

describe('logging', () => {
  it('never writes passwords or tokens to the log', async () => {
    const lines: string[] = []
    const testApp = await createTestApp({
      env: { LOG_LEVEL: 'trace' },
      logStream: { write: (line) => lines.push(line) },
    })
    try {
      const password = testAdmin.password
      const token = await signIn(testApp.app, testAdmin)
      await callApi(testApp.app, { url: '/web/user/findUserName', token })
      await callApi(testApp.app, { url: `/web/health?token=${token}`, method: 'GET' })
      await callApi(testApp.app, {
        url: '/web/login',
        form: { name: testAdmin.name, password: `${password}-wrong` },
      })
      const log = lines.join('')
      expect(log).toContain('/web/user/findUserName')
      expect(log).toContain('request refused')
      expect(log).not.toContain(token)
      expect(log).not.toContain(password)
    } finally {
      await testApp.close()
    }
  })
})
