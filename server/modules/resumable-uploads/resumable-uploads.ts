import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Server, type ServerOptions } from '@tus/server'
import type { FastifyInstance } from 'fastify'
import { type ErrorKind, errorCatalogue } from '../../../contract/errors'
import { openProcessCoordination, type ProcessCoordination } from '../../plugins/coordination'
import { AppError } from '../../http/app-error'
import type { S3StorageSettings } from '../../plugins/storage-settings'
import { folderResumableStore, type ResumableStore } from './resumable-store'
import {
  type ResumableUploadPurpose,
  resumableFileNameMaxLength,
  resumableUploadIdPattern,
  resumableUploadPath,
  resumableUploadPurposes,
} from '../../../contract/resumable-upload'

/** What the server knows of one resumable upload. */
export interface ResumableUploadInfo {
  uploadId: string
  ownerId: string
  fileName: string
  purpose: ResumableUploadPurpose
  /** Bytes received so far (as the store holds them, so it survives a restart). */
  offsetBytes: number
  /** The length the client declared, or undefined while it is deferred. */
  sizeBytes: number | undefined
  createdAtMs: number
}

/**
 * The resumable (tus 1.0) uploads of one app: the tus server answering `/web/upload/resumable`,
 * its store (the folder `DATA_DIR/resumable/`, or the file store's S3 bucket), and what
 * claiming and expiry need.
 */
export interface ResumableUploads {
  /** Answers one tus request; the route has already authenticated it and called `bindUser`. */
  handle(raw: IncomingMessage, response: ServerResponse): Promise<void>
  /** Says whose request this is, for ownership checks inside the tus hooks. */
  bindUser(raw: IncomingMessage, userId: string): void
  /** The upload, or undefined if there is none with this id (or the id is malformed). */
  describeUpload(uploadId: string): Promise<ResumableUploadInfo | undefined>
  /** True once the upload's creation is older than the expiry period. */
  isExpired(info: ResumableUploadInfo): boolean
  /**
   * A finished upload as a file on this machine (where it lies in the folder store, a copy
   * from a bucket); `dispose` deletes the copy, if it is one.
   */
  localFile(uploadId: string): Promise<{ path: string; dispose(): Promise<void> }>
  /** Deletes an upload's bytes and metadata; a missing upload is not an error. */
  remove(uploadId: string): Promise<void>
  /**
   * Marks an upload as being consumed, so it cannot be claimed twice, patched or deleted
   * meanwhile, by this server process or another; false if it already is.
   */
  lock(uploadId: string): Promise<boolean>
  unlock(uploadId: string): Promise<void>
  /** Deletes expired uploads (unfinished, or finished and never claimed); how many. */
  sweepExpired(): Promise<number>
}

/** A tus hook's refusal: its status and text (sent as the envelope, see `envelopeBodyOf`). */
interface TusError {
  status_code: number
  body: string
}

const tusError = (status_code: number, body: string): TusError => ({
  status_code,
  body: `${body}\n`,
})

const notFound = () => tusError(404, 'The file for this url was not found')

type TusRequest = Parameters<NonNullable<ServerOptions['onIncomingRequest']>>[0]

/** The Node request under a tus (srvx) request. */
function nodeRequestOf(request: TusRequest): IncomingMessage | undefined {
  const runtime = (request as { runtime?: { node?: { req?: IncomingMessage } } }).runtime
  return runtime?.node?.req
}

/** Control characters and path separators never belong in a displayed file name. */
function isSafeFileName(fileName: string): boolean {
  for (const character of fileName) {
    const code = character.charCodeAt(0)
    if (code < 0x20 || code === 0x7f || character === '/' || character === '\\') return false
  }
  return true
}

/** The catalogue kind of each status tus answers with. */
const kindOfStatus: Record<number, ErrorKind> = {
  400: 'validation',
  401: 'sessionTimeout',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  410: 'notFound',
  413: 'tooLarge',
  415: 'unsupportedFile',
  423: 'conflict',
  460: 'validation',
  503: 'unavailable',
}

/**
 * Why a request is not a well-formed tus request, checked before tus sees it: tus answers a
 * missing `Tus-Resumable` or a malformed header with plain text, outside `onResponseError`,
 * and every /web/ refusal is an envelope. Null when tus may take it.
 */
function notTusReason(request: IncomingMessage): string | null {
  if (request.method === 'OPTIONS') return null
  const { headers } = request
  if (headers['tus-resumable'] !== '1.0.0') {
    return 'This address takes tus 1.0.0 uploads only (the Tus-Resumable header is missing or names another version).'
  }
  for (const name of ['upload-length', 'upload-offset'] as const) {
    const value = headers[name]
    if (value !== undefined && !/^\d{1,16}$/.test(String(value))) {
      return `The ${name} header must be a whole number of bytes.`
    }
  }
  const deferLength = headers['upload-defer-length']
  if (deferLength !== undefined && deferLength !== '1') {
    return 'The upload-defer-length header may only be 1.'
  }
  if (request.method === 'PATCH' && headers['content-type'] !== 'application/offset+octet-stream') {
    return 'A tus PATCH carries application/offset+octet-stream.'
  }
  return null
}

/** A tus refusal as the `{ code, message, datum }` envelope of the /web/ API. */
function envelopeBodyOf(statusCode: number, text: string, maxSizeBytes: number): string {
  const kind = kindOfStatus[statusCode] ?? 'internal'
  let message = text
  if (statusCode === 404 || statusCode === 410) {
    message = 'This upload does not exist (any more); upload the file again.'
  } else if (statusCode === 413) {
    message = `The file is larger than the ${Math.round(maxSizeBytes / 1_048_576)} MB allowed.`
  } else if (kind === 'internal' || message === '') {
    // Storage errors may name paths on the server: nothing of them goes out.
    message = 'The upload failed on the server; please try again.'
  }
  return JSON.stringify({ code: errorCatalogue[kind].code, message, datum: null })
}

/** Where the uploads' bytes go: the folder (default), or a bucket with a folder for claimed copies. */
export type ResumableStoreLocation =
  | { kind: 'folder'; directory: string }
  | { kind: 's3'; settings: S3StorageSettings; directory: string }

/**
 * Opens the store at `location`. The S3 one (and the AWS SDK) is loaded only for a bucket, as
 * the file store's is (server/plugins/open-storage.ts).
 */
export async function openResumableStore(
  location: ResumableStoreLocation,
  expiryMs: number,
  onStoreError: (error: unknown) => void = () => undefined,
): Promise<ResumableStore> {
  if (location.kind === 'folder') return folderResumableStore(location.directory, expiryMs)
  const { createS3ResumableStore } = await import('./s3-resumable-store')
  return createS3ResumableStore(location.settings, location.directory, expiryMs, onStoreError)
}

/** Options for {@link createResumableUploads}. */
export interface ResumableUploadsOptions {
  /** The uploads' folder; with `objectStore`, where claimed uploads are copied to be read. */
  directory: string
  /**
   * The file store's bucket when it is one: the uploads' bytes go there as they arrive, so
   * every server process resumes any upload (the folder must be shared otherwise).
   */
  objectStore?: S3StorageSettings
  /** Told each failure of the bucket (answered as a 503). */
  onStoreError?: (error: unknown) => void
  maxSizeBytes: number
  expiryMs: number
  /** The wall clock the expiry is measured on; tus itself uses `Date.now()` too. */
  nowMs?: () => number
  /**
   * Where claims are held: locks every server process on the database sees
   * (server/plugins/coordination.ts); in this process only when not given.
   */
  claims?: Pick<ProcessCoordination, 'tryHold' | 'isHeld'>
  /** Uploads one user may hold at once (unfinished or unclaimed); default {@link defaultMaxUploadsPerUser}. */
  maxUploadsPerUser?: number
}

/**
 * Enough for a batch of floors or tilesets in flight, few enough that one account cannot fill
 * the disk with abandoned uploads before they expire.
 */
export const defaultMaxUploadsPerUser = 50

/** Builds the tus server and its file store (the directory is created on first use). */
export function createResumableUploads(options: ResumableUploadsOptions): ResumableUploads {
  const { directory, maxSizeBytes, expiryMs } = options
  const maxUploadsPerUser = options.maxUploadsPerUser ?? defaultMaxUploadsPerUser
  const nowMs = options.nowMs ?? Date.now
  // opened on first use: a bucket's store loads the AWS SDK, which a folder server never needs
  let opened: Promise<{ store: ResumableStore; tus: Server }> | undefined
  const openedStore = () => {
    if (opened === undefined) {
      const opening = openResumableStore(
        options.objectStore === undefined
          ? { kind: 'folder', directory }
          : { kind: 's3', settings: options.objectStore, directory },
        expiryMs,
        options.onStoreError,
      ).then((store) => ({ store, tus: tusServerOn(store) }))
      opened = opening
      // a failed opening is tried again by the next request, not remembered
      opening.catch(() => {
        if (opened === opening) opened = undefined
      })
    }
    return opened
  }
  // Weak, so a request that ends without reaching tus leaves nothing behind.
  const usersOfRequests = new WeakMap<IncomingMessage, string>()
  const claims = options.claims ?? openProcessCoordination({ kind: 'sqlite', file: '' })
  const claimOf = (uploadId: string) => `resumable-upload:${uploadId}`
  const releases = new Map<string, () => Promise<void>>()

  const userOf = (request: TusRequest): string => {
    const raw = nodeRequestOf(request)
    const userId = raw === undefined ? undefined : usersOfRequests.get(raw)
    if (userId === undefined) throw tusError(401, 'Sign in first')
    return userId
  }

  const describeUpload = async (uploadId: string): Promise<ResumableUploadInfo | undefined> => {
    if (!resumableUploadIdPattern.test(uploadId)) return undefined
    const { store } = await openedStore()
    let upload: Awaited<ReturnType<ResumableStore['datastore']['getUpload']>>
    try {
      upload = await store.datastore.getUpload(uploadId)
    } catch (error) {
      // a bucket out of reach is not a missing upload: the client is told to retry
      const failure = store.failureOf(error)
      if (failure === undefined) return undefined
      throw failure
    }
    const metadata = upload.metadata ?? {}
    const purpose = metadata.purpose as ResumableUploadPurpose | undefined
    if (!metadata.owner || !metadata.filename || !purpose) return undefined
    return {
      uploadId,
      ownerId: metadata.owner,
      fileName: metadata.filename,
      purpose,
      offsetBytes: upload.offset,
      sizeBytes: upload.size,
      createdAtMs: upload.creation_date ? Date.parse(upload.creation_date) : nowMs(),
    }
  }

  /** The user's uploads still stored and not expired (few: they expire). */
  const countUploadsOf = async (store: ResumableStore, ownerId: string): Promise<number> => {
    let count = 0
    for (const { uploadId } of await store.listUploads()) {
      if (!resumableUploadIdPattern.test(uploadId)) continue
      const record = await store.recordOf(uploadId)
      if (record?.metadata.owner !== ownerId || record.createdAtMs === undefined) continue
      if (nowMs() <= record.createdAtMs + expiryMs) count += 1
    }
    return count
  }

  const removeQuietly = async (uploadId: string): Promise<void> => {
    if (!resumableUploadIdPattern.test(uploadId)) return
    const { store } = await openedStore()
    await store.remove(uploadId)
  }

  const tusServerOn = (store: ResumableStore) =>
    new Server({
      path: resumableUploadPath,
      datastore: store.datastore,
      maxSize: maxSizeBytes,
      // Relative: the Host header is the client's to choose, the path is ours.
      relativeLocation: true,
      // Same-origin only: the web app is served by this server, nobody else uploads here.
      allowedOrigins: () => false,
      namingFunction: () => randomBytes(16).toString('hex'),
      // Refusals travel as the API's envelope, so the web client shows them like any other.
      onResponseError: (_request, error) => {
        let statusCode = 'status_code' in error ? error.status_code : 500
        let text = 'body' in error ? error.body.trim() : ''
        if (statusCode === 501) {
          // tus answers 501 to an extension it lacks (Upload-Concat): the client asked for
          // something this server will never do, so it hears so, not "try again".
          statusCode = 400
          text = `This server does not support that tus extension (${text.replace(/\.$/, '')}).`
        }
        return { status_code: statusCode, body: envelopeBodyOf(statusCode, text, maxSizeBytes) }
      },
      async onUploadCreate(request, upload) {
        const ownerId = userOf(request)
        const fileName = upload.metadata?.filename ?? ''
        const purpose = upload.metadata?.purpose ?? ''
        if (fileName === '' || fileName.length > resumableFileNameMaxLength) {
          throw tusError(
            400,
            `Upload-Metadata filename is required (1 to ${resumableFileNameMaxLength} characters)`,
          )
        }
        if (!isSafeFileName(fileName)) {
          throw tusError(
            400,
            'Upload-Metadata filename may not contain slashes or control characters',
          )
        }
        if (!(resumableUploadPurposes as readonly string[]).includes(purpose)) {
          throw tusError(
            400,
            `Upload-Metadata purpose must be one of ${resumableUploadPurposes.join(', ')}`,
          )
        }
        if ((await countUploadsOf(store, ownerId)) >= maxUploadsPerUser) {
          throw tusError(
            409,
            `You have ${maxUploadsPerUser} uploads in progress; finish or cancel some first.`,
          )
        }
        // Only what we chose to keep: the owner is ours to set, never the client's.
        return { metadata: { filename: fileName, purpose, owner: ownerId } }
      },
      async onIncomingRequest(request, uploadId) {
        const userId = userOf(request)
        if (request.method === 'POST') return
        const info = await describeUpload(uploadId).catch((error: unknown) => {
          if (error instanceof AppError && error.kind === 'unavailable') {
            throw tusError(503, 'The file store cannot be reached; try again in a while.')
          }
          throw error
        })
        // Someone else's upload is as unknown to this user as a made-up id.
        if (info === undefined || info.ownerId !== userId) throw notFound()
        const isChange = request.method === 'PATCH' || request.method === 'DELETE'
        if (isChange && (await claims.isHeld(claimOf(uploadId)))) {
          throw tusError(423, 'This upload is being processed and can no longer change')
        }
      },
    })

  return {
    async handle(raw, response) {
      const reason = notTusReason(raw)
      if (reason === null) return (await openedStore()).tus.handle(raw, response)
      const body = envelopeBodyOf(400, reason, maxSizeBytes)
      response.writeHead(400, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'tus-resumable': '1.0.0',
        // the body was not read: the connection cannot carry another request
        ...(raw.headers['content-length'] || raw.headers['transfer-encoding']
          ? { connection: 'close' }
          : {}),
      })
      response.end(body)
    },
    bindUser(raw, userId) {
      usersOfRequests.set(raw, userId)
    },
    describeUpload,
    isExpired: (info) => nowMs() > info.createdAtMs + expiryMs,
    localFile: async (uploadId) => (await openedStore()).store.localFile(uploadId),
    remove: removeQuietly,
    async lock(uploadId) {
      const release = await claims.tryHold(claimOf(uploadId))
      if (release === undefined) return false
      releases.set(uploadId, release)
      return true
    },
    async unlock(uploadId) {
      const release = releases.get(uploadId)
      releases.delete(uploadId)
      await release?.()
    },
    async sweepExpired() {
      const { store } = await openedStore()
      const isHeld = (uploadId: string) => claims.isHeld(claimOf(uploadId))
      let removed = 0
      for (const { uploadId, writtenAtMs } of await store.listUploads()) {
        // An upload being consumed right now finishes first; the next sweep takes it if needed.
        if (!resumableUploadIdPattern.test(uploadId)) continue
        if (await isHeld(uploadId)) continue
        // without its record (a crash between writing the bytes and the record): its bytes' age
        const createdAtMs = (await store.recordOf(uploadId))?.createdAtMs ?? writtenAtMs
        if (nowMs() > createdAtMs + expiryMs) {
          await store.remove(uploadId)
          removed += 1
        }
      }
      return removed + (await store.sweepStrays(nowMs() - expiryMs, isHeld))
    },
  }
}

/** The resumable uploads of an app (made once in server/composition.ts). */
export function resumableUploadsOf(app: FastifyInstance): ResumableUploads {
  return app.deps.services.resumableUploads
}
