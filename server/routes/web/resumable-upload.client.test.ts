import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/api/client'
import {
  createUploadTransport,
  type UploadTransportOptions,
} from '../../../src/api/resumable-transport'
import { claimResumableUpload } from '../../modules/resumable-uploads/claim-upload'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { signInNewUser } from './project-test-kit'

type UrlStorage = NonNullable<UploadTransportOptions['urlStorage']>
type StoredUpload = Parameters<UrlStorage['addUpload']>[1]

/** tus-js-client's "remember unfinished uploads" store, kept in memory as a page's localStorage. */
function memoryUrlStorage(): UrlStorage & {
  entries: Map<string, StoredUpload & { fingerprint: string }>
} {
  const entries = new Map<string, StoredUpload & { fingerprint: string }>()
  let counter = 0
  return {
    entries,
    async findAllUploads() {
      return [...entries.values()]
    },
    async findUploadsByFingerprint(fingerprint) {
      return [...entries.values()].filter((entry) => entry.fingerprint === fingerprint)
    },
    async removeUpload(key) {
      entries.delete(key)
    },
    async addUpload(fingerprint, upload) {
      counter += 1
      const key = `upload-${counter}`
      entries.set(key, { ...upload, fingerprint, urlStorageKey: key })
      return key
    },
  }
}

/**
 * The browser upload client (src/api/resumable-transport.ts) against the real server over real
 * HTTP, tus-js-client's Node build standing in for the browser's.
 */
describe('uploadResumable against the server', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let baseUrl: string
  let token: string
  /** PATCH requests whose connection the server drops before answering… */
  let patchesToDrop = 0
  /** …after letting this many through. */
  let patchesToPass = 0
  let sessionTimeouts = 0

  beforeAll(async () => {
    testApp = await createTestApp({
      routes: (instance) => {
        instance.addHook('onRequest', async (request, reply) => {
          if (request.method !== 'PATCH' || patchesToDrop === 0) return
          if (patchesToPass > 0) {
            patchesToPass -= 1
            return
          }
          patchesToDrop -= 1
          reply.hijack()
          request.raw.socket.destroy()
        })
      },
    })
    app = testApp.app
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening')
    baseUrl = `http://127.0.0.1:${address.port}/web`
    token = await signInNewUser(app, `client-${randomBytes(3).toString('hex')}`)
  })
  afterAll(async () => {
    await testApp.close()
  })
  beforeEach(() => {
    patchesToDrop = 0
    patchesToPass = 0
    sessionTimeouts = 0
  })

  const transportWith = (overrides: Partial<UploadTransportOptions> = {}) =>
    createUploadTransport({
      getToken: () => token,
      onSessionTimeout: () => {
        sessionTimeouts += 1
      },
      baseUrl,
      chunkSizeBytes: 64 * 1024,
      retryDelaysMs: [0, 50, 100],
      ...overrides,
    })

  const userId = async () => (await app.deps.services.auth.authenticate(token))!.user.id

  it('sends the file in chunks with real progress and answers an id a route can claim', async () => {
    const content = randomBytes(300_000)
    const progress: number[] = []
    const { uploadId } = await transportWith().uploadResumable(content, {
      purpose: 'tileset',
      fileName: 'city.3tz',
      onProgress: (sentBytes, totalBytes) => {
        expect(totalBytes).toBe(content.length)
        progress.push(sentBytes)
      },
    })
    expect(progress.at(-1)).toBe(content.length)
    expect([...progress].sort((a, b) => a - b)).toEqual(progress)
    // Several chunks, each reported as it went.
    expect(progress.filter((sent) => sent > 0 && sent < content.length).length).toBeGreaterThan(2)
    const claimed = await claimResumableUpload(app, { userId: await userId(), uploadId })
    expect(claimed).toMatchObject({ fileName: 'city.3tz', purpose: 'tileset' })
    expect((await readFile(claimed.filePath)).equals(content)).toBe(true)
    await claimed.release()
  })

  it('retries a dropped connection from the offset the server has', async () => {
    const content = randomBytes(200_000)
    patchesToDrop = 1
    const { uploadId } = await transportWith().uploadResumable(content, {
      purpose: 'model',
      fileName: 'tower.glb',
    })
    expect(patchesToDrop).toBe(0)
    const claimed = await claimResumableUpload(app, { userId: await userId(), uploadId })
    expect((await readFile(claimed.filePath)).equals(content)).toBe(true)
    await claimed.release()
  })

  it('resumes an upload that failed earlier (e.g. before a reload) instead of starting over', async () => {
    const content = randomBytes(250_000)
    const urlStorage = memoryUrlStorage()
    const offsets: number[] = []
    // A first attempt that gives up once the connection drops after two chunks: no retries.
    patchesToPass = 2
    patchesToDrop = 1
    const failed = await transportWith({ urlStorage, retryDelaysMs: [] })
      .uploadResumable(content, {
        purpose: 'model',
        fileName: 'tower.glb',
        onProgress: (sentBytes) => offsets.push(sentBytes),
      })
      .catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(ApiError)
    expect((failed as ApiError).reason).toBe('network')
    const remembered = [...urlStorage.entries.values()]
    expect(remembered).toHaveLength(1)
    const firstUploadUrl = remembered[0]!.uploadUrl!

    const resumed: number[] = []
    const { uploadId } = await transportWith({ urlStorage }).uploadResumable(content, {
      purpose: 'model',
      fileName: 'tower.glb',
      onProgress: (sentBytes) => resumed.push(sentBytes),
    })
    expect(firstUploadUrl.endsWith(`/${uploadId}`)).toBe(true)
    // It went on from where the server was (two chunks in), not from zero.
    expect(Math.min(...resumed)).toBeGreaterThanOrEqual(2 * 64 * 1024)
    expect(urlStorage.entries.size).toBe(0)
    const claimed = await claimResumableUpload(app, { userId: await userId(), uploadId })
    expect((await readFile(claimed.filePath)).equals(content)).toBe(true)
    await claimed.release()
  })

  it('cancels on abort and deletes what the server had', async () => {
    const before = await readdir(testApp.config.resumableDir)
    const controller = new AbortController()
    const cancelled = await transportWith()
      .uploadResumable(randomBytes(400_000), {
        purpose: 'other',
        fileName: 'big.bin',
        signal: controller.signal,
        onProgress: (sentBytes) => {
          if (sentBytes > 100_000) controller.abort()
        },
      })
      .catch((error: unknown) => error)
    expect((cancelled as ApiError).reason).toBe('aborted')
    // The termination request runs after the rejection; wait for it to land.
    await vi.waitFor(
      async () => expect(await readdir(testApp.config.resumableDir)).toEqual(before),
      { timeout: 10_000, interval: 100 },
    )
  })

  it("rejects a refused upload with the server's code and message", async () => {
    const refused = await transportWith()
      .uploadResumable(Buffer.alloc(10), { purpose: 'gml', fileName: 'a/b.gml' })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ reason: 'server', code: '1000', httpStatus: 400 })
    expect((refused as ApiError).message).toContain('filename')
  })

  it("rejects with the server's envelope and reports a session timeout", async () => {
    const expired = createUploadTransport({
      getToken: () => 'not-a-valid-token',
      onSessionTimeout: () => {
        sessionTimeouts += 1
      },
      baseUrl,
      retryDelaysMs: [],
    })
    const refused = await expired
      .uploadResumable(randomBytes(10), { purpose: 'gml', fileName: 'a.gml' })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).code).toBe('2011')
    expect((refused as ApiError).httpStatus).toBe(401)
    expect(sessionTimeouts).toBe(1)
  })
})
