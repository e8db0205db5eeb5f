import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { formBoolean, formInteger, formList, formNumber } from '../../contract/form-fields'
import { webRoute } from '../../contract/route'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../testing/test-app'
import { AppError } from './app-error'
import { defineRoute } from './define-route'

const echoBodySchema = z.object({
  name: z.string().min(1),
  label: z.object({ labelKey: z.string() }),
  count: formInteger({ min: 0 }),
  ratio: formNumber(z.number().max(1)).optional(),
  isVisible: formBoolean(),
  ids: formList(z.string()).default([]),
})

/** Routes that exist only to exercise defineRoute; the real routes are tested on their own. */
function registerTestRoutes(app: FastifyInstance): void {
  defineRoute(
    app,
    webRoute({
      method: 'POST',
      path: '/web/test/echo',
      auth: 'public',
      summary: 'Echo the validated body',
      body: echoBodySchema,
      datum: echoBodySchema,
    }),
    {
      handler: ({ body }) => body,
    },
  )
  defineRoute(
    app,
    webRoute({
      method: 'GET',
      path: '/web/test/search',
      auth: 'editor',
      summary: 'Echo the validated query and the caller',
      query: z.object({
        page: formInteger({ min: 1 }).default(1),
        filter: z.object({ kind: z.string() }),
      }),
      datum: z.object({ page: z.number(), kind: z.string(), caller: z.string() }),
    }),
    {
      handler: ({ query, user }) => ({
        page: query.page,
        kind: query.filter.kind,
        caller: user.name,
      }),
    },
  )
  defineRoute(
    app,
    webRoute({
      method: 'POST',
      path: '/web/test/upload',
      auth: 'public',
      summary: 'Store files',
      body: z.object({ title: z.string().min(1) }),
      fileFields: ['file'],
      datum: z.object({
        title: z.string(),
        files: z.array(
          z.object({ fileName: z.string(), sha256: z.string(), sizeBytes: z.number() }),
        ),
      }),
    }),
    {
      files: { maxFiles: 2, maxFileSizeBytes: 1_000 },
      handler: ({ body, files }) => ({ title: body.title, files }),
    },
  )
  defineRoute(
    app,
    webRoute({
      method: 'POST',
      path: '/web/test/crash',
      auth: 'public',
      summary: 'Fails unexpectedly',
      datum: z.null(),
    }),
    {
      handler: () => {
        throw new Error('secret internal detail')
      },
    },
  )
  defineRoute(
    app,
    webRoute({
      method: 'POST',
      path: '/web/test/offContract',
      auth: 'public',
      summary: 'Answers outside its contract',
      datum: z.object({ id: z.string() }),
    }),
    {
      handler: () => ({ id: 42 }) as unknown as { id: string },
    },
  )
  defineRoute(
    app,
    webRoute({
      method: 'POST',
      path: '/web/test/conflict',
      auth: 'public',
      summary: 'Answers a known failure with details',
      datum: z.null(),
    }),
    {
      handler: () => {
        throw new AppError(
          'conflict',
          'model.duplicateName',
          { name: 'a.sbm' },
          {
            details: { existingId: 'p1' },
          },
        )
      },
    },
  )
}

async function multipart(fields: Record<string, string | Blob>, names?: Record<string, string>) {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value)
    else form.append(key, value, names?.[key] ?? 'file.bin')
  }
  const encoded = new Response(form)
  return {
    headers: { 'content-type': encoded.headers.get('content-type') as string },
    payload: Buffer.from(await encoded.arrayBuffer()),
  }
}

describe('defineRoute', () => {
  let testApp: TestApp
  const logLines: string[] = []

  beforeAll(async () => {
    testApp = await createTestApp({
      routes: registerTestRoutes,
      env: { LOG_LEVEL: 'error' },
      logStream: { write: (line) => logLines.push(line) },
    })
  })
  afterAll(async () => {
    await testApp.close()
  })

  const expected = {
    name: 'tower',
    label: { labelKey: 'floor' },
    count: 3,
    ratio: 0.5,
    isVisible: true,
    ids: ['a', 'b'],
  }

  it('reads nested form keys, repeated keys and coerces numbers and booleans', async () => {
    const answer = await callApi(testApp.app, {
      url: '/web/test/echo',
      form: 'name=tower&label.labelKey=floor&count=3&ratio=.5&isVisible=on&ids[]=a&ids[]=b',
    })
    expect(answer.envelope).toEqual({ code: '0', message: 'OK', datum: expected })
    const bracketed = await callApi(testApp.app, {
      url: '/web/test/echo',
      form: 'name=tower&label[labelKey]=floor&count=3&ratio=0.5&isVisible=true&ids=a&ids=b',
    })
    expect(bracketed.envelope.datum).toEqual(expected)
  })

  it('reads the same body as JSON with typed values', async () => {
    const answer = await callApi(testApp.app, { url: '/web/test/echo', json: expected })
    expect(answer.envelope.datum).toEqual(expected)
  })

  it('reads the same body from multipart fields', async () => {
    const body = await multipart({
      name: 'tower',
      'label.labelKey': 'floor',
      count: '3',
      ratio: '0.5',
      isVisible: '1',
      'ids[]': 'a',
    })
    const response = await testApp.app.inject({ method: 'POST', url: '/web/test/echo', ...body })
    expect(response.json().datum).toEqual({ ...expected, ids: ['a'] })
  })

  it('makes a single form value a one-item list', async () => {
    const answer = await callApi(testApp.app, {
      url: '/web/test/echo',
      form: 'name=t&label.labelKey=f&count=0&isVisible=false&ids=only',
    })
    expect(answer.envelope.datum).toMatchObject({ ids: ['only'], isVisible: false, count: 0 })
  })

  it('names every wrong field', async () => {
    const answer = await callApi(testApp.app, {
      url: '/web/test/echo',
      form: 'label=flat&count=-1&ratio=abc&isVisible=maybe',
    })
    expect(answer.statusCode).toBe(400)
    expect(answer.envelope.code).toBe('1000')
    const details = (
      answer.envelope.datum as { details: Array<{ field: string; message: string }> }
    ).details
    expect(details.map((detail) => detail.field)).toEqual([
      'name',
      'label',
      'count',
      'ratio',
      'isVisible',
    ])
    expect(details[0]).toEqual({
      field: 'name',
      message: 'Required',
      messageId: 'validation.required',
      params: {},
    })
    expect(details[3]).toMatchObject({
      field: 'ratio',
      message: 'Expected a number',
      messageId: 'validation.expectedNumber',
    })
    expect(answer.envelope).toMatchObject({
      messageId: 'validation.invalidFields',
      params: { fields: 'name, label, count, ratio, isVisible' },
    })
    expect(answer.envelope.message).toMatch(/^name: Required; label: .+; count: .+ \(and 2 more\)$/)
  })

  it('validates the query string and passes the caller to the handler', async () => {
    const token = await signIn(testApp.app, testEditor)
    const answer = await callApi(testApp.app, {
      method: 'GET',
      url: '/web/test/search?filter[kind]=poi',
      token,
    })
    expect(answer.envelope.datum).toEqual({ page: 1, kind: 'poi', caller: 'demo' })
    const invalid = await callApi(testApp.app, {
      method: 'GET',
      url: '/web/test/search?page=0&filter.kind=poi',
      token,
    })
    expect(invalid.envelope.message).toMatch(/^page: /)
  })

  it('stores uploaded files and hands them to the handler', async () => {
    const content = 'x'.repeat(1_000)
    const body = await multipart({ title: 'plans', file: new Blob([content]) }, { file: 'a.txt' })
    const response = await testApp.app.inject({ method: 'POST', url: '/web/test/upload', ...body })
    const sha256 = createHash('sha256').update(content).digest('hex')
    expect(response.json()).toEqual({
      code: '0',
      message: 'OK',
      datum: { title: 'plans', files: [{ fileName: 'a.txt', sha256, sizeBytes: 1_000 }] },
    })
    expect(await testApp.app.deps.storage.exists(sha256)).toBe(true)
  })

  it('refuses a file over the limit with tooLarge and keeps nothing', async () => {
    const content = 'y'.repeat(1_001)
    const body = await multipart({ title: 'big', file: new Blob([content]) })
    const response = await testApp.app.inject({ method: 'POST', url: '/web/test/upload', ...body })
    expect(response.statusCode).toBe(413)
    expect(response.json().code).toBe('1013')
    const sha256 = createHash('sha256').update(content).digest('hex')
    expect(await testApp.app.deps.storage.exists(sha256)).toBe(false)
  })

  it('takes back files of a request whose fields are invalid', async () => {
    const content = 'orphan candidate'
    const body = await multipart({ file: new Blob([content]) })
    const response = await testApp.app.inject({ method: 'POST', url: '/web/test/upload', ...body })
    expect(response.json().message).toBe('title: Required')
    const sha256 = createHash('sha256').update(content).digest('hex')
    expect(await testApp.app.deps.storage.exists(sha256)).toBe(false)
  })

  it('refuses files on other fields, too many files, and files where none are taken', async () => {
    const wrongField = await multipart({ title: 't', picture: new Blob(['a']) })
    const form = new FormData()
    form.append('title', 't')
    for (const text of ['1', '2', '3']) form.append('file', new Blob([text]), `${text}.txt`)
    const encoded = new Response(form)
    const noFiles = await multipart({ name: 'x', file: new Blob(['a']) })
    const answers = await Promise.all([
      testApp.app.inject({ method: 'POST', url: '/web/test/upload', ...wrongField }),
      testApp.app.inject({
        method: 'POST',
        url: '/web/test/upload',
        headers: { 'content-type': encoded.headers.get('content-type') as string },
        payload: Buffer.from(await encoded.arrayBuffer()),
      }),
      testApp.app.inject({ method: 'POST', url: '/web/test/echo', ...noFiles }),
    ])
    expect(answers.map((answer) => answer.json().message)).toEqual([
      'picture: a file is not accepted here.',
      'At most 2 file(s) per request.',
      'file: a file is not accepted here.',
    ])
    expect(answers.every((answer) => answer.statusCode === 400)).toBe(true)
  })

  it('refuses a NUL character in any value, key or address, and drops it from file names', async () => {
    // PostgreSQL cannot store a NUL in text: without this the lookup fails as a 500 there.
    const answers = await Promise.all([
      callApi(testApp.app, { url: '/web/test/echo', json: { ...expected, name: 'a\u0000b' } }),
      callApi(testApp.app, {
        url: '/web/test/echo',
        json: { ...expected, label: { labelKey: 'f', 'x\u0000': 1 } },
      }),
      callApi(testApp.app, { url: '/web/test/echo', form: 'name=a%00&count=1' }),
      callApi(testApp.app, { method: 'GET', url: '/web/test/search?filter[kind]=p%00oi' }),
      callApi(testApp.app, { method: 'GET', url: '/web/model/structure/a%00b/x.json' }),
    ])
    expect(answers.map((answer) => [answer.statusCode, answer.envelope.message])).toEqual([
      [400, 'name: Text must not contain a NUL character.'],
      [400, 'label.x\\0: Text must not contain a NUL character.'],
      [400, 'name: Text must not contain a NUL character.'],
      [400, 'The address: Text must not contain a NUL character.'],
      [400, 'The address: Text must not contain a NUL character.'],
    ])
    const body = await multipart(
      { title: 'p', file: new Blob(['z']) },
      { file: 'a\u0000\u0007b.txt' },
    )
    const response = await testApp.app.inject({ method: 'POST', url: '/web/test/upload', ...body })
    expect(response.json().datum.files[0].fileName).toBe('ab.txt')
  })

  it('answers an unexpected error as internal, logs it, and leaks nothing', async () => {
    const answer = await callApi(testApp.app, { url: '/web/test/crash' })
    expect(answer.statusCode).toBe(500)
    expect(answer.envelope).toEqual({
      code: '1500',
      message: 'Internal server error.',
      messageId: 'error.internal',
      params: {},
      datum: null,
    })
    const logged = logLines.find((line) => line.includes('secret internal detail'))
    expect(logged).toBeDefined()
    expect(JSON.parse(logged as string).err.stack).toContain('define-route.test.ts')
  })

  it('treats a datum outside the contract as an internal error', async () => {
    const answer = await callApi(testApp.app, { url: '/web/test/offContract' })
    expect(answer.statusCode).toBe(500)
    expect(answer.envelope.message).toBe('Internal server error.')
  })

  it('answers an AppError with its code, status and details', async () => {
    const answer = await callApi(testApp.app, { url: '/web/test/conflict' })
    expect(answer.statusCode).toBe(409)
    expect(answer.envelope).toEqual({
      code: '1009',
      message: 'Two models are named a.sbm; names must be unique.',
      messageId: 'model.duplicateName',
      params: { name: 'a.sbm' },
      datum: { details: { existingId: 'p1' } },
    })
  })

  it('lists test routes in OpenAPI with form, JSON and multipart bodies', async () => {
    const document = (await testApp.app.inject({ url: '/web/openapi.json' })).json()
    const upload = document.paths['/web/test/upload'].post
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data'])
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({
      type: 'string',
    })
    const search = document.paths['/web/test/search'].get
    expect(search.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'page',
      'filter',
    ])
    const echo = document.paths['/web/test/echo'].post.requestBody.content
    expect(Object.keys(echo).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ])
    expect(echo['application/json'].schema.properties.count.anyOf).toEqual([
      { type: 'number' },
      { type: 'string', pattern: expect.any(String) },
    ])
  })
})
