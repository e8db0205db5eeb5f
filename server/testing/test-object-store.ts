import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import S3rver from 's3rver'
import { expect } from 'vitest'
import { loadConfig } from '../config'
import type { S3StorageSettings } from '../plugins/storage-settings'

/**
 * A local S3-compatible server (s3rver, on a free port of 127.0.0.1) with one empty bucket, so
 * the S3 back-end of the file store is tested against a real HTTP store and needs no network.
 */
export interface TestObjectStore {
  bucket: string
  endpoint: string
  /** The variables that put a server's files in this store under `prefix`. */
  env(prefix: string, serve?: 'redirect' | 'proxy'): Record<string, string>
  /** The same, as the settings the server reads from them. */
  settings(prefix: string, serve?: 'redirect' | 'proxy'): S3StorageSettings
  /** Stops answering (the store is unreachable) and keeps what it stored. */
  stop(): Promise<void>
  /** Answers again, on the same address, with what it stored before `stop`. */
  restart(): Promise<void>
  /** Stops the server and deletes what it stored. */
  close(): Promise<void>
}

export async function startTestObjectStore(): Promise<TestObjectStore> {
  const directory = await mkdtemp(join(tmpdir(), 'twinscape-s3-'))
  const bucket = 'twinscape-test'
  const serverOn = (port: number) => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    })
    // just before its router, after the step that writes answers as XML
    const { middleware } = server as unknown as { middleware: KoaMiddleware[] }
    middleware.splice(middleware.length - 1, 0, multipartPartsOf(directory))
    return server
  }
  let server: S3rver | undefined = serverOn(0)
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const env = (prefix: string, serve: 'redirect' | 'proxy' = 'proxy') => ({
    STORAGE_URL: `s3://${bucket}/${prefix}`,
    STORAGE_SERVE: serve,
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: 'us-east-1',
    // s3rver's own keys: it checks signatures as S3 does
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  })
  return {
    bucket,
    endpoint,
    env,
    settings(prefix, serve) {
      const { storage } = loadConfig({ ...env(prefix, serve), DATA_DIR: directory })
      if (storage.kind !== 's3') throw new Error('the test store variables did not select S3')
      return storage
    },
    async stop() {
      await server?.close()
      server = undefined
    },
    async restart() {
      if (server !== undefined) return
      server = serverOn(port)
      await server.run()
    },
    async close() {
      await server?.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

/** The little of a Koa middleware this file uses. */
type KoaMiddleware = (context: KoaContext, next: () => Promise<void>) => Promise<void>
interface KoaContext {
  method: string
  path: string
  query: Record<string, string | string[] | undefined>
  status: number
  body: unknown
}

/**
 * ListParts and AbortMultipartUpload for s3rver 3.7, which answers both with 405 although it
 * takes the parts themselves (UploadPart, CompleteMultipartUpload). @tus/s3-store needs them
 * (an upload's offset is the sum of its parts; expiry aborts what was received), and every S3
 * store the product targets has them (AWS S3, MinIO, Ceph RGW, R2). Both read s3rver's own
 * record of a multipart upload, the folder `<bucket>/._S3rver_uploads/<upload id>/` holding
 * `key` and each part as `<n>` beside `<n>.md5`, which it removes when the upload completes.
 * ListMultipartUploads stays refused, as s3rver has it.
 */
function multipartPartsOf(directory: string): KoaMiddleware {
  return async (context, next) => {
    const uploadId = context.query.uploadId
    const path = /^\/([^/]+)\/(.+)$/.exec(context.path)
    const isOurs = context.method === 'GET' || context.method === 'DELETE'
    if (
      !isOurs ||
      path === null ||
      typeof uploadId !== 'string' ||
      !/^[0-9a-f]{32}$/.test(uploadId)
    ) {
      return next()
    }
    const [, bucketName, key] = path as unknown as [string, string, string]
    const uploadDirectory = join(directory, bucketName, '._S3rver_uploads', uploadId)
    const recordedKey = await readFile(join(uploadDirectory, 'key'), 'utf8').catch(() => undefined)
    if (recordedKey !== key) {
      context.status = 404
      context.body = {
        Error: { Code: 'NoSuchUpload', Message: 'The specified upload does not exist.' },
      }
      return
    }
    if (context.method === 'DELETE') {
      await rm(uploadDirectory, { recursive: true, force: true })
      context.status = 204
      context.body = null
      return
    }
    const names = await readdir(uploadDirectory)
    const numbers = names
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b)
    const parts = []
    for (const number of numbers) {
      const partPath = join(uploadDirectory, String(number))
      const md5 = await readFile(`${partPath}.md5`, 'utf8').catch(() => undefined)
      // a part still being written has no .md5 yet: not received
      if (md5 === undefined) continue
      const info = await stat(partPath)
      parts.push({
        PartNumber: number,
        LastModified: info.mtime.toISOString(),
        ETag: `"${md5}"`,
        Size: info.size,
      })
    }
    context.body = {
      ListPartsResult: {
        Bucket: bucketName,
        Key: key,
        UploadId: uploadId,
        PartNumberMarker: 0,
        NextPartNumberMarker: parts.at(-1)?.PartNumber ?? 0,
        MaxParts: 10_000,
        IsTruncated: false,
        ...(parts.length === 0 ? {} : { Part: parts }),
      },
    }
  }
}

/** An answer as a browser sees it: status, headers and the whole body. */
export interface BrowserAnswer {
  status: number
  header(name: string): string | undefined
  body: Buffer
}

/**
 * What a browser gets at `url` of the app. With `redirectsTo` (the app sends files by signed
 * redirect), the app must answer an uncacheable 302 into that store, and the store's answer at
 * the address is what the browser gets; without it, the app's own answer.
 */
export async function downloadAsBrowser(
  app: FastifyInstance,
  url: string,
  {
    headers = {},
    redirectsTo,
  }: { headers?: Record<string, string>; redirectsTo?: TestObjectStore },
): Promise<BrowserAnswer> {
  const answer = await app.inject({ method: 'GET', url, headers })
  if (redirectsTo === undefined) {
    return {
      status: answer.statusCode,
      header: (name) => answer.headers[name] as string | undefined,
      body: answer.rawPayload,
    }
  }
  expect(answer.statusCode).toBe(302)
  expect(answer.headers['cache-control']).toBe('no-store')
  const location = String(answer.headers.location)
  expect(location.startsWith(redirectsTo.endpoint)).toBe(true)
  const fromStore = await fetch(location, { headers })
  return {
    status: fromStore.status,
    header: (name) => fromStore.headers.get(name) ?? undefined,
    body: Buffer.from(await fromStore.arrayBuffer()),
  }
}

/**
 * Every file under a local `directory`, by name (none when it does not exist): with a bucket,
 * the tests check that nothing of what the store holds stays on the machine.
 */
export async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name)
}
