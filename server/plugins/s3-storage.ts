import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { AppError } from '../http/app-error'
import { createReadPresigner } from './s3-presign'
import { type S3StorageSettings, s3ClientConfigOf } from './storage-settings'
import {
  type FileSource,
  type ByteSpan,
  type FileStorage,
  type NamedFiles,
  readHead,
  type SignedAnswer,
  requireSha256,
  type StorageArea,
  type StoredFileInfo,
  STORED_FILE_READ_BYTES,
  startsGzip,
  temporaryPrefix,
  writeHashed,
} from './storage'

/** What a client is told to wait (`Retry-After`) when the object store cannot be reached. */
export const storeRetryAfterSeconds = 30

/** Signed addresses kept at most (about 0.5 kB each); past it the window's memo starts over. */
const maxSignedPerWindow = 20_000

/** Failures to reach the store at all (as opposed to answers from it). */
const networkErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
])

/**
 * The file store in an S3-compatible bucket (issue 22 Build 1), keeping the folder's contract
 * (storage-contract.test.ts runs both): files are keyed `<prefix>files/<2 hex>/<sha256>`. The key
 * is the content's hash, known only once the last byte is in, so a write is spooled to a local
 * file while it is hashed, then sent (multipart past 5 MiB); bytes the bucket already holds are
 * not sent again. A store that cannot be reached answers `unavailable` (503, Retry-After) and
 * recovers by itself: nothing about it is cached.
 */
export async function createS3FileStorage(
  settings: S3StorageSettings,
  spoolDirectory: string,
  options: { onStoreError?: (error: unknown) => void } = {},
): Promise<FileStorage> {
  await mkdir(spoolDirectory, { recursive: true })
  const client = new S3Client(s3ClientConfigOf(settings))
  const Bucket = settings.bucket
  const keyOf = (sha256: string) =>
    `${settings.prefix}files/${requireSha256(sha256).slice(0, 2)}/${sha256}`

  /** A failure of the store becomes a 503 with a retry time; its cause goes to the log. */
  const unavailable = (error: unknown): unknown => {
    if (error instanceof AppError || !isStoreFailure(error)) return error
    options.onStoreError?.(error)
    return new AppError(
      'unavailable',
      'error.unavailable',
      {},
      { datum: { retryAfterSeconds: storeRetryAfterSeconds } },
    )
  }

  /** The object's head, or undefined when there is none by that key. */
  const headOf = async (Key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key }))
    } catch (error) {
      if (isMissingObject(error)) return undefined
      throw unavailable(error)
    }
  }
  const infoOf = (head: { ContentLength?: number; LastModified?: Date }): StoredFileInfo => ({
    sizeBytes: head.ContentLength ?? 0,
    modifiedMs: head.LastModified?.getTime() ?? 0,
  })
  const statOf = async (sha256: string): Promise<StoredFileInfo | undefined> => {
    const head = await headOf(keyOf(sha256))
    return head === undefined ? undefined : infoOf(head)
  }
  const sizeOf = async (sha256: string) => (await statOf(sha256))?.sizeBytes

  const openKey = async (Key: string, span?: ByteSpan): Promise<Readable> => {
    const Range = span === undefined ? undefined : `bytes=${span.start}-${span.end}`
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key, Range }))
      return answer.Body as Readable
    } catch (error) {
      if (isMissingObject(error)) throw new AppError('notFound', 'file.notFound')
      throw unavailable(error)
    }
  }

  // An address is the same for the whole signing window: each is signed once a window (and
  // signing is cheap, s3-presign.ts, so the first request of a window or of a tile past the
  // memo's bound does not wait for the SDK's milliseconds either).
  const presigner = createReadPresigner(client, Bucket)
  const signedThisWindow = new Map<string, string>()
  let signingWindowStartMs = 0
  const signKey = async (Key: string, answer: SignedAnswer) => {
    if (settings.serve !== 'redirect') return undefined
    // Signed as of the start of a window half as long as the validity: a file keeps one
    // address that long, so browsers and CDNs reuse what they fetched, and every address
    // handed out still has at least half its validity left.
    const windowMs = settings.signedUrlSeconds * 500
    const windowStartMs = Math.floor(Date.now() / windowMs) * windowMs
    if (windowStartMs !== signingWindowStartMs || signedThisWindow.size >= maxSignedPerWindow) {
      signedThisWindow.clear()
      signingWindowStartMs = windowStartMs
    }
    const { contentType, cacheControl, contentDisposition } = answer
    const memoKey = JSON.stringify([Key, contentType, cacheControl, contentDisposition])
    const signed = signedThisWindow.get(memoKey)
    if (signed !== undefined) return signed
    const url = await presigner.sign(
      Key,
      {
        ResponseContentType: contentType,
        ResponseCacheControl: cacheControl,
        ResponseContentDisposition: contentDisposition,
      },
      { dateMs: windowStartMs, expiresIn: settings.signedUrlSeconds },
    )
    signedThisWindow.set(memoKey, url)
    return url
  }

  /** Sends `Body` to `Key` (multipart past 5 MiB), with the encoding it is to be answered with. */
  const upload = async (Key: string, Body: Readable | Uint8Array, ContentEncoding?: string) => {
    try {
      await new Upload({ client, params: { Bucket, Key, Body, ContentEncoding } }).done()
    } catch (error) {
      throw unavailable(error)
    }
  }

  const named = (area: StorageArea): NamedFiles => {
    const areaPrefix = `${settings.prefix}${area}/`
    const folderPrefix = (folder: string) =>
      folder === '' ? areaPrefix : `${areaPrefix}${folder}/`
    const keysUnder = async function* (folder: string) {
      let ContinuationToken: string | undefined
      do {
        let page: Awaited<ReturnType<typeof listPage>>
        try {
          page = await listPage(folderPrefix(folder), ContinuationToken)
        } catch (error) {
          throw unavailable(error)
        }
        yield* page.Contents ?? []
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken !== undefined)
    }
    const listPage = (Prefix: string, ContinuationToken: string | undefined) =>
      client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }))
    return {
      // an object appears only once its upload has ended whole (durable either way): a failed
      // multipart upload is aborted by the SDK, one of a killed process is left to the bucket's
      // lifecycle rule (docs/deploy.md)
      async write(name, source) {
        const { head, body } = await withHead(source)
        await upload(`${areaPrefix}${name}`, body, startsGzip(head) ? 'gzip' : undefined)
      },
      async adopt(name, path) {
        // a file stream: the SDK sizes its parts from the file's size (up to 10,000 parts)
        const head = await readHead(path, 2)
        const body = createReadStream(path, { highWaterMark: STORED_FILE_READ_BYTES })
        try {
          await upload(`${areaPrefix}${name}`, body, startsGzip(head) ? 'gzip' : undefined)
        } finally {
          body.destroy()
        }
      },
      async statOf(name) {
        const head = await headOf(`${areaPrefix}${name}`)
        if (head === undefined) return undefined
        const contentEncoding = head.ContentEncoding === 'gzip' ? 'gzip' : undefined
        return { ...infoOf(head), contentEncoding }
      },
      open: (name, span) => openKey(`${areaPrefix}${name}`, span),
      async list(folder) {
        const found: Array<{ name: string; sizeBytes: number; modifiedMs: number }> = []
        const start = folderPrefix(folder).length
        for await (const object of keysUnder(folder)) {
          found.push({
            name: object.Key!.slice(start),
            sizeBytes: object.Size ?? 0,
            modifiedMs: object.LastModified?.getTime() ?? 0,
          })
        }
        return found.sort((a, b) => a.name.localeCompare(b.name))
      },
      async remove(name) {
        try {
          await client.send(new DeleteObjectCommand({ Bucket, Key: `${areaPrefix}${name}` }))
        } catch (error) {
          if (!isMissingObject(error)) throw unavailable(error)
        }
      },
      async removeFolder(folder) {
        let batch: Array<{ Key: string }> = []
        const removeBatch = async () => {
          if (batch.length === 0) return
          const Delete = { Objects: batch, Quiet: true }
          batch = []
          try {
            await client.send(new DeleteObjectsCommand({ Bucket, Delete }))
          } catch (error) {
            throw unavailable(error)
          }
        }
        for await (const object of keysUnder(folder)) {
          batch.push({ Key: object.Key! })
          // the most one request deletes
          if (batch.length === 1000) await removeBatch()
        }
        await removeBatch()
      },
      signedReadUrl: (name, answer) => signKey(`${areaPrefix}${name}`, answer),
    }
  }

  return {
    location: { kind: 's3', settings, spoolDirectory },

    async put(source, putOptions = {}) {
      const spoolPath = join(spoolDirectory, `${temporaryPrefix}${randomUUID()}`)
      try {
        const { sha256, sizeBytes } = await writeHashed(source, spoolPath, {
          maxSizeBytes: putOptions.maxSizeBytes,
          sync: false,
        })
        if ((await sizeOf(sha256)) !== undefined) return { sha256, sizeBytes, isNew: false }
        const body = createReadStream(spoolPath, { highWaterMark: STORED_FILE_READ_BYTES })
        await upload(keyOf(sha256), body)
        return { sha256, sizeBytes, isNew: true }
      } finally {
        await rm(spoolPath, { force: true })
      }
    },

    open: async (sha256, span) => openKey(keyOf(sha256), span),

    async exists(sha256) {
      return (await sizeOf(sha256)) !== undefined
    },

    sizeOf,
    statOf,

    async remove(sha256) {
      if ((await sizeOf(sha256)) === undefined) return false
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(sha256) }))
      } catch (error) {
        throw unavailable(error)
      }
      return true
    },

    signedReadUrl: async (sha256, answer) => signKey(keyOf(sha256), answer),
    named,

    close() {
      client.destroy()
    },
  }
}

/**
 * The first bytes of a source (to tell a gzip-compressed file) and the whole of it to send: a
 * stream's first chunk is read ahead and put back in front.
 */
async function withHead(
  source: FileSource,
): Promise<{ head: Uint8Array; body: Readable | Uint8Array }> {
  if (source instanceof Uint8Array) return { head: source, body: source }
  const chunks = source[Symbol.asyncIterator]()
  const first = await chunks.next()
  if (first.done === true) return { head: new Uint8Array(), body: new Uint8Array() }
  const rest = { [Symbol.asyncIterator]: () => chunks }
  async function* all() {
    yield first.value
    yield* rest
  }
  return { head: first.value, body: Readable.from(all(), { objectMode: false }) }
}

function isMissingObject(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' ||
      error.name === 'NotFound' ||
      error.$metadata.httpStatusCode === 404)
  )
}

/** An answer of the store that is not about the file (denied, failing), or no answer at all. */
function isStoreFailure(error: unknown): boolean {
  if (error instanceof S3ServiceException) return true
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown }
  return (typeof code === 'string' && networkErrorCodes.has(code)) || name === 'TimeoutError'
}
