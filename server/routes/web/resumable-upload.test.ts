import { randomBytes } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { uploadIdOfLocation } from '../../../contract/resumable-upload'
import { buildApp } from '../../app'
import { AppError } from '../../http/app-error'
import { claimResumableUpload } from '../../modules/resumable-uploads/claim-upload'
import {
  defaultMaxUploadsPerUser,
  resumableUploadsOf,
} from '../../modules/resumable-uploads/resumable-uploads'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { signInNewUser } from './project-test-kit'

/** tus `Upload-Metadata`: comma-separated `key base64(value)` pairs. */
function metadataHeader(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',')
}

const tus = { 'tus-resumable': '1.0.0' }

async function createUpload(
  app: FastifyInstance,
  token: string,
  lengthBytes: number,
  metadata: Record<string, string> = { filename: 'tower.sbm', purpose: 'model' },
) {
  return app.inject({
    method: 'POST',
    url: '/web/upload/resumable',
    headers: {
      ...tus,
      token,
      'upload-length': String(lengthBytes),
      'upload-metadata': metadataHeader(metadata),
    },
  })
}

function patch(
  app: FastifyInstance,
  token: string,
  uploadId: string,
  offset: number,
  bytes: Buffer,
) {
  return app.inject({
    method: 'PATCH',
    url: `/web/upload/resumable/${uploadId}`,
    headers: {
      ...tus,
      token,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  })
}

function head(app: FastifyInstance, token: string, uploadId: string) {
  return app.inject({
    method: 'HEAD',
    url: `/web/upload/resumable/${uploadId}`,
    headers: { ...tus, token },
  })
}

async function startedUpload(app: FastifyInstance, token: string, lengthBytes: number) {
  const created = await createUpload(app, token, lengthBytes)
  expect(created.statusCode).toBe(201)
  const uploadId = uploadIdOfLocation(String(created.headers.location))
  if (uploadId === undefined) throw new Error(`no upload id in ${created.headers.location}`)
  return uploadId
}

async function userIdOf(app: FastifyInstance, token: string): Promise<string> {
  const session = await app.deps.services.auth.authenticate(token)
  if (!session) throw new Error('token does not authenticate')
  return session.user.id
}

async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`)
  return error
}

describe('resumable uploads (tus 1.0 at /web/upload/resumable)', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let token: string

  beforeEach(async () => {
    testApp = await createTestApp()
    app = testApp.app
    token = await signInNewUser(app, `uploader-${randomBytes(3).toString('hex')}`)
  })
  afterEach(async () => {
    await testApp.close()
  })

  it('creates an upload, takes it in pieces, reports the offset, and hands it to a claim', async () => {
    const content = randomBytes(300_000)
    const created = await createUpload(app, token, content.length)
    expect(created.statusCode).toBe(201)
    const location = String(created.headers.location)
    // Relative: the Host header is the client's to choose.
    expect(location).toMatch(/^\/web\/upload\/resumable\/[0-9a-f]{32}$/)
    expect(created.headers['upload-expires']).toBeDefined()
    const uploadId = uploadIdOfLocation(location)!

    const pieces = [content.subarray(0, 100_000), content.subarray(100_000, 250_000)]
    let offset = 0
    for (const piece of pieces) {
      const answer = await patch(app, token, uploadId, offset, piece)
      expect(answer.statusCode).toBe(204)
      offset += piece.length
      expect(answer.headers['upload-offset']).toBe(String(offset))
      const status = await head(app, token, uploadId)
      expect(status.statusCode).toBe(200)
      expect(status.headers['upload-offset']).toBe(String(offset))
      expect(status.headers['upload-length']).toBe(String(content.length))
    }
    // A piece sent at a stale offset is refused and changes nothing.
    expect((await patch(app, token, uploadId, 0, content.subarray(0, 10))).statusCode).toBe(409)
    expect((await head(app, token, uploadId)).headers['upload-offset']).toBe(String(offset))

    const userId = await userIdOf(app, token)
    const early = await refusalOf(claimResumableUpload(app, { userId, uploadId }))
    expect(early.kind).toBe('validation')
    expect(early.message).toContain(`${offset} of ${content.length} bytes`)

    expect((await patch(app, token, uploadId, offset, content.subarray(offset))).statusCode).toBe(
      204,
    )
    const claimed = await claimResumableUpload(app, { userId, uploadId })
    expect(claimed).toMatchObject({
      fileName: 'tower.sbm',
      purpose: 'model',
      sizeBytes: content.length,
    })
    expect((await readFile(claimed.filePath)).equals(content)).toBe(true)
    // One consumer at a time, and the owner cannot change or delete it meanwhile.
    expect((await refusalOf(claimResumableUpload(app, { userId, uploadId }))).kind).toBe('conflict')
    const deleting = await app.inject({
      method: 'DELETE',
      url: location,
      headers: { ...tus, token },
    })
    expect(deleting.statusCode).toBe(423)

    await claimed.release()
    expect(await readdir(testApp.config.resumableDir)).toEqual([])
    expect((await refusalOf(claimResumableUpload(app, { userId, uploadId }))).kind).toBe('notFound')
    expect((await head(app, token, uploadId)).statusCode).toBe(404)
  })

  it('gives a claimed upload back untouched when the consumer could not finish', async () => {
    const uploadId = await startedUpload(app, token, 4)
    await patch(app, token, uploadId, 0, Buffer.from('gml!'))
    const userId = await userIdOf(app, token)
    const first = await claimResumableUpload(app, { userId, uploadId })
    await first.giveBack()
    const second = await claimResumableUpload(app, { userId, uploadId })
    expect(await readFile(second.filePath, 'utf8')).toBe('gml!')
    await second.release()
  })

  it('keeps the offset across a server restart and takes the rest afterwards', async () => {
    const content = randomBytes(64_000)
    const uploadId = await startedUpload(app, token, content.length)
    await patch(app, token, uploadId, 0, content.subarray(0, 30_000))
    await app.close()

    // The same DATA_DIR and database, as after a restart of the process.
    const restarted = await buildApp(testApp.config, { clock: testApp.clock })
    try {
      await restarted.ready()
      const status = await head(restarted, token, uploadId)
      expect(status.statusCode).toBe(200)
      expect(status.headers['upload-offset']).toBe('30000')
      const rest = await patch(restarted, token, uploadId, 30_000, content.subarray(30_000))
      expect(rest.statusCode).toBe(204)
      const userId = await userIdOf(restarted, token)
      const claimed = await claimResumableUpload(restarted, { userId, uploadId })
      expect((await readFile(claimed.filePath)).equals(content)).toBe(true)
      await claimed.release()
    } finally {
      await restarted.close()
    }
  })

  it("answers another user's upload id as unknown, for every method and for claims", async () => {
    const uploadId = await startedUpload(app, token, 10)
    const other = await signInNewUser(app, `other-${randomBytes(3).toString('hex')}`)
    expect((await head(app, other, uploadId)).statusCode).toBe(404)
    const intruding = await patch(app, other, uploadId, 0, Buffer.from('intruder!!'))
    expect(intruding.statusCode).toBe(404)
    // Refusals are the API's envelope, like every other /web/ answer.
    expect(intruding.json()).toMatchObject({ code: '1004', datum: null })
    const deleting = await app.inject({
      method: 'DELETE',
      url: `/web/upload/resumable/${uploadId}`,
      headers: { ...tus, token: other },
    })
    expect(deleting.statusCode).toBe(404)
    await patch(app, token, uploadId, 0, Buffer.from('0123456789'))
    const otherId = await userIdOf(app, other)
    const refusal = await refusalOf(claimResumableUpload(app, { userId: otherId, uploadId }))
    expect(refusal.kind).toBe('notFound')
    // The owner's upload is untouched by all of that.
    expect((await head(app, token, uploadId)).headers['upload-offset']).toBe('10')
  })

  it('needs an editor sign-in before any byte is read', async () => {
    const anonymous = await app.inject({
      method: 'POST',
      url: '/web/upload/resumable',
      headers: { ...tus, 'upload-length': '10', 'upload-metadata': metadataHeader({}) },
    })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json()).toMatchObject({ code: '2011' })
    const guest = await signInNewUser(app, `guest-${randomBytes(3).toString('hex')}`, 'guest')
    expect((await createUpload(app, guest, 10)).statusCode).toBe(403)
    expect(await readdir(testApp.config.resumableDir).catch(() => [])).toEqual([])
  })

  it('answers a request that is not tus (no Tus-Resumable, a malformed header) with an envelope', async () => {
    const noVersion = await app.inject({
      method: 'POST',
      url: '/web/upload/resumable',
      headers: { token, 'upload-length': '10', 'upload-metadata': metadataHeader({}) },
    })
    expect(noVersion.statusCode).toBe(400)
    expect(noVersion.json()).toMatchObject({ code: '1000' })
    expect(noVersion.body).toContain('Tus-Resumable')
    const badLength = await app.inject({
      method: 'POST',
      url: '/web/upload/resumable',
      headers: { ...tus, token, 'upload-length': 'ten' },
    })
    expect(badLength.statusCode).toBe(400)
    expect(badLength.json()).toMatchObject({ code: '1000' })
    const unknown = await app.inject({
      method: 'DELETE',
      url: '/web/upload/resumable',
      headers: { ...tus, token },
    })
    expect(unknown.statusCode).toBeGreaterThanOrEqual(400)
    expect(unknown.json()).toHaveProperty('code')
    expect(await readdir(testApp.config.resumableDir).catch(() => [])).toEqual([])
  })

  it('refuses creation without a file name or with an unknown purpose', async () => {
    const noName = await createUpload(app, token, 10, { purpose: 'model' })
    expect(noName.statusCode).toBe(400)
    expect(noName.json()).toMatchObject({ code: '1000' })
    expect(noName.body).toContain('filename')
    const badPurpose = await createUpload(app, token, 10, { filename: 'a.zip', purpose: 'x' })
    expect(badPurpose.statusCode).toBe(400)
    expect(badPurpose.body).toContain('purpose')
    const traversal = await createUpload(app, token, 10, {
      filename: '../../etc/passwd',
      purpose: 'other',
    })
    expect(traversal.statusCode).toBe(400)
  })

  it('caps the uploads one user holds at once, without touching other users', async () => {
    for (let index = 0; index < defaultMaxUploadsPerUser; index += 1) {
      expect((await createUpload(app, token, 10)).statusCode).toBe(201)
    }
    const over = await createUpload(app, token, 10)
    expect(over.statusCode).toBe(409)
    expect(over.json()).toMatchObject({ code: '1009' })
    const other = await signInNewUser(app, `capped-other-${randomBytes(3).toString('hex')}`)
    expect((await createUpload(app, other, 10)).statusCode).toBe(201)
  })

  it('refuses a claim of a malformed or made-up id', async () => {
    const userId = await userIdOf(app, token)
    const malformed = await refusalOf(
      claimResumableUpload(app, { userId, uploadId: '../../twinscape.sqlite' }),
    )
    expect(malformed.kind).toBe('validation')
    const madeUp = await refusalOf(claimResumableUpload(app, { userId, uploadId: 'a'.repeat(32) }))
    expect(madeUp.kind).toBe('notFound')
  })
})

describe('resumable upload limits and expiry', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let token: string

  beforeEach(async () => {
    testApp = await createTestApp({
      env: { RESUMABLE_UPLOAD_LIMIT_MB: '1', RESUMABLE_UPLOAD_EXPIRY_HOURS: '24' },
    })
    app = testApp.app
    token = await signInNewUser(app, `limits-${randomBytes(3).toString('hex')}`)
  })
  afterEach(async () => {
    await testApp.close()
  })

  it('refuses an upload over RESUMABLE_UPLOAD_LIMIT_MB, declared or sent', async () => {
    const declared = await createUpload(app, token, 1_048_577)
    expect(declared.statusCode).toBe(413)
    expect(declared.json()).toMatchObject({
      code: '1013',
      message: 'The file is larger than the 1 MB allowed.',
    })
    const options = await app.inject({ method: 'OPTIONS', url: '/web/upload/resumable' })
    expect(options.headers['tus-max-size']).toBe('1048576')

    // Declared within the limit, then more bytes than declared: tus stops at the length.
    const uploadId = await startedUpload(app, token, 1_000)
    const overflow = await patch(app, token, uploadId, 0, randomBytes(5_000))
    expect(overflow.statusCode).toBeGreaterThanOrEqual(400)
    const status = await head(app, token, uploadId)
    expect(Number(status.headers['upload-offset'])).toBeLessThanOrEqual(1_000)
  })

  it('expires uploads older than RESUMABLE_UPLOAD_EXPIRY_HOURS and sweeps their files', async () => {
    const stale = await startedUpload(app, token, 100)
    await patch(app, token, stale, 0, randomBytes(40))
    const fresh = await startedUpload(app, token, 100)
    // Age the stale one's creation time on disk, as 25 hours would.
    const infoPath = join(testApp.config.resumableDir, `${stale}.json`)
    const info = JSON.parse(await readFile(infoPath, 'utf8')) as { creation_date: string }
    info.creation_date = new Date(Date.now() - 25 * 3_600_000).toISOString()
    await writeFile(infoPath, JSON.stringify(info))

    expect((await head(app, token, stale)).statusCode).toBe(410)
    expect((await patch(app, token, stale, 40, randomBytes(60))).statusCode).toBe(410)
    const userId = await userIdOf(app, token)
    await patch(app, token, fresh, 0, randomBytes(100))

    expect(await resumableUploadsOf(app).sweepExpired()).toBe(1)
    expect((await readdir(testApp.config.resumableDir)).sort()).toEqual(
      [fresh, `${fresh}.json`].sort(),
    )
    expect((await refusalOf(claimResumableUpload(app, { userId, uploadId: stale }))).kind).toBe(
      'notFound',
    )
    const claimed = await claimResumableUpload(app, { userId, uploadId: fresh })
    await claimed.release()
  })
})
