import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { addGisModelBodySchema, type GisModel, gisModelMaxFeatureIds } from '../contract/city'
import { offlineMapDataPaths } from '../contract/geo'
import { bodyLimitBytes } from './app'
import { parseInput } from './http/define-route'
import { checkInputShape, isJsonNestedDeeperThan, maxInputDepth } from './http/input-shape'
import { createProject, multipartBody } from './routes/web/project-test-kit'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from './testing/test-app'

/**
 * What a hostile or careless client can send to the HTTP layer (issue 13, classes 1, 4, 5, 6
 * and 9): each answer is the `{code, message, datum}` envelope with a catalogue code and an
 * honest 4xx, never a 500 and never a body of Node's or Fastify's own.
 */

/** JSON text nested `depth` levels: `{"a":[[[…]]]}`. */
const deepJson = (depth: number) => `{"name":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`

/** One raw HTTP exchange over a real socket: what Node's own parser answers, unfiltered. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = ''
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

/** Status line and parsed body of a raw HTTP answer. */
function parseAnswer(answer: string): { statusLine: string; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return {
    statusLine: head.split('\r\n')[0] ?? '',
    headers: head.toLowerCase(),
    body: JSON.parse(body),
  }
}

describe('hostile requests to the HTTP layer', () => {
  let testApp: TestApp
  let editorToken: string
  /** Where the app listens, for the requests inject() cannot make (raw bytes, bare headers). */
  let port: number

  beforeAll(async () => {
    testApp = await createTestApp()
    editorToken = await signIn(testApp.app, testEditor)
    await testApp.app.listen({ host: '127.0.0.1', port: 0 })
    port = (testApp.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await testApp.close()
  })

  describe('deeply nested input (class 1)', () => {
    it('refuses a JSON body nested 9,000 levels with the validation envelope', async () => {
      for (const url of ['/web/login', '/web/register/isexistemail']) {
        const response = await testApp.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: deepJson(9_000),
        })
        expect(response.statusCode, response.body).toBe(400)
        expect(response.json()).toMatchObject({
          code: '1000',
          message: `The input is nested deeper than ${maxInputDepth} levels.`,
        })
      }
    })

    it('lets a body nested exactly to the limit through to validation', async () => {
      const answer = await callApi(testApp.app, {
        url: '/web/login',
        headers: { 'content-type': 'application/json' },
        form: undefined,
        json: JSON.parse(deepJson(maxInputDepth)),
      })
      expect(answer.statusCode).toBe(400)
      expect(answer.envelope.message).toMatch(/^name: /)
    })

    it('refuses a value nested 200,000 levels in one iterative pass (no stack overflow)', () => {
      let deep: unknown = 'leaf'
      for (let level = 0; level < 200_000; level++) deep = { a: [deep] }
      expect(checkInputShape(deep)).toEqual({ kind: 'tooDeep' })
      // Uploaded JSON files (building manifests) are checked by parseInput the same way.
      expect(() => parseInput(z.object({ a: z.unknown() }), deep)).toThrow(/nested deeper/)
    })

    it('refuses a JSON body of more keys than any contract needs while it is text', async () => {
      // ~880 KB: only a route that declares a large body takes it (anonymous ones stop at 64 KiB)
      const manyKeys = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]))
      const answer = await callApi(testApp.app, {
        url: '/web/gismodel/add',
        token: editorToken,
        json: manyKeys,
      })
      expect(answer.statusCode).toBe(400)
      expect(answer.envelope.message).toBe('The input holds more than 10000 keys.')
    })

    it('bounds JSON text sent inside a form field like a body (properties, tile lists)', async () => {
      const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`
      const properties = await callApi(testApp.app, {
        url: '/web/gismodel/add',
        token: editorToken,
        form: new URLSearchParams({
          project_id: '1',
          modelname: 'x',
          properties: deepObject,
        }).toString(),
      })
      // was a 500: the parsed value overflowed the stack of the size check's JSON.stringify
      expect(properties.statusCode).toBe(400)
      expect(properties.envelope.code).toBe('1000')
      const tiles = await callApi(testApp.app, {
        url: '/web/project/updateProject',
        token: editorToken,
        form: new URLSearchParams({
          id: '1',
          tile_coordinates: `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
        }).toString(),
      })
      expect(tiles.statusCode).toBe(400)
      expect(tiles.envelope.message).toBe(
        'tile_coordinates: The input is nested deeper than 64 levels.',
      )
    })

    it('counts brackets only outside JSON strings', () => {
      expect(isJsonNestedDeeperThan(`{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`, 2)).toBe(
        false,
      )
      expect(isJsonNestedDeeperThan('[[[1]]]', 2)).toBe(true)
      expect(isJsonNestedDeeperThan('[[1],[2],[3]]', 2)).toBe(false)
    })

    it('still names the field holding a NUL, in values and keys', () => {
      const schema = z.object({ list: z.array(z.object({ name: z.string() })) })
      expect(() => parseInput(schema, { list: [{ name: 'ok' }, { name: 'a\u0000b' }] })).toThrow(
        'list.1.name: Text must not contain a NUL character.',
      )
      expect(() => parseInput(schema, { list: [{ 'x\u0000': 'a' }] })).toThrow(
        'list.0.x\\0: Text must not contain a NUL character.',
      )
    })

    it('refuses a body of more values than any contract takes before validating it', async () => {
      const answer = await callApi(testApp.app, {
        url: '/web/gismodel/add',
        token: editorToken,
        json: { feature_ids: Array.from({ length: 300_000 }, () => 7), modelname: 'x' },
      })
      expect(answer.statusCode).toBe(400)
      expect(answer.envelope.message).toBe('The input holds more than 120000 values.')
    })

    it('lists at most 20 details of a validation failure with thousands of wrong items', () => {
      let refusal: unknown
      try {
        parseInput(
          z.array(z.string()),
          Array.from({ length: 5_000 }, () => 7),
        )
      } catch (error) {
        refusal = error
      }
      expect((refusal as Error).message).toMatch(/\(and 4997 more\)$/)
      expect((refusal as { details: unknown[] }).details).toHaveLength(20)
    })
  })

  describe('body size limits (class 1: a flood of large legal bodies)', () => {
    it('refuses a JSON or form body over 64 KiB on a route that declares no more', async () => {
      const json = await callApi(testApp.app, {
        url: '/web/register/isexistemail',
        json: { email: `${'x'.repeat(bodyLimitBytes)}@example.com` },
      })
      expect(json.statusCode).toBe(413)
      expect(json.envelope).toMatchObject({
        code: '1013',
        message: 'The request body is too large.',
      })
      const form = await callApi(testApp.app, {
        url: '/web/login',
        form: '&'.repeat(bodyLimitBytes + 1),
      })
      expect(form.statusCode).toBe(413)
      expect(form.envelope.code).toBe('1013')
      // just under the limit is read and validated as usual
      const under = await callApi(testApp.app, {
        url: '/web/register/isexistemail',
        json: { email: 'x'.repeat(bodyLimitBytes - 100) },
      })
      expect(under.statusCode).toBe(400)
      expect(under.envelope.code).not.toBe('1013')
    })

    it('refuses an over-limit Content-Length before reading the body, and closes', async () => {
      // The headers promise 50 MB that never come, on a keep-alive connection: the exchange
      // only ends because the server answers from the header and closes, rather than waiting
      // to read (and throw away) the body it refused.
      const answer = await exchange(
        port,
        'POST /web/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 52428800\r\n\r\n',
      )
      const parsed = parseAnswer(answer)
      expect(parsed.statusLine).toBe('HTTP/1.1 413 Payload Too Large')
      expect(parsed.headers).toContain('connection: close')
      expect(parsed.body).toMatchObject({ code: '1013' })
    })

    it('takes the bodies of the calls that need more: 100,000 feature ids, a long notice', async () => {
      const project = await createProject(testApp.app, editorToken, { kind: 'city' })
      const featureIds = Array.from({ length: gisModelMaxFeatureIds }, (_, i) => 1_000_000 + i)
      expect(JSON.stringify(featureIds).length).toBeGreaterThan(bodyLimitBytes)
      const added = await callApi<GisModel>(testApp.app, {
        url: '/web/gismodel/add',
        token: editorToken,
        json: { project_id: project.id, modelname: 'Every feature', feature_ids: featureIds },
      })
      expect(added.envelope.code).toBe('0')
      expect(added.envelope.datum.feature_ids).toHaveLength(gisModelMaxFeatureIds)
      expect(added.envelope.datum.feature_ids.at(-1)).toBe(1_000_000 + gisModelMaxFeatureIds - 1)

      const adminToken = await signIn(testApp.app, testAdmin)
      const longNotice = '공지'.repeat(10_000)
      const notice = await callApi(testApp.app, {
        url: '/web/notice/createNotice',
        token: adminToken,
        form: new URLSearchParams({ title: '점검', body: longNotice }).toString(),
      })
      expect(notice.envelope.code).toBe('0')
    })

    it('refuses a long feature list at its first wrong id or its length, with one detail', async () => {
      const wrongAt = Array.from({ length: 90_000 }, (_, i) => i)
      wrongAt[4_321] = -1
      const wrong = await callApi(testApp.app, {
        url: '/web/gismodel/add',
        token: editorToken,
        json: { project_id: '1', modelname: 'x', feature_ids: wrongAt },
      })
      expect(wrong.statusCode).toBe(400)
      expect(wrong.envelope.datum).toMatchObject({
        details: [{ field: 'feature_ids.4321', messageId: 'validation.invalid' }],
      })
      expect(() =>
        parseInput(addGisModelBodySchema, {
          project_id: '1',
          modelname: 'x',
          feature_ids: Array.from({ length: gisModelMaxFeatureIds + 1 }, () => 1),
        }),
      ).toThrow('feature_ids: At most 100000 items')
      // a form sends one id as a bare value, digits as text
      expect(
        parseInput(addGisModelBodySchema, { project_id: '1', modelname: 'x', feature_ids: '42' })
          .feature_ids,
      ).toEqual([42])
      expect(
        parseInput(addGisModelBodySchema, {
          project_id: '1',
          modelname: 'x',
          feature_ids: ['7', 'wall-3'],
        }).feature_ids,
      ).toEqual([7, 'wall-3'])
    })
  })

  describe('malformed multipart (class 4)', () => {
    const malformed = [
      { contentType: 'multipart/form-data', payload: 'no boundary at all' },
      {
        contentType: 'multipart/form-data; boundary=xx',
        payload: '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nab',
      },
      {
        contentType: 'multipart/form-data; boundary=xx',
        payload: '--xx\r\nContent-Disposition: form-data; name="project_id"\r\n\r\nabc',
      },
    ]
    for (const url of [
      '/web/upload/uploadJpg',
      '/web/upload/uploadGml',
      '/web/upload/uploadTiltModel',
      '/web/upload/uploadBasemap',
      '/web/project/addProject',
    ]) {
      it(`${url} answers a truncated body or a missing boundary with the validation envelope`, async () => {
        for (const { contentType, payload } of malformed) {
          const response = await testApp.app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': contentType, token: editorToken },
            payload,
          })
          expect(response.statusCode, `${url}: ${response.body}`).toBe(400)
          expect(response.json()).toMatchObject({ code: '1000' })
          // addProject takes no file at all: it may refuse the file part before the cut.
          expect(response.json().message).toMatch(
            /^Malformed multipart body|a file is not accepted here/,
          )
        }
      })
    }

    it('caps the plain fields of a multipart form at 1 MB in total', async () => {
      const { body, contentType } = multipartBody([
        { name: 'name', value: 'x'.repeat(700_000) },
        { name: 'description', value: 'y'.repeat(700_000) },
      ])
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/web/project/addProject',
        headers: { 'content-type': contentType, token: editorToken },
        payload: body,
      })
      expect(response.statusCode).toBe(413)
      expect(response.json().code).toBe('1013')
    })
  })

  describe('errors outside the routes (class 5) and tus extensions (class 6)', () => {
    it('answers an address over 16 KB with a 431 envelope, not Node’s bare answer', async () => {
      const answer = parseAnswer(
        await exchange(port, `GET /web/health?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      )
      expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large')
      expect(answer.headers).toContain('content-type: application/json')
      expect(answer.body).toMatchObject({
        code: '1031',
        message: 'The address or the headers of the request are larger than 16 KB.',
        messageId: 'request.headersTooLarge',
        datum: null,
      })
    })

    it('answers a request Node cannot parse (bad header bytes) with a 400 envelope', async () => {
      for (const request of [
        'HELLO\r\n\r\n',
        'POST /web/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\u0001\r\nContent-Length: 2\r\n\r\n{}',
      ]) {
        const answer = parseAnswer(await exchange(port, request))
        expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
        expect(answer.body).toMatchObject({ code: '1000', datum: null })
      }
    })

    it('answers an overlong path parameter without echoing the address', async () => {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/web/files/${'a'.repeat(5_000)}`,
      })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({
        code: '1000',
        message: 'A part of the address is too long.',
        messageId: 'request.addressPartTooLong',
        datum: null,
      })
    })

    it('refuses tus Upload-Concat with a 4xx saying it is not supported', async () => {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/web/upload/resumable',
        headers: {
          token: editorToken,
          'tus-resumable': '1.0.0',
          'upload-concat': 'partial',
          'upload-length': '10',
        },
      })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ code: '1000' })
      expect(response.json().message).toMatch(/does not support that tus extension/)
    })
  })

  describe('caching and transport headers (class 9)', () => {
    it('marks API answers no-store, tokens and errors included', async () => {
      const login = await testApp.app.inject({
        method: 'POST',
        url: '/web/login',
        payload: testEditor,
      })
      expect(login.json().datum.token).toBeTypeOf('string')
      expect(login.headers['cache-control']).toBe('no-store')
      const user = await testApp.app.inject({
        method: 'POST',
        url: '/web/user/findUserName',
        headers: { token: editorToken },
      })
      expect(user.headers['cache-control']).toBe('no-store')
      const missing = await testApp.app.inject({ method: 'GET', url: '/web/no/such/call' })
      expect(missing.headers['cache-control']).toBe('no-store')
    })

    it('keeps the caching of answers that declare it (public region data)', async () => {
      const places = await testApp.app.inject({ method: 'GET', url: offlineMapDataPaths.places })
      expect(places.statusCode).toBe(200)
      expect(places.headers['cache-control']).toBe('public, max-age=86400')
    })

    it('sends HSTS only to https requests, and not when turned off', async () => {
      const behindProxy = await createTestApp({ env: { TRUST_PROXY: 'true' } })
      try {
        const https = await behindProxy.app.inject({
          method: 'GET',
          url: '/web/health',
          headers: { 'x-forwarded-proto': 'https' },
        })
        expect(https.headers['strict-transport-security']).toBe('max-age=15552000')
        const http = await behindProxy.app.inject({ method: 'GET', url: '/web/health' })
        expect(http.headers['strict-transport-security']).toBeUndefined()
      } finally {
        await behindProxy.close()
      }
      const off = await createTestApp({ env: { TRUST_PROXY: 'true', HSTS_MAX_AGE_SECONDS: '0' } })
      try {
        const https = await off.app.inject({
          method: 'GET',
          url: '/web/health',
          headers: { 'x-forwarded-proto': 'https' },
        })
        expect(https.headers['strict-transport-security']).toBeUndefined()
      } finally {
        await off.close()
      }
    })
  })
})
