import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateTicketDatum, LoginDatum } from '../../../contract/auth'
import type { User } from '../../../contract/user'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { callFrom } from './accounts-test-kit'

const minuteMs = 60_000

describe('guest sign-in', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({
      env: { GUEST_SESSION_MINUTES: '120', GUEST_SESSIONS_PER_IP_PER_HOUR: '3' },
    })
  })
  afterAll(async () => {
    await testApp.close()
  })

  const startGuest = async (clientAddress = '10.2.0.1') => {
    const answer = await callFrom<LoginDatum>(testApp.app, {
      url: '/web/login/guest',
      clientAddress,
      json: {},
    })
    expect(answer.envelope.code).toBe('0')
    return answer.envelope.datum
  }

  it('makes a new guest each time, never a shared account', async () => {
    const first = await startGuest()
    const second = await startGuest()
    expect(first.user.role).toBe('guest')
    expect(second.user.role).toBe('guest')
    expect(first.user.id).not.toBe(second.user.id)
    const me = await callApi<User>(testApp.app, {
      url: '/web/user/findUserName',
      token: first.token,
    })
    expect(me.envelope.datum).toMatchObject({ id: first.user.id, role: 'guest' })
    // The guest's row has no password anyone could sign in with.
    const login = await callApi(testApp.app, {
      url: '/web/login',
      json: { name: first.user.name, password: '!guest' },
    })
    expect(login.envelope.code).toBe('1001')
  })

  it('refuses every call that changes data, and lets the guest read', async () => {
    const { token } = await startGuest('10.2.0.2')
    const editingRoutes = testApp.app.openApi
      .list()
      .filter((route) => route.auth === 'editor' || route.auth === 'admin')
    expect(editingRoutes.length).toBeGreaterThan(10)
    for (const route of editingRoutes) {
      const answer = await callApi(testApp.app, {
        method: route.method,
        url: route.url.replace(/:(\w+)/g, 'x'),
        token,
        ...(route.method === 'GET' ? {} : { json: {} }),
      })
      expect(answer.statusCode, route.url).toBe(403)
      expect(answer.envelope.code, route.url).toBe('1003')
    }
    for (const url of ['/web/user/findUserName', '/web/notice/queryNotices']) {
      expect((await callApi(testApp.app, { url, token })).envelope.code, url).toBe('0')
    }
    const menu = await callApi<string[]>(testApp.app, {
      method: 'GET',
      url: '/web/roleMenu/selectRoleMenu_Vue',
      token,
    })
    expect(menu.envelope.datum).toEqual(['projectManage.cases', 'system.person'])
  })

  it('ends after GUEST_SESSION_MINUTES however active, and the guest row goes later', async () => {
    const { app, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    const guest = await startGuest('10.2.0.3')
    for (let elapsed = 0; elapsed < 100; elapsed += 20) {
      clock.advanceMs(20 * minuteMs)
      const refreshed = await callApi(app, { url: '/web/refreshToken', token: guest.token })
      expect(refreshed.envelope.code).toBe('0')
    }
    clock.advanceMs(20 * minuteMs)
    const ended = await callApi(app, { url: '/web/user/findUserName', token: guest.token })
    expect(ended.envelope.code).toBe('2011')

    expect(await app.deps.repositories.users.findById(guest.user.id)).toBeDefined()
    clock.advanceMs(61 * minuteMs)
    expect(await app.deps.services.guests.removeEnded()).toBeGreaterThan(0)
    expect(await app.deps.repositories.users.findById(guest.user.id)).toBeUndefined()
    // Real accounts are never swept.
    await signIn(app, testEditor)
  })

  it('limits guest sessions per client address per hour', async () => {
    const { app, clock } = testApp
    clock.advanceMs(2 * 3_600_000)
    for (let index = 0; index < 3; index++) await startGuest('10.2.0.9')
    const refused = await callFrom(app, {
      url: '/web/login/guest',
      clientAddress: '10.2.0.9',
      json: {},
    })
    expect(refused.statusCode).toBe(429)
    await startGuest('10.2.0.10')
  })
})

describe('sign-in tickets', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  const createTicket = async (token: string) => {
    const answer = await callApi<CreateTicketDatum>(testApp.app, {
      url: '/web/user/createTicket',
      token,
    })
    expect(answer.envelope.code).toBe('0')
    return answer.envelope.datum
  }
  const exchange = (ticket: string) =>
    callApi<LoginDatum>(testApp.app, {
      method: 'GET',
      url: `/web/getTokenByTicket?ticket=${encodeURIComponent(ticket)}`,
    })

  it('exchanges a ticket once for a new token of the same user', async () => {
    const token = await signIn(testApp.app, testEditor)
    const { ticket, expires_at } = await createTicket(token)
    expect(Date.parse(expires_at) - testApp.clock.nowMs()).toBe(60_000)
    const first = await exchange(ticket)
    expect(first.envelope.code).toBe('0')
    expect(first.envelope.datum.user.name).toBe(testEditor.name)
    expect(first.envelope.datum.token).not.toBe(token)
    const me = await callApi<User>(testApp.app, {
      url: '/web/user/findUserName',
      token: first.envelope.datum.token,
    })
    expect(me.envelope.datum.name).toBe(testEditor.name)

    const second = await exchange(ticket)
    expect(second.statusCode).toBe(401)
    expect(second.envelope.code).toBe('2011')
  })

  it('lets exactly one of parallel exchanges win', async () => {
    const token = await signIn(testApp.app, testEditor)
    const { ticket } = await createTicket(token)
    const answers = await Promise.all(Array.from({ length: 8 }, () => exchange(ticket)))
    expect(answers.filter((answer) => answer.envelope.code === '0')).toHaveLength(1)
  })

  it('refuses a ticket after 60 s, after its session ended, and anything made up', async () => {
    const { app, clock } = testApp
    const token = await signIn(app, testEditor)
    const late = await createTicket(token)
    clock.advanceMs(60_000)
    expect((await exchange(late.ticket)).envelope.code).toBe('2011')

    const orphan = await createTicket(token)
    await callApi(app, { url: '/web/logout', token })
    expect((await exchange(orphan.ticket)).envelope.code).toBe('2011')

    for (const madeUp of ['x', 'A'.repeat(43), "' or 1=1 --", '%00']) {
      expect((await exchange(madeUp)).envelope.code).toBe('2011')
    }
    const missing = await callApi(app, { method: 'GET', url: '/web/getTokenByTicket' })
    expect(missing.envelope.code).toBe('1000')
  })

  it('gives a guest ticket a guest session that ends with the guest’s', async () => {
    const { app, clock } = testApp
    const guest = (await callApi<LoginDatum>(app, { url: '/web/login/guest', json: {} })).envelope
      .datum
    for (let elapsed = 0; elapsed < 100; elapsed += 20) {
      clock.advanceMs(20 * minuteMs)
      await callApi(app, { url: '/web/refreshToken', token: guest.token })
    }
    const { ticket } = await createTicket(guest.token)
    const exchanged = await exchange(ticket)
    expect(exchanged.envelope.datum.user).toMatchObject({ id: guest.user.id, role: 'guest' })
    const projectAdd = await callApi(app, {
      url: '/web/project/addProject',
      token: exchanged.envelope.datum.token,
      json: {},
    })
    expect(projectAdd.envelope.code).toBe('1003')
    clock.advanceMs(20 * minuteMs)
    const after = await callApi(app, {
      url: '/web/user/findUserName',
      token: exchanged.envelope.datum.token,
    })
    expect(after.envelope.code).toBe('2011')
  })
})
