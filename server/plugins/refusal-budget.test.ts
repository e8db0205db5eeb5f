import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { createManualClock } from '../testing/manual-clock'
import { createTestApp, type TestApp } from '../testing/test-app'
import {
  clientKeyOf,
  createRefusalBudget,
  createRefusalHolds,
  earlyRefusalServerFactory,
} from './refusal-budget'

describe('the budget of refused requests per client', () => {
  it('lets a client be refused `burst` times, then asks it to wait until a token is back', () => {
    const clock = createManualClock()
    const budget = createRefusalBudget({ burst: 3, perMinute: 6 }, clock)
    for (let i = 0; i < 3; i++) {
      expect(budget.waitSeconds('10.0.0.1')).toBe(0)
      budget.charge('10.0.0.1')
    }
    // one token every 10 s
    expect(budget.waitSeconds('10.0.0.1')).toBe(10)
    clock.advanceMs(4_000)
    expect(budget.waitSeconds('10.0.0.1')).toBe(6)
    clock.advanceMs(6_000)
    expect(budget.waitSeconds('10.0.0.1')).toBe(0)
    budget.charge('10.0.0.1')
    expect(budget.waitSeconds('10.0.0.1')).toBe(10)
  })

  it('counts each client apart', () => {
    const budget = createRefusalBudget({ burst: 1, perMinute: 1 }, createManualClock())
    budget.charge('10.0.0.1')
    expect(budget.waitSeconds('10.0.0.1')).toBeGreaterThan(0)
    expect(budget.waitSeconds('10.0.0.2')).toBe(0)
  })

  it('refills no further than the burst, however long a client stayed away', () => {
    const clock = createManualClock()
    const budget = createRefusalBudget({ burst: 2, perMinute: 60 }, clock)
    budget.charge('10.0.0.1')
    clock.advanceMs(3_600_000)
    budget.charge('10.0.0.1')
    budget.charge('10.0.0.1')
    expect(budget.waitSeconds('10.0.0.1')).toBe(1)
  })

  it('is off with a burst of 0', () => {
    const budget = createRefusalBudget({ burst: 0, perMinute: 60 }, createManualClock())
    for (let i = 0; i < 1_000; i++) budget.charge('10.0.0.1')
    expect(budget.waitSeconds('10.0.0.1')).toBe(0)
  })

  it('remembers a bounded number of clients, forgetting full buckets and then the oldest', () => {
    const clock = createManualClock()
    const budget = createRefusalBudget({ burst: 1, perMinute: 1, maxAddresses: 100 }, clock)
    for (let i = 0; i < 100; i++) budget.charge(`10.0.${i >> 8}.${i & 255}`)
    // 100,000 more addresses: the map stays within its bound (no growth without limit) …
    for (let i = 0; i < 100_000; i++) budget.charge(`11.${i >> 16}.${(i >> 8) & 255}.${i & 255}`)
    expect(budget.clientCount()).toBeLessThanOrEqual(100)
    // … and the newest are still held to their budget
    expect(budget.waitSeconds('11.1.134.159')).toBeGreaterThan(0)
    expect(budget.waitSeconds('10.0.0.0')).toBe(0)
  })

  it('counts an IPv6 client by its /64 and an IPv4-mapped one by its IPv4 address', () => {
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(clientKeyOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64')
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64')
    expect(clientKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(clientKeyOf('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(clientKeyOf('192.0.2.7')).toBe('192.0.2.7')
    const budget = createRefusalBudget({ burst: 1, perMinute: 1 }, createManualClock())
    budget.charge('2001:db8:1:2::10')
    expect(budget.waitSeconds('2001:db8:1:2::99')).toBeGreaterThan(0)
    expect(budget.waitSeconds('2001:db8:1:3::10')).toBe(0)
  })
})

describe('a client that keeps sending refused requests (issue 13, class 1)', () => {
  let testApp: TestApp
  let port: number
  /** A body every route refuses: nested past the depth limit. */
  const deepBody = `{"name":${'['.repeat(500)}${']'.repeat(500)}}`
  const refusedCall = (remoteAddress: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/web/login',
      remoteAddress,
      headers: { 'content-type': 'application/json' },
      payload: deepBody,
    })

  beforeAll(async () => {
    // 5 refusals at once, then one every 10 s
    testApp = await createTestApp({
      env: { REFUSED_REQUESTS_BURST: '5', REFUSED_REQUESTS_PER_MINUTE: '6' },
    })
    await testApp.app.listen({ host: '127.0.0.1', port: 0 })
    port = (testApp.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('is on in a default configuration', () => {
    expect(loadConfig({}).refusalBudget).toEqual({ burst: 60, perMinute: 60, holdMs: 1000 })
  })

  it('answers a client over its budget 429 before reading, health and other clients unaffected', async () => {
    for (let i = 0; i < 5; i++) {
      const refused = await refusedCall('192.0.2.1')
      expect(refused.statusCode).toBe(400)
    }
    const limited = await refusedCall('192.0.2.1')
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBe('10')
    expect(limited.json()).toEqual({
      code: '1029',
      message:
        'Too many of the requests from your address were refused. Please wait 10 s and try again.',
      messageId: 'request.tooManyRefused',
      params: { seconds: 10 },
      datum: { retryAfterSeconds: 10 },
    })
    // even a good call waits: the budget is the client's, not the route's
    const goodCall = await testApp.app.inject({
      method: 'GET',
      url: '/web/health',
      remoteAddress: '192.0.2.1',
    })
    expect(goodCall.statusCode).toBe(200)
    const otherCall = await testApp.app.inject({
      method: 'POST',
      url: '/web/register/isexistemail',
      remoteAddress: '192.0.2.1',
      payload: { email: 'someone@example.com' },
    })
    expect(otherCall.statusCode).toBe(429)
    // another client still gets its own answers
    expect((await refusedCall('192.0.2.2')).statusCode).toBe(400)

    // one token back after 10 s: one more request is read (and refused), then 429 again
    testApp.clock.advanceMs(10_000)
    expect((await refusedCall('192.0.2.1')).statusCode).toBe(400)
    expect((await refusedCall('192.0.2.1')).statusCode).toBe(429)
  })

  it('does not wait for the body of a request it refuses for the budget, and closes', async () => {
    for (let i = 0; i < 5; i++) await refusedCall('127.0.0.1')
    // The headers promise 1,000 bytes and only 10 come: the exchange ends only because the
    // server answers from the headers and closes.
    const answer = await new Promise<string>((resolve, reject) => {
      let text = ''
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          'POST /web/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            'Content-Length: 1000\r\n\r\n{"name":"a',
        ),
      )
      socket.setEncoding('latin1')
      socket.on('data', (chunk) => {
        text += chunk
      })
      socket.on('close', () => resolve(text))
      socket.on('error', reject)
    })
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests')
    expect(head.toLowerCase()).toContain('connection: close')
    expect(JSON.parse(body)).toMatchObject({ code: '1029' })
  })
})

describe('a flood of requests from a client out of its budget (issue 13, class 1)', () => {
  let testApp: TestApp
  let port: number
  const logLines: string[] = []
  const deepBody = `{"name":${'['.repeat(500)}${']'.repeat(500)}}`
  const post = (path: string, body: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })

  beforeAll(async () => {
    testApp = await createTestApp({
      // answered at once (no hold): 20 refusals in a row, each over a new connection
      env: {
        REFUSED_REQUESTS_BURST: '2',
        REFUSED_REQUESTS_PER_MINUTE: '6',
        REFUSED_REQUESTS_HOLD_MS: '0',
        LOG_LEVEL: 'info',
      },
      logStream: { write: (line) => logLines.push(line) },
    })
    await testApp.app.listen({ host: '127.0.0.1', port: 0 })
    port = (testApp.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('answers each with the same 429 envelope, counted but not logged one by one', async () => {
    for (let i = 0; i < 2; i++) expect((await post('/web/login', deepBody)).status).toBe(400)
    const linesBefore = logLines.length
    for (let i = 0; i < 20; i++) {
      const answer = await post(i % 2 === 0 ? '/web/login' : '/web/poi/creatPoiList', deepBody)
      expect(answer.status).toBe(429)
      expect(answer.headers.get('retry-after')).toBe('10')
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await answer.json()).toEqual({
        code: '1029',
        message:
          'Too many of the requests from your address were refused. Please wait 10 s and try again.',
        messageId: 'request.tooManyRefused',
        params: { seconds: 10 },
        datum: { retryAfterSeconds: 10 },
      })
    }
    // no line per refused request (a flood would fill the log): the warning when the budget
    // ran out came before
    expect(logLines.slice(linesBefore)).toEqual([])

    // health and the web app are never refused
    const health = await fetch(`http://127.0.0.1:${port}/web/health?probe=1`)
    expect(health.status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).not.toBe(429)
  })
})

describe('a client flooding while out of its budget (issue 13, class 1: health under a flood)', () => {
  /** A raw connection from `localAddress`: what it sent, what came back, whether it closed. */
  const rawClient = (port: number, localAddress: string, text: string) => {
    const state = { answer: '', isClosed: false }
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => socket.write(text))
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => {
      state.answer += chunk
    })
    socket.on('close', () => {
      state.isClosed = true
    })
    socket.on('error', () => undefined)
    return { socket, state }
  }
  /** Polls wait long enough for a busy CI machine (the default is 1 s). */
  const polled = { timeout: 20_000 }
  /** A request head promising a large body, and the first bytes of it. */
  const bodyPromised =
    'POST /web/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
    `Content-Length: 1000000\r\n\r\n{"name":"${'a'.repeat(1000)}`

  it('holds its requests unread, a few at a time, then answers 429; others are answered meanwhile', async () => {
    const budget = createRefusalBudget({ burst: 1, perMinute: 1 }, createManualClock())
    budget.charge('127.0.0.1')
    // Long enough that nothing is answered by the hold's end while the test looks.
    const holds = createRefusalHolds(600_000)
    const server = earlyRefusalServerFactory(budget, holds)(
      (_request, response) => response.end('answered'),
      {},
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const held = [1, 2, 3, 4].map(() => rawClient(port, '127.0.0.1', bodyPromised))
      await expect.poll(() => holds.heldCount(), polled).toBe(4)
      // Beyond the few held per client: answered at once, and closed.
      const fifth = rawClient(port, '127.0.0.1', bodyPromised)
      await expect.poll(() => fifth.state.isClosed, polled).toBe(true)
      expect(fifth.state.answer).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/)
      expect(fifth.state.answer.toLowerCase()).toContain('connection: close')
      // Health from the same address and any call of another client are answered meanwhile.
      const health = rawClient(port, '127.0.0.1', 'GET /web/health HTTP/1.1\r\nHost: x\r\n\r\n')
      const other = rawClient(port, '127.0.0.2', bodyPromised.replace('1000000', '1008'))
      await expect.poll(() => health.state.answer, polled).toContain('answered')
      await expect.poll(() => other.state.answer, polled).toContain('answered')
      expect(held.map(({ state }) => state.answer)).toEqual(['', '', '', ''])

      // A client that gives up is not noticed before the hold ends (its socket is not read),
      // and its answer then goes nowhere.
      held[0]!.socket.destroy()
      // The held ones are answered (as when the server closes), with the 429 envelope, and closed.
      holds.releaseAll()
      expect(holds.heldCount()).toBe(0)
      for (const { state } of held.slice(1)) {
        await expect.poll(() => state.isClosed, polled).toBe(true)
        const [head = '', body = ''] = state.answer.split('\r\n\r\n')
        expect(head.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests')
        expect(JSON.parse(body)).toMatchObject({ code: '1029', params: { seconds: 60 } })
      }
      for (const client of [fifth, health, other]) client.socket.destroy()
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }, 60_000)

  it('answers at once with holding off', async () => {
    const budget = createRefusalBudget({ burst: 1, perMinute: 1 }, createManualClock())
    budget.charge('127.0.0.1')
    const holds = createRefusalHolds(0)
    const server = earlyRefusalServerFactory(budget, holds)(
      (_request, response) => response.end('answered'),
      {},
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const client = rawClient(port, '127.0.0.1', bodyPromised)
    await expect.poll(() => client.state.isClosed, polled).toBe(true)
    expect(client.state.answer).toMatch(/^HTTP\/1\.1 429 /)
    expect(holds.heldCount()).toBe(0)
    await new Promise((resolve) => server.close(resolve))
  }, 60_000)
})
