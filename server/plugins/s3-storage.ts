import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { AppError } from '../http/app-error'
import type { S3StorageSettings } from './storage-settings'
import {
  type FileStorage,
  requireSha256,
  type StoredFileInfo,
  STORED_FILE_READ_BYTES,
  temporaryPrefix,
  writeHashed,
} from './storage'

/** What a client is told to wait (`Retry-After`) when the object store cannot be reached. */
export const storeRetryAfterSeconds = 30

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
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
    // Checksums only where S3 demands them: by default the SDK sends bodies aws-chunked with a
    // CRC32 trailer, which several S3-compatible stores keep verbatim, framing and all.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
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

  const statOf = async (sha256: string): Promise<StoredFileInfo | undefined> => {
    const Key = keyOf(sha256)
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }))
      return { sizeBytes: head.ContentLength ?? 0, modifiedMs: head.LastModified?.getTime() ?? 0 }
    } catch (error) {
      if (isMissingObject(error)) return undefined
      throw unavailable(error)
    }
  }
  const sizeOf = async (sha256: string) => (await statOf(sha256))?.sizeBytes

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
        const upload = new Upload({
          client,
          params: {
            Bucket,
            Key: keyOf(sha256),
            Body: createReadStream(spoolPath, { highWaterMark: STORED_FILE_READ_BYTES }),
          },
        })
        try {
          await upload.done()
        } catch (error) {
          throw unavailable(error)
        }
        return { sha256, sizeBytes, isNew: true }
      } finally {
        await rm(spoolPath, { force: true })
      }
    },

    async open(sha256, span) {
      const Key = keyOf(sha256)
      const Range = span === undefined ? undefined : `bytes=${span.start}-${span.end}`
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key, Range }))
        return answer.Body as Readable
      } catch (error) {
        if (isMissingObject(error)) throw new AppError('notFound', 'file.notFound')
        throw unavailable(error)
      }
    },

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

    async signedReadUrl(sha256, answer) {
      if (settings.serve !== 'redirect') return undefined
      const command = new GetObjectCommand({
        Bucket,
        Key: keyOf(sha256),
        ResponseContentType: answer.contentType,
        ResponseCacheControl: answer.cacheControl,
        ResponseContentDisposition: answer.contentDisposition,
      })
      // Signed as of the start of a window half as long as the validity: a file keeps one
      // address that long, so browsers and CDNs reuse what they fetched, and every address
      // handed out still has at least half its validity left.
      const windowMs = settings.signedUrlSeconds * 500
      const signingDate = new Date(Math.floor(Date.now() / windowMs) * windowMs)
      return getSignedUrl(client, command, { expiresIn: settings.signedUrlSeconds, signingDate })
    },

    close() {
      client.destroy()
    },
  }
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
