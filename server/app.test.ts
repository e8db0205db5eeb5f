import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bodyLimitBytes } from './app'
import { callApi, createTestApp, signIn, type TestApp, testAdmin } from './testing/test-app'
import { appVersion } from './version'

describe('the /web/ API basics', () => {
  let testApp: TestApp

  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('reports health with a database check', async () => {
    const answer = await callApi(testApp.app, { method: 'GET', url: '/web/health' })
    expect(answer.statusCode).toBe(200)
    expect(answer.envelope).toEqual({
      code: '0',
      message: 'OK',
      datum: {
        status: 'ok',
        database: testApp.config.database.kind === 'sqlite' ? 'sqlite' : 'postgres',
        version: appVersion,
        // test apps run without the MQTT broker (server/testing/test-app.ts)
        iot: { http: true, mqtt: 'off', mqttPort: null, mqttReason: 'MQTT=off' },
      },
    })
  })

  it('answers 503 unavailable when the database is gone', async () => {
    const broken = await createTestApp()
    await broken.app.deps.database.close()
    const answer = await callApi(broken.app, { method: 'GET', url: '/web/health' })
    expect(answer.statusCode).toBe(503)
    expect(answer.envelope.code).toBe('1503')
    await broken.close()
  })

  it('asks the database at most once a second, and sees it gone a second later', async () => {
    const failing = await createTestApp()
    const health = () => callApi(failing.app, { method: 'GET', url: '/web/health' })
    expect((await health()).statusCode).toBe(200)
    await failing.app.deps.database.close()
    // the answer of a moment ago still stands …
    failing.clock.advanceMs(999)
    expect((await health()).statusCode).toBe(200)
    // … for a second
    failing.clock.advanceMs(1)
    expect((await health()).statusCode).toBe(503)
    await failing.close()
  })

  it('describes every route in OpenAPI, generated from the contract', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/web/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json()
    expect(document.openapi).toBe('3.1.0')
    expect(document.info.version).toBe(appVersion)
    for (const [path, method] of [
      ['/web/health', 'get'],
      ['/web/login', 'post'],
      ['/web/refreshToken', 'post'],
      ['/web/logout', 'post'],
      ['/web/user/findUserName', 'post'],
      ['/web/notice/createNotice', 'post'],
    ] as const) {
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined()
    }
    const login = document.paths['/web/login'].post
    expect(login.security).toEqual([])
    const loginForm = login.requestBody.content['application/x-www-form-urlencoded'].schema
    expect(loginForm.required).toEqual(['name', 'password'])
    expect(
      login.responses['200'].content['application/json'].schema.properties.datum.properties,
    ).toHaveProperty('token')
    const findUserName = document.paths['/web/user/findUserName'].post
    expect(findUserName.security).toEqual([{ token: [] }])
    expect(findUserName['x-auth']).toBe('user')
    const user = findUserName.responses['200'].content['application/json'].schema.properties.datum
    expect(Object.keys(user.properties)).toContain('job_title')
    expect(Object.keys(user.properties)).not.toContain('password_hash')
    expect(document.components.securitySchemes.token).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'Token',
    })
  })

  it('answers an unknown /web/ call with a notFound envelope', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const answer = await callApi(testApp.app, { method, url: '/web/no/such/call?x=1' })
      expect(answer.statusCode).toBe(404)
      expect(answer.envelope).toEqual({
        code: '1004',
        message: `Not found: ${method} /web/no/such/call`,
        messageId: 'request.routeNotFound',
        params: { method, path: '/web/no/such/call' },
        datum: null,
      })
    }
  })

  it('answers 2011 with HTTP 401 to a call that needs a token and has none', async () => {
    const answer = await callApi(testApp.app, { url: '/web/user/findUserName' })
    expect(answer.statusCode).toBe(401)
    expect(answer.envelope.code).toBe('2011')
    expect(answer.envelope.datum).toBeNull()
  })

  it.each([
    ['an unknown token', 'A'.repeat(43)],
    ['a malformed token', 'not a token'],
    ['an empty token', ''],
  ])('answers 2011 to %s', async (_label, token) => {
    const answer = await callApi(testApp.app, { url: '/web/user/findUserName', token })
    expect(answer.statusCode).toBe(401)
    expect(answer.envelope.code).toBe('2011')
  })

  it('refuses a token before reading the body of the call', async () => {
    const answer = await callApi(testApp.app, {
      url: '/web/notice/createNotice',
      json: { title: 'x'.repeat(10) },
    })
    expect(answer.envelope.code).toBe('2011')
  })

  it.each([
    ['broken JSON', '{"name": "admin", '],
    ['a JSON prototype attack', '{"__proto__": {"isAdmin": true}, "name": "a", "password": "b"}'],
    ['a JSON constructor attack', '{"constructor": {"prototype": {"x": 1}}}'],
    ['JSON of the wrong shape', '["admin", "password"]'],
    ['a JSON string', '"admin"'],
    ['JSON null', 'null'],
  ])('answers %s with a validation envelope, never a 500', async (_label, payload) => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/web/login',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: '1000', message: expect.any(String) })
  })

  it('answers an unknown content type with 415', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/web/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().code).toBe('1015')
  })

  it('answers a body over the limit with tooLarge', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/web/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'a', password: 'x'.repeat(bodyLimitBytes) }),
    })
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({
      code: '1013',
      message: 'The request body is too large.',
      messageId: 'request.bodyTooLarge',
      params: {},
      datum: null,
    })
  })

  it('accepts an empty JSON body as an empty payload', async () => {
    const token = await signIn(testApp.app, testAdmin)
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/web/user/findUserName',
      headers: { 'content-type': 'application/json', token },
    })
    expect(response.json()).toMatchObject({ code: '0', datum: { name: testAdmin.name } })
  })

  it('reads form-encoded bodies', async () => {
    const answer = await callApi(testApp.app, {
      url: '/web/login',
      form: `name=${testAdmin.name}&password=${encodeURIComponent(testAdmin.password)}`,
    })
    expect(answer.envelope.code).toBe('0')
  })

  it('answers malformed form bodies and query strings with validation', async () => {
    const form = await callApi(testApp.app, { url: '/web/login', form: 'name=%E0%A4%A&password=x' })
    expect(form.statusCode).toBe(400)
    expect(form.envelope.code).toBe('1000')
    const query = await callApi(testApp.app, { method: 'GET', url: '/web/health?a[b=1' })
    expect(query.statusCode).toBe(400)
    expect(query.envelope.message).toMatch(/Malformed form field name/)
    const polluting = await callApi(testApp.app, { url: '/web/login', form: '__proto__[x]=1' })
    expect(polluting.envelope.code).toBe('1000')
  })

  it('answers a malformed multipart body with validation', async () => {
    for (const payload of ['', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nad']) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/web/login',
        headers: {
          'content-type':
            payload === '' ? 'multipart/form-data' : 'multipart/form-data; boundary=x',
        },
        payload,
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().message).toMatch(/^Malformed multipart body/)
    }
  })

  it('answers a malformed address with validation', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/web/%E0%A4%A' })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('1000')
  })

  it('tags every answer with a request id and security headers', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/web/health' })
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    const policy = String(response.headers['content-security-policy'])
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'")
    expect(policy).toContain("worker-src 'self' blob:")
    expect(policy).toContain("img-src 'self' data: blob:")
    expect(policy).not.toContain('upgrade-insecure-requests')
  })

  it('sends the same security headers on every answer, the extra origins in the CSP', async () => {
    const withOrigins = await createTestApp({
      env: { CSP_EXTRA_ORIGINS: 'https://tiles.example.com' },
    })
    try {
      const health = await withOrigins.app.inject({ method: 'GET', url: '/web/health' })
      const refused = await withOrigins.app.inject({ method: 'POST', url: '/web/login' })
      const policy = String(health.headers['content-security-policy'])
      expect(policy).toContain("img-src 'self' data: blob: https://tiles.example.com")
      expect(policy).toContain("frame-ancestors 'self' https://tiles.example.com")
      for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy']) {
        expect(refused.headers[name]).toBe(health.headers[name])
      }
      expect(health.headers['x-frame-options']).toBe('SAMEORIGIN')
    } finally {
      await withOrigins.close()
    }
  })
})
