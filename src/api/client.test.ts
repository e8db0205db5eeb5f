import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { z } from 'zod'
import { authRoutes } from '../../contract/auth'
import { OK_CODE, OVERTIME_CODE } from '../../contract/errors'
import { fileRoutes } from '../../contract/files'
import { noticeRoutes } from '../../contract/notice'
import { webRoute } from '../../contract/route'
import { type UserPageDatum, userRoutes } from '../../contract/user'
import { connectSessionTimeout } from '../app/session-timeout'
import { reloadSessionFromStorage, session, signIn } from '../state/session'
import { toastStore } from '../ui/toast/toast-store'
import { ApiError, createApiClient, encodeForm, requestTimeoutMs } from './client'
import { api } from './index'

interface RecordedCall {
  url: string
  init: RequestInit
}

/** Stubs `fetch` with one answer per call and records what the client sent. */
function stubFetch(
  ...answers: Array<{ status?: number; body: unknown } | (() => Promise<Response>)>
) {
  const calls: RecordedCall[] = []
  const fetchStub = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    const answer = answers.shift()
    if (!answer) throw new Error('unexpected call')
    if (typeof answer === 'function') return answer()
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fetchStub)
  return calls
}

const user = {
  id: 'u1',
  name: 'ada',
  nickname: 'Ada',
  sex: null,
  tel: null,
  email: null,
  birthday: null,
  job_title: null,
  company: null,
  avatar: null,
  role: 'editor' as const,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
}

/** Routes that exist only here, to see how the client treats any answer. */
const probe = (path: `/web/${string}`) =>
  webRoute({ method: 'POST', path, auth: 'public', summary: 'probe', datum: z.null() })
const probeQuery = webRoute({
  method: 'GET',
  path: '/web/roleMenu/selectRoleMenu_Vue',
  auth: 'user',
  summary: 'probe with a query',
  query: z.object({ a: z.string() }),
  datum: z.array(z.string()),
})

let disconnect: () => void = () => {}

beforeEach(() => {
  // As main.tsx does: the app's client sends the session's token and reports '2011' to it.
  disconnect = connectSessionTimeout()
  localStorage.clear()
  reloadSessionFromStorage()
  session.isOverTime = false
  window.history.replaceState(null, '', '/#/system/person')
})

afterEach(() => {
  disconnect()
  vi.unstubAllGlobals()
  vi.useRealTimers()
  toastStore.set(() => [])
})

describe('the /web/ client', () => {
  it('posts form-encoded to a relative /web/ path and resolves the envelope', async () => {
    const calls = stubFetch({ body: { code: OK_CODE, message: 'ok', datum: { total: 1 } } })
    const answer = await api.call(userRoutes.selectUser, { pageNo: 1, keyword: 'a b' })
    expect(answer.datum.total).toBe(1)
    expect(calls[0]?.url).toBe('/web/user/selectUser')
    expect(calls[0]?.init.method).toBe('POST')
    const headers = new Headers(calls[0]?.init.headers)
    expect(headers.get('Content-Type')).toContain('application/x-www-form-urlencoded')
    expect(String(calls[0]?.init.body)).toBe('pageNo=1&keyword=a+b')
  })

  it('takes its input and answer types from the descriptor (checked by tsc)', async () => {
    stubFetch(
      { body: { code: OK_CODE, message: '', datum: { total: 0, list: [] } } },
      { body: { code: OK_CODE, message: '', datum: { total: 0, list: [] } } },
    )
    const answer = await api.call(userRoutes.selectUser, { pageNo: 1, pageSize: 10 })
    expectTypeOf(answer.datum).toEqualTypeOf<UserPageDatum>()
    // @ts-expect-error a field the route does not take
    await api.call(userRoutes.selectUser, { pageNo: 1, page_size: 10 })
    // A route with a body needs its input (never sent: only the type is checked).
    // @ts-expect-error the notice's title and body are missing
    const withoutInput = () => api.call(noticeRoutes.createNotice)
    expect(withoutInput).toBeTypeOf('function')
  })

  it('sends JSON when asked', async () => {
    const calls = stubFetch({ body: { code: OK_CODE, message: '', datum: null } })
    await api.call(noticeRoutes.createNotice, { title: 't', body: 'b' }, { encoding: 'json' })
    expect(new Headers(calls[0]?.init.headers).get('Content-Type')).toBe('application/json')
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ title: 't', body: 'b' })
  })

  it('sends multipart bodies untouched so the browser sets the boundary', async () => {
    const calls = stubFetch({ body: { code: OK_CODE, message: '', datum: null } })
    const form = new FormData()
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png')
    await api.upload(fileRoutes.uploadJpg, form)
    expect(calls[0]?.init.body).toBe(form)
    expect(new Headers(calls[0]?.init.headers).has('Content-Type')).toBe(false)
  })

  it('sends the Token header only while a token is held', async () => {
    const calls = stubFetch(
      { body: { code: OK_CODE, message: '', datum: null } },
      { body: { code: OK_CODE, message: '', datum: null } },
    )
    await api.call(authRoutes.login, { name: 'ada', password: 'x' })
    signIn('token-123', user)
    await api.call(userRoutes.findUserName)
    expect(new Headers(calls[0]?.init.headers).has('Token')).toBe(false)
    expect(new Headers(calls[1]?.init.headers).get('Token')).toBe('token-123')
  })

  it('rejects with the server body when the code is not OK', async () => {
    const envelope = { code: '1001', message: 'Wrong name or password', datum: null }
    stubFetch({ status: 401, body: envelope })
    const failure = await api.call(authRoutes.login, { name: 'ada', password: 'x' }).catch((e) => e)
    expect(failure).toBeInstanceOf(ApiError)
    expect(failure.envelope).toEqual(envelope)
    expect(failure.code).toBe('1001')
    expect(failure.message).toBe('Wrong name or password')
    expect(failure.httpStatus).toBe(401)
  })

  it('rejects a 200 answer whose code is an error code too', async () => {
    stubFetch({ status: 200, body: { code: '1004', message: 'Not found', datum: null } })
    await expect(api.call(probe('/web/x'))).rejects.toMatchObject({
      code: '1004',
      reason: 'server',
    })
  })

  it('rejects without an envelope when the network fails or the body is not JSON', async () => {
    stubFetch(
      () => Promise.reject(new TypeError('Failed to fetch')),
      async () => new Response('<html>Bad gateway</html>', { status: 502 }),
    )
    await expect(api.call(probe('/web/x'))).rejects.toMatchObject({
      reason: 'network',
      envelope: null,
    })
    await expect(api.call(probe('/web/x'))).rejects.toMatchObject({
      reason: 'network',
      envelope: null,
      httpStatus: 502,
    })
  })

  it('gives up after the request time-out of SPEC §9 (600000 ms)', async () => {
    vi.useFakeTimers()
    expect(requestTimeoutMs).toBe(600_000)
    stubFetch(
      () =>
        new Promise<Response>((_resolve, reject) => {
          const signal = vi.mocked(fetch).mock.calls[0]?.[1]?.signal
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        }),
    )
    let settled: unknown = 'pending'
    const call = api.call(probe('/web/slow')).catch((error) => {
      settled = error
    })
    await vi.advanceTimersByTimeAsync(requestTimeoutMs - 1)
    expect(settled).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    await call
    expect(settled).toBeInstanceOf(ApiError)
    expect((settled as ApiError).reason).toBe('timeout')
  })

  it('on 2011 marks the session timed out once, warns once and goes to sign-in', async () => {
    signIn('expired', user)
    const timeout = { code: OVERTIME_CODE, message: 'Session expired', datum: null }
    stubFetch({ status: 401, body: timeout }, { status: 401, body: timeout })
    const failures = await Promise.all([
      api.call(probe('/web/a')).catch((e) => e),
      api.call(probe('/web/b')).catch((e) => e),
    ])
    expect(
      failures.every((failure) => failure instanceof ApiError && failure.code === '2011'),
    ).toBe(true)
    expect(session.isOverTime).toBe(true)
    expect(session.token).toBeNull()
    expect(session.signinStatus).toBe(0)
    const warnings = toastStore.get().filter((entry) => entry.type === 'warning')
    expect(warnings.map((entry) => entry.message)).toEqual(['Login timed out, please log in again'])
    expect(window.location.hash).toBe('#/login?redirect=%2Fsystem%2Fperson')
  })

  it('on 2011 stays on a page that needs no sign-in', async () => {
    window.history.replaceState(null, '', '/#/bim4/outPreview?id=7')
    stubFetch({ status: 401, body: { code: OVERTIME_CODE, message: '', datum: null } })
    await api.call(probe('/web/a')).catch(() => undefined)
    expect(session.isOverTime).toBe(true)
    expect(window.location.hash).toBe('#/bim4/outPreview?id=7')
  })

  it('uses the handlers it was built with', async () => {
    const onSessionTimeout = vi.fn()
    const client = createApiClient({ baseUrl: '/api', getToken: () => 't', onSessionTimeout })
    const calls = stubFetch({ body: { code: OVERTIME_CODE, message: '', datum: null } })
    await client.call(probeQuery, { a: '1' }).catch(() => undefined)
    expect(calls[0]?.url).toBe('/api/roleMenu/selectRoleMenu_Vue?a=1')
    expect(calls[0]?.init.method).toBe('GET')
    expect(onSessionTimeout).toHaveBeenCalledTimes(1)
  })
})

describe('encodeForm', () => {
  it('flattens nested objects and arrays and leaves out null fields', () => {
    const encoded = encodeForm({
      label: { labelKey: 'k' },
      ids: [1, 2],
      items: [{ name: 'a' }],
      empty: null,
      missing: undefined,
      isOn: true,
    })
    expect([...encoded.entries()]).toEqual([
      ['label.labelKey', 'k'],
      ['ids', '1'],
      ['ids', '2'],
      ['items[0].name', 'a'],
      ['isOn', 'true'],
    ])
  })
})
