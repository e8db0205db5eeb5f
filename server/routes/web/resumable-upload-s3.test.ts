import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  GetObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import type { FastifyInstance } from 'fastify'
import { zipSync } from 'fflate'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ObliquePhotograph } from '../../../contract/city'
import { uploadIdOfLocation } from '../../../contract/resumable-upload'
import { AppError } from '../../http/app-error'
import { claimResumableUpload } from '../../modules/resumable-uploads/claim-upload'
import { resumableUploadsOf } from '../../modules/resumable-uploads/resumable-uploads'
import { s3ClientConfigOf } from '../../plugins/storage-settings'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import { startTestObjectStore, type TestObjectStore } from '../../testing/test-object-store'
import { createProject, signInNewUser } from './project-test-kit'

/**
 * Issue 22: with STORAGE_URL=s3://…, resumable (tus) uploads keep their bytes in the bucket as
 * they arrive (a multipart upload under `<prefix>resumable/`), so an upload begun through one
 * server process resumes through another, and a claim hands the consumer the same file as
 * with the folder. Two app instances on one database and one bucket (s3rver), on SQLite or
 * on PostgreSQL when DATABASE_URL names one.
 */

const tus = { 'tus-resumable': '1.0.0' }
/** The smallest multipart part S3 takes but the last: below it a piece waits as `<id>.part`. */
const minPartBytes = 5 * 1024 * 1024

function metadataHeader(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',')
}

async function startedUpload(app: FastifyInstance, token: string, lengthBytes: number) {
  const created = await app.inject({
    method: 'POST',
    url: '/web/upload/resumable',
    headers: {
      ...tus,
      token,
      'upload-length': String(lengthBytes),
      'upload-metadata': metadataHeader({ filename: 'city.zip', purpose: 'tileset' }),
    },
  })
  expect(created.statusCode).toBe(201)
  return uploadIdOfLocation(String(created.headers.location))!
}

const patch = (
  app: FastifyInstance,
  token: string,
  uploadId: string,
  offset: number,
  bytes: Buffer,
) =>
  app.inject({
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

const head = (app: FastifyInstance, token: string, uploadId: string) =>
  app.inject({
    method: 'HEAD',
    url: `/web/upload/resumable/${uploadId}`,
    headers: { ...tus, token },
  })

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

/** What this machine holds of the resumable uploads (nothing but claimed copies' folder). */
const localUploads = async (testApp: TestApp) =>
  (await readdir(testApp.config.resumableDir).catch(() => [] as string[])).filter(
    (name) => name !== 'claimed',
  )

let objectStore: TestObjectStore
let client: S3Client
beforeAll(async () => {
  objectStore = await startTestObjectStore()
  client = new S3Client(s3ClientConfigOf(objectStore.settings('any')))
})
afterAll(async () => {
  client?.destroy()
  await objectStore?.close()
})

describe('resumable uploads in an S3 store', () => {
  let first: TestApp
  let second: TestApp
  let token: string
  let prefix: string
  let testIndex = 0

  beforeEach(async () => {
    testIndex += 1
    prefix = `resumable-${testIndex}`
    first = await createTestApp({ env: objectStore.env(prefix) })
    second = await createTestApp({ sharing: first, env: objectStore.env(prefix) })
    token = await signInNewUser(first.app, `s3-uploader-${randomBytes(3).toString('hex')}`)
  })
  afterEach(async () => {
    await second?.close()
    await first?.close()
  })

  /** The keys under `<prefix>/resumable/`, relative to it. */
  const bucketKeys = async () => {
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: objectStore.bucket, Prefix: `${prefix}/resumable/` }),
    )
    return (listed.Contents ?? [])
      .map((object) => object.Key!.slice(`${prefix}/resumable/`.length))
      .sort()
  }

  /** The multipart upload behind an upload, as its record in the bucket names it. */
  const multipartIdOf = async (uploadId: string) => {
    const record = await client.send(
      new GetObjectCommand({
        Bucket: objectStore.bucket,
        Key: `${prefix}/resumable/${uploadId}.info`,
      }),
    )
    return record.Metadata!['upload-id']!
  }

  /** Whether the bucket still holds parts of that multipart upload (false once aborted). */
  const holdsParts = async (uploadId: string, multipartId: string) =>
    client
      .send(
        new ListPartsCommand({
          Bucket: objectStore.bucket,
          Key: `${prefix}/resumable/${uploadId}`,
          UploadId: multipartId,
        }),
      )
      .then(
        () => true,
        (error: { name?: string }) => {
          if (error.name === 'NoSuchUpload') return false
          throw error
        },
      )

  it('keeps the pieces in the bucket and resumes through another process', async () => {
    const content = randomBytes(minPartBytes + 700_000)
    const uploadId = await startedUpload(first.app, token, content.length)
    const firstPiece = content.subarray(0, minPartBytes + 200_000)
    const sent = await patch(first.app, token, uploadId, 0, firstPiece)
    expect(sent.statusCode).toBe(204)
    expect(sent.headers['upload-offset']).toBe(String(firstPiece.length))

    // the other process knows where the upload stands: nothing of it is on either's disk
    const status = await head(second.app, token, uploadId)
    expect(status.statusCode).toBe(200)
    expect(status.headers['upload-offset']).toBe(String(firstPiece.length))
    expect(status.headers['upload-length']).toBe(String(content.length))
    expect(await localUploads(first)).toEqual([])
    expect(await bucketKeys()).toEqual([`${uploadId}.info`])
    const multipartId = await multipartIdOf(uploadId)
    expect(await holdsParts(uploadId, multipartId)).toBe(true)

    // a short piece waits in the bucket too (below S3's smallest part), then the rest
    const shortPiece = content.subarray(firstPiece.length, firstPiece.length + 1_000)
    expect(
      (await patch(second.app, token, uploadId, firstPiece.length, shortPiece)).statusCode,
    ).toBe(204)
    expect(await bucketKeys()).toEqual([`${uploadId}.info`, `${uploadId}.part`])
    const offset = firstPiece.length + shortPiece.length
    expect((await head(first.app, token, uploadId)).headers['upload-offset']).toBe(String(offset))
    const rest = await patch(first.app, token, uploadId, offset, content.subarray(offset))
    expect(rest.statusCode).toBe(204)
    expect(rest.headers['upload-offset']).toBe(String(content.length))

    // the finished upload is the same file for its consumer as with the folder store
    const userId = await userIdOf(first.app, token)
    const claimed = await claimResumableUpload(second.app, { userId, uploadId })
    expect(claimed).toMatchObject({
      fileName: 'city.zip',
      purpose: 'tileset',
      sizeBytes: content.length,
    })
    expect((await readFile(claimed.filePath)).equals(content)).toBe(true)
    // one consumer at a time (across processes on PostgreSQL: two-processes.test.ts)
    expect((await refusalOf(claimResumableUpload(second.app, { userId, uploadId }))).kind).toBe(
      'conflict',
    )
    await claimed.release()
    expect(await bucketKeys()).toEqual([])
    expect(await readdir(join(second.config.resumableDir, 'claimed'))).toEqual([])
    expect((await head(first.app, token, uploadId)).statusCode).toBe(404)
  })

  it('hands a finished upload to its consumer: a tileset archive becomes a served tileset', async () => {
    const tile = Buffer.alloc(64)
    tile.write('b3dm-from-the-bucket')
    const tilesetJson = {
      asset: { version: '1.0' },
      geometricError: 10,
      root: {
        boundingVolume: { box: [0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5] },
        geometricError: 0,
        content: { uri: 'a.b3dm' },
      },
    }
    const zip = Buffer.from(
      zipSync({ 'tileset.json': Buffer.from(JSON.stringify(tilesetJson)), 'a.b3dm': tile }),
    )
    const project = await createProject(first.app, token, { kind: 'city' })
    const uploadId = await startedUpload(first.app, token, zip.length)
    expect((await patch(second.app, token, uploadId, 0, zip)).statusCode).toBe(204)
    const answer = await callApi<ObliquePhotograph>(second.app, {
      url: '/web/upload/uploadTiltModel',
      token,
      json: { project_id: project.id, upload_id: uploadId },
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    const rootUrl = answer.envelope.datum.root_url!
    const served = await first.app.inject({
      method: 'GET',
      url: rootUrl.replace(/tileset\.json$/, 'a.b3dm'),
    })
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload.equals(tile)).toBe(true)
    // the upload is released: nothing of it left in the bucket or on this machine
    expect(await bucketKeys()).toEqual([])
    expect(await readdir(join(second.config.resumableDir, 'claimed'))).toEqual([])
  })

  it('removes a terminated or expired upload from the bucket, its parts with it', async () => {
    const content = randomBytes(minPartBytes + 100_000)
    const stale = await startedUpload(first.app, token, content.length)
    const firstPiece = content.subarray(0, minPartBytes + 10_000)
    expect((await patch(first.app, token, stale, 0, firstPiece)).statusCode).toBe(204)
    expect(
      (
        await patch(
          first.app,
          token,
          stale,
          firstPiece.length,
          content.subarray(firstPiece.length, firstPiece.length + 10),
        )
      ).statusCode,
    ).toBe(204)
    const staleParts = await multipartIdOf(stale)
    const fresh = await startedUpload(second.app, token, 100)
    const terminated = await startedUpload(second.app, token, content.length)
    expect((await patch(second.app, token, terminated, 0, firstPiece)).statusCode).toBe(204)
    const terminatedParts = await multipartIdOf(terminated)

    // its owner gives up on one: gone from the bucket, its parts too
    const terminating = await first.app.inject({
      method: 'DELETE',
      url: `/web/upload/resumable/${terminated}`,
      headers: { ...tus, token },
    })
    expect(terminating.statusCode).toBe(204)
    expect(await holdsParts(terminated, terminatedParts)).toBe(false)
    expect((await bucketKeys()).filter((key) => key.startsWith(terminated))).toEqual([])

    // age the stale one's record as 25 hours would
    const Key = `${prefix}/resumable/${stale}.info`
    const record = await client.send(new GetObjectCommand({ Bucket: objectStore.bucket, Key }))
    const info = JSON.parse(await record.Body!.transformToString()) as { creation_date: string }
    info.creation_date = new Date(Date.now() - 25 * 3_600_000).toISOString()
    await client.send(
      new PutObjectCommand({
        Bucket: objectStore.bucket,
        Key,
        Body: JSON.stringify(info),
        Metadata: record.Metadata,
      }),
    )
    expect((await head(second.app, token, stale)).statusCode).toBe(410)

    // s3rver cannot list multipart uploads (ListMultipartUploads): the sweep goes on without
    expect(await resumableUploadsOf(second.app).sweepExpired()).toBe(1)
    expect(await bucketKeys()).toEqual([`${fresh}.info`])
    expect(await holdsParts(stale, staleParts)).toBe(false)
    const userId = await userIdOf(first.app, token)
    expect(
      (await refusalOf(claimResumableUpload(first.app, { userId, uploadId: stale }))).kind,
    ).toBe('notFound')
  })

  it('answers 503 while the bucket is out of reach, and carries on after', async () => {
    const content = randomBytes(1_000)
    const uploadId = await startedUpload(first.app, token, content.length)
    const userId = await userIdOf(first.app, token)
    await objectStore.stop()
    try {
      const refusal = await refusalOf(claimResumableUpload(second.app, { userId, uploadId }))
      expect(refusal.kind).toBe('unavailable')
      const status = await head(first.app, token, uploadId)
      expect(status.statusCode).toBe(503)
      expect(status.json()).toMatchObject({ code: '1503' })
    } finally {
      await objectStore.restart()
    }
    expect((await patch(second.app, token, uploadId, 0, content)).statusCode).toBe(204)
    const claimed = await claimResumableUpload(first.app, { userId, uploadId })
    expect((await readFile(claimed.filePath)).equals(content)).toBe(true)
    await claimed.release()
  })
})
