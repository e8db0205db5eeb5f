import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { type Options as S3StoreOptions, S3Store } from '@tus/s3-store'
import { resumableUploadIdPattern } from '../../../contract/resumable-upload'
import { AppError } from '../../http/app-error'
import { storeRetryAfterSeconds } from '../../plugins/s3-storage'
import { type S3StorageSettings, s3ClientConfigOf } from '../../plugins/storage-settings'
import type { ResumableStore } from './resumable-store'

/**
 * Nothing of an upload is remembered between requests: the next request for it may come to
 * another server process (issue 22: resumed through the survivor), which may have declared its
 * length, finished or removed it meanwhile. @tus/s3-store's default cache is per process and
 * would answer from such a stale copy; without one, each request reads the upload's record
 * from the bucket (one GET) and its offset from the bucket's list of parts.
 */
const keepsNothing: NonNullable<S3StoreOptions['cache']> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
}

/**
 * @tus/s3-store with every key under `keyPrefix`: it names objects by the bare upload id (the
 * record `<id>.info`, a short last piece `<id>.part`, the finished file `<id>`), and the bucket
 * is shared with the file store, so its keys are moved under the resumable uploads' own folder.
 */
class PrefixedS3Store extends S3Store {
  constructor(options: S3StoreOptions, keyPrefix: string) {
    super(options)
    this.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as {
          Key?: unknown
          Delete?: { Objects?: Array<{ Key?: string }> }
        }
        const prefixed: Record<string, unknown> = { ...input }
        if (typeof input.Key === 'string') prefixed.Key = `${keyPrefix}${input.Key}`
        if (input.Delete?.Objects !== undefined) {
          prefixed.Delete = {
            ...input.Delete,
            Objects: input.Delete.Objects.map((object) => ({
              ...object,
              Key: `${keyPrefix}${object.Key ?? ''}`,
            })),
          }
        }
        return next({ ...args, input: prefixed })
      },
      { step: 'initialize', name: 'resumableUploadKeyPrefix' },
    )
  }

  /**
   * S3Store answers "no such upload" (404) when it cannot read an upload's record for any
   * reason, the bucket out of reach included; the client would then start over. The record is
   * read again to tell the two apart: a bucket that fails is thrown as such (a 503 to retry).
   */
  override async getUpload(id: string): ReturnType<S3Store['getUpload']> {
    try {
      return await super.getUpload(id)
    } catch (error) {
      if ((error as { status_code?: unknown }).status_code !== 404) throw error
      const again = await this.getMetadata(id).then(
        () => undefined,
        (failure: unknown) => failure,
      )
      if (again !== undefined && !isMissing(again)) throw again
      throw error
    }
  }
}

/**
 * The resumable uploads in the S3-compatible bucket of the file store (issue 22 Build 1), under
 * `<prefix>resumable/`: each PATCH goes to the bucket as parts of a multipart upload, so any
 * server process can take the next PATCH, and a finished upload is one object there. Claiming
 * copies it to `directory` on this machine (its consumers read archives and PMTiles files as
 * files), and the copy goes with the claim.
 */
export function createS3ResumableStore(
  settings: S3StorageSettings,
  directory: string,
  expiryMs: number,
  onStoreError: (error: unknown) => void,
): ResumableStore {
  /** The bucket failing or out of reach: a 503 the client may retry, as the file store answers. */
  const unavailable = (error: unknown): unknown => {
    if (error instanceof AppError) return error
    onStoreError(error)
    return new AppError(
      'unavailable',
      'error.unavailable',
      {},
      { datum: { retryAfterSeconds: storeRetryAfterSeconds } },
    )
  }
  const keyPrefix = `${settings.prefix}resumable/`
  const clientConfig = s3ClientConfigOf(settings)
  const Bucket = settings.bucket
  const datastore = new PrefixedS3Store(
    {
      s3ClientConfig: { ...clientConfig, bucket: Bucket },
      cache: keepsNothing,
      expirationPeriodInMilliseconds: expiryMs,
      // expiry is swept by this server (sweepExpired), not by a lifecycle rule on object tags,
      // which several S3-compatible stores do not support
      useTags: false,
    },
    keyPrefix,
  )
  const client = new S3Client(clientConfig)
  const claimedDirectory = join(directory, 'claimed')

  /** The upload's record object: its JSON, and the id of its multipart upload. */
  const readRecord = async (uploadId: string) => {
    try {
      const answer = await client.send(
        new GetObjectCommand({ Bucket, Key: `${keyPrefix}${uploadId}.info` }),
      )
      const text = (await answer.Body?.transformToString()) ?? ''
      const record = JSON.parse(text) as {
        metadata?: Record<string, string | null>
        creation_date?: string
      }
      return { record, multipartId: answer.Metadata?.['upload-id'] }
    } catch (error) {
      if (isMissing(error)) return undefined
      throw unavailable(error)
    }
  }

  const abort = async (Key: string, UploadId: string) => {
    try {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))
    } catch (error) {
      // already completed or aborted
      if (!isMissing(error)) throw unavailable(error)
    }
  }

  return {
    datastore,

    failureOf(error) {
      // tus's own "no such upload" (404, or 410 once expired), or the bucket's
      const status = (error as { status_code?: unknown } | undefined)?.status_code
      if (status === 404 || status === 410 || isMissing(error)) return undefined
      return unavailable(error)
    },

    async listUploads() {
      const found = new Map<string, number>()
      let ContinuationToken: string | undefined
      do {
        let page: ListObjectsV2CommandOutput
        try {
          page = await client.send(
            new ListObjectsV2Command({ Bucket, Prefix: keyPrefix, ContinuationToken }),
          )
        } catch (error) {
          throw unavailable(error)
        }
        for (const object of page.Contents ?? []) {
          const uploadId = (object.Key ?? '').slice(keyPrefix.length).replace(/\.(info|part)$/, '')
          const writtenAtMs = object.LastModified?.getTime() ?? 0
          found.set(uploadId, Math.min(writtenAtMs, found.get(uploadId) ?? writtenAtMs))
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken !== undefined)
      return [...found].map(([uploadId, writtenAtMs]) => ({ uploadId, writtenAtMs }))
    },

    async recordOf(uploadId) {
      const found = await readRecord(uploadId)
      if (found === undefined) return undefined
      const { metadata, creation_date: createdAt } = found.record
      return {
        metadata: metadata ?? {},
        createdAtMs: createdAt === undefined ? undefined : Date.parse(createdAt),
      }
    },

    async localFile(uploadId) {
      await mkdir(claimedDirectory, { recursive: true })
      const path = join(claimedDirectory, randomUUID())
      const dispose = () => rm(path, { force: true })
      try {
        let body: Readable
        try {
          const answer = await client.send(
            new GetObjectCommand({ Bucket, Key: `${keyPrefix}${uploadId}` }),
          )
          body = answer.Body as Readable
        } catch (error) {
          if (isMissing(error)) throw new AppError('notFound', 'upload.gone')
          throw unavailable(error)
        }
        await pipeline(body, createWriteStream(path, { flags: 'wx' }))
      } catch (error) {
        await dispose()
        throw error
      }
      return { path, dispose }
    },

    async remove(uploadId) {
      if (!resumableUploadIdPattern.test(uploadId)) return
      const found = await readRecord(uploadId)
      // the parts received so far: a multipart upload not aborted keeps them (and costs) forever
      if (found?.multipartId !== undefined) {
        await abort(`${keyPrefix}${uploadId}`, found.multipartId)
      }
      const Objects = ['', '.info', '.part'].map((suffix) => ({
        Key: `${keyPrefix}${uploadId}${suffix}`,
      }))
      try {
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }))
      } catch (error) {
        throw unavailable(error)
      }
    },

    async sweepStrays(beforeMs, isHeld) {
      let removed = await sweepClaimedCopies(claimedDirectory, beforeMs)
      let KeyMarker: string | undefined
      let UploadIdMarker: string | undefined
      let isTruncated = false
      do {
        let page: ListMultipartUploadsCommandOutput
        try {
          page = await client.send(
            new ListMultipartUploadsCommand({
              Bucket,
              Prefix: keyPrefix,
              KeyMarker,
              UploadIdMarker,
            }),
          )
        } catch (error) {
          // a store that cannot list them (s3rver) leaves them to its lifecycle rule for
          // incomplete multipart uploads (docs/deploy.md)
          if (isNotImplemented(error)) return removed
          throw unavailable(error)
        }
        for (const upload of page.Uploads ?? []) {
          const uploadId = (upload.Key ?? '').slice(keyPrefix.length)
          const initiatedMs = upload.Initiated?.getTime() ?? Number.POSITIVE_INFINITY
          if (!resumableUploadIdPattern.test(uploadId) || initiatedMs >= beforeMs) continue
          if (upload.UploadId === undefined || (await isHeld(uploadId))) continue
          await abort(upload.Key!, upload.UploadId)
          removed += 1
        }
        isTruncated = page.IsTruncated === true
        KeyMarker = page.NextKeyMarker
        UploadIdMarker = page.NextUploadIdMarker
      } while (isTruncated)
      return removed
    },
  }
}

/** Copies of claimed uploads a crash left on this machine. */
async function sweepClaimedCopies(claimedDirectory: string, beforeMs: number): Promise<number> {
  const names = await readdir(claimedDirectory).catch(() => [] as string[])
  let removed = 0
  for (const name of names) {
    const path = join(claimedDirectory, name)
    const info = await stat(path).catch(() => undefined)
    if (info === undefined || info.mtimeMs >= beforeMs) continue
    await rm(path, { force: true })
    removed += 1
  }
  return removed
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (['NoSuchKey', 'NoSuchUpload', 'NotFound'].includes(error.name) ||
      error.$metadata.httpStatusCode === 404)
  )
}

function isNotImplemented(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NotImplemented' || error.$metadata.httpStatusCode === 501)
  )
}
