import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCatalogue, errorKindOfCode } from '../../../contract/errors'
import { isMessageId } from '../../../contract/messages'
import { createTestApp, signIn, type TestApp, testAdmin, testEditor } from '../../testing/test-app'

/**
 * Every account route under hostile input (issue 3 "Bad input and security"): wrong types, huge
 * strings, SQL and HTML fragments, unicode, odd field names, in JSON and form bodies. Whatever
 * arrives, the answer is an envelope with a catalogue code and its HTTP status, never a 500.
 */

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    "' OR 1=1 --",
    "'; DROP TABLE users; --",
    '" OR ""="',
    '%',
    '_',
    '\\',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '../../etc/passwd',
    '\u0000',
    '\u202e',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀',
    '010-1234-5678',
    '123456',
    'a@b.co',
    '2026-02-30',
    '/web/files/00000000-0000-4000-8000-000000000000.png',
    'admin',
    'editor',
    'guest',
    'x'.repeat(10_000),
  ),
)

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), hostileText, { maxKeys: 2 }),
)

/** Each route with the field names it reads, so bodies hit real fields most of the time. */
const routes = [
  { url: '/web/login', fields: ['name', 'password'] },
  { url: '/web/login/guest', fields: [] },
  { url: '/web/refreshToken', fields: [] },
  { url: '/web/register/verificationSms', fields: ['tel', 'purpose'] },
  { url: '/web/register/verificationMail', fields: ['email'] },
  { url: '/web/register/registerByTelNo', fields: ['tel', 'code', 'password', 'name'] },
  { url: '/web/register/registerbymail', fields: ['email', 'code', 'password', 'name'] },
  { url: '/web/register/forgetPasswordByTelNo', fields: ['tel', 'code', 'password'] },
  { url: '/web/register/forgetPasswordVer', fields: ['tel', 'code'] },
  { url: '/web/register/isexistemail', fields: ['email'] },
  { url: '/web/user/findUserName', fields: [] },
  {
    url: '/web/user/updateUser',
    fields: ['id', 'name', 'nickname', 'sex', 'tel', 'email', 'birthday', 'avatar', 'role'],
  },
  { url: '/web/user/updateuser', fields: ['job_title', 'company', 'birthday', 'avatar'] },
  { url: '/web/user/updateUserPassword', fields: ['oldPassword', 'password'] },
  { url: '/web/user/selectUser', fields: ['pageNo', 'pageSize', 'keyword'] },
  { url: '/web/user/insertUser', fields: ['name', 'password', 'role', 'tel', 'email'] },
  { url: '/web/user/deleteUser', fields: ['id'] },
  { url: '/web/user/disableUser', fields: ['id', 'disabled'] },
  { url: '/web/user/createTicket', fields: [] },
  { url: '/web/role/add', fields: ['name', 'description', 'access_level', 'menu_keys'] },
  { url: '/web/role/edit', fields: ['id', 'name', 'access_level', 'menu_keys'] },
  { url: '/web/role/delete', fields: ['id'] },
  { url: '/web/role/findOne', fields: ['id'] },
  { url: '/web/role/findAll', fields: [] },
  { url: '/web/role/search', fields: ['pageNo', 'pageSize', 'keyword'] },
  { url: '/web/notice/queryNotices', fields: [] },
  { url: '/web/notice/createNotice', fields: ['title', 'body'] },
  { url: '/web/notice/createNoticeUser', fields: ['notice_id'] },
] as const

const fieldNames = (fields: readonly string[]) =>
  fc.constantFrom(...fields, '__proto__', 'constructor', 'extra', 'a[b]', 'menu_keys[]')

const bodyFor = (fields: readonly string[]) =>
  fc.oneof(
    fc
      .dictionary(fieldNames(fields), hostileValue, { maxKeys: 6 })
      .map((value) => ({ contentType: 'application/json', payload: JSON.stringify(value) })),
    fc.array(fc.tuple(fieldNames(fields), hostileText), { maxLength: 6 }).map((pairs) => ({
      contentType: 'application/x-www-form-urlencoded',
      payload: pairs
        .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
        .join('&'),
    })),
    fc.oneof(fc.jsonValue(), fc.string({ maxLength: 30 })).map((value) => ({
      contentType: 'application/json',
      payload: typeof value === 'string' ? value : JSON.stringify(value),
    })),
    fc.constant({
      contentType: 'application/json',
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    }),
  )

describe('account routes under hostile input', () => {
  let testApp: TestApp
  let tokens: Array<string | undefined>

  beforeAll(async () => {
    testApp = await createTestApp()
    const guest = await testApp.app.inject({ method: 'POST', url: '/web/login/guest', payload: {} })
    tokens = [
      undefined,
      'not-a-token',
      guest.json().datum.token as string,
      await signIn(testApp.app, testEditor),
      await signIn(testApp.app, testAdmin),
    ]
  })
  afterAll(async () => {
    await testApp.close()
  })

  async function expectEnvelope(options: InjectOptions): Promise<void> {
    const response = await testApp.app.inject(options)
    expect(response.statusCode, `${options.url}: ${response.body.slice(0, 300)}`).toBeLessThan(500)
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

  for (const route of routes) {
    it(route.url, async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyFor(route.fields),
          fc.integer({ min: 0, max: 4 }),
          fc.integer({ min: 1, max: 250 }),
          async (body, tokenIndex, address) => {
            // Signing out would spend the shared tokens: that route is walked elsewhere.
            const token = tokens[tokenIndex]
            await expectEnvelope({
              method: 'POST',
              url: route.url,
              remoteAddress: `10.9.0.${address}`,
              headers: {
                'content-type': body.contentType,
                ...(token === undefined ? {} : { token }),
              },
              payload: body.payload,
            })
          },
        ),
        // The sign-in and password routes may hash (scrypt, ~0.1 s each): fewer runs there.
        { numRuns: /login$|Password|insertUser/.test(route.url) ? 25 : 60 },
      )
    })
  }

  it('/web/getTokenByTicket with hostile query strings', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, fc.boolean(), async (ticket, isNamed) => {
        const query = isNamed ? `ticket=${encodeURIComponent(ticket)}` : encodeURIComponent(ticket)
        await expectEnvelope({ method: 'GET', url: `/web/getTokenByTicket?${query}` })
      }),
      { numRuns: 80 },
    )
  })

  it('/web/roleMenu/selectRoleMenu_Vue with any token', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileText, fc.constantFrom(...tokens.filter(Boolean))),
        async (token) => {
          await expectEnvelope({
            method: 'GET',
            url: '/web/roleMenu/selectRoleMenu_Vue',
            headers: token === '' ? {} : { token: token as string },
          })
        },
      ),
      { numRuns: 60 },
    )
  })
})
