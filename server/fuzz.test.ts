import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorKindOfCode, errorCatalogue } from '../contract/errors'
import { isMessageId } from '../contract/messages'
import { createTestApp, signIn, type TestApp, testAdmin } from './testing/test-app'

/**
 * Throws random input at real routes: whatever arrives, the answer is an envelope with a code
 * from the catalogue and its matching HTTP status, and never a 500.
 */

const hugeText = 'x'.repeat(1_100_000)

const payload = fc.oneof(
  fc.record({
    contentType: fc.constant('application/json'),
    body: fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .dictionary(
          fc.constantFrom('name', 'password', 'title', 'body', '__proto__', 'constructor'),
          fc.oneof(
            fc.string(),
            fc.integer(),
            fc.boolean(),
            fc.constant(null),
            fc.array(fc.string()),
          ),
        )
        .map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 60 }),
      fc.constant(JSON.stringify({ name: hugeText, password: 'x' })),
    ),
  }),
  fc.record({
    contentType: fc.constant('application/x-www-form-urlencoded'),
    body: fc.oneof(
      fc.string({ maxLength: 80 }),
      fc
        .array(
          fc.tuple(
            fc.constantFrom(
              'name',
              'password',
              'title',
              'body',
              'a[b]',
              'a.b',
              'ids[]',
              '__proto__',
              '%zz',
            ),
            fc.string({ maxLength: 20 }),
          ),
          { maxLength: 6 },
        )
        .map((pairs) =>
          pairs.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&'),
        ),
      fc.constant(`title=${hugeText}`),
    ),
  }),
  fc.record({
    contentType: fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', ''),
    body: fc.string({ maxLength: 60 }),
  }),
)

describe('routes under random input', () => {
  let testApp: TestApp
  let adminToken: string

  beforeAll(async () => {
    testApp = await createTestApp()
    adminToken = await signIn(testApp.app, testAdmin)
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function expectEnvelope(options: InjectOptions): Promise<void> {
    const response = await testApp.app.inject(options)
    expect(response.statusCode, response.body).toBeLessThan(500)
    const envelope = response.json()
    expect(['code', 'datum', 'message', 'messageId', 'params']).toEqual(
      expect.arrayContaining(Object.keys(envelope)),
    )
    if (envelope.messageId !== undefined) expect(isMessageId(envelope.messageId)).toBe(true)
    expect(typeof envelope.message).toBe('string')
    const kind = errorKindOfCode(envelope.code)
    expect(kind, `code ${envelope.code}`).toBeDefined()
    expect(response.statusCode).toBe(errorCatalogue[kind as keyof typeof errorCatalogue].httpStatus)
  }

  const post = (
    url: string,
    token: string | undefined,
    input: { contentType: string; body: string },
  ) => ({
    method: 'POST' as const,
    url,
    headers: {
      ...(input.contentType === '' ? {} : { 'content-type': input.contentType }),
      ...(token === undefined ? {} : { token }),
    },
    payload: input.body,
  })

  it('login', async () => {
    // Few runs: each well-formed attempt costs a real scrypt hash.
    await fc.assert(
      fc.asyncProperty(payload, (input) => expectEnvelope(post('/web/login', undefined, input))),
      { numRuns: 40 },
    )
  })

  it('createNotice as admin', async () => {
    await fc.assert(
      fc.asyncProperty(payload, (input) =>
        expectEnvelope(post('/web/notice/createNotice', adminToken, input)),
      ),
      { numRuns: 150 },
    )
  })

  it('findUserName with random tokens and bodies', async () => {
    const token = fc.oneof(fc.string({ maxLength: 60 }), fc.constant(adminToken))
    await fc.assert(
      fc.asyncProperty(payload, token, (input, value) =>
        expectEnvelope(post('/web/user/findUserName', value, input)),
      ),
      { numRuns: 150 },
    )
  })

  it('random /web/ paths, methods and query strings', async () => {
    const pathPart = fc.oneof(
      fc.constantFrom('login', 'health', 'user', 'findUserName', '%', '%00', ''),
      // Dot segments are left out: URL parsing turns /web/.. into /, a page path.
      fc
        .string({ maxLength: 10 })
        .map(encodeURIComponent)
        .filter((part) => !/^(\.|%2e){1,2}$/i.test(part)),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.array(pathPart, { maxLength: 3 }),
        fc.string({ maxLength: 40 }),
        (method, parts, query) =>
          expectEnvelope({
            method: method as InjectOptions['method'],
            url: `/web/${parts.join('/')}?${query.replaceAll('#', '')}`,
          }),
      ),
      { numRuns: 200 },
    )
  })
})
