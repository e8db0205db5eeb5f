import { lstat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../http/app-error'
import { attachmentDisposition } from '../../http/attachment'
import type {
  ByteSpan,
  FileStorage,
  NamedFileInfo,
  NamedFiles,
  ServedStoredFile,
  SignedAnswer,
  StoredFileInfo,
} from '../../plugins/storage'
import { createBoundedReadStream } from '../../plugins/storage'

/** The headers a sent file goes with. */
interface AnswerHeaders {
  contentType: string
  /** Set for gzip-on-disk files: the bytes are sent as stored, the client inflates them. */
  contentEncoding?: 'gzip' | undefined
  cacheControl: string
  contentDisposition?: string | undefined
}

/** How one file on disk is sent. */
export interface SendFileOptions extends AnswerHeaders {
  path: string
  /** Distinguishes this file's bytes from any other bytes served at the same address. */
  etagSeed: string
}

/** A byte range to send, or 'unsatisfiable'; undefined sends the whole file. */
export type ByteRange = ByteSpan | 'unsatisfiable' | undefined

/** A file's bytes as an answer needs them: their size, their tag and a reader of a span. */
interface SendableBytes {
  sizeBytes: number
  etag: string
  /** When the bytes were last written (`Last-Modified`), milliseconds since the epoch. */
  modifiedMs: number
  read(span?: ByteSpan): Readable | Promise<Readable>
}

/**
 * Parses a `Range` header (RFC 9110 §14) for a file of `sizeBytes`. Only one range is served;
 * several (rare for tiles) or a malformed header get the whole file, which the RFC allows.
 */
export function parseRange(header: string | undefined, sizeBytes: number): ByteRange {
  if (header === undefined) return undefined
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0 || sizeBytes === 0) return 'unsatisfiable'
    return { start: Math.max(0, sizeBytes - suffix), end: sizeBytes - 1 }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? sizeBytes - 1 : Math.min(Number(match[2]), sizeBytes - 1)
  if (start >= sizeBytes || end < start) return 'unsatisfiable'
  return { start, end }
}

/**
 * Sends a file with a strong ETag (304 on `If-None-Match`), `Cache-Control`, and `Range`
 * support (206 with `Content-Range`, 416 past the end; `If-Range` with another tag sends all).
 * `notFound` when the path is not a regular file: links are never followed.
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  options: SendFileOptions,
): Promise<FastifyReply> {
  const info = await lstat(options.path).catch(() => undefined)
  if (!info?.isFile()) throw new AppError('notFound', 'file.notFound')
  const bytes: SendableBytes = {
    sizeBytes: info.size,
    etag: etagOf(options.etagSeed, { sizeBytes: info.size, modifiedMs: info.mtimeMs }),
    modifiedMs: info.mtimeMs,
    read: (span) => createBoundedReadStream(options.path, info.size, span),
  }
  return sendBytes(request, reply, bytes, options)
}

/** One file of the store, as the senders below need it. */
interface StoreFile {
  signedReadUrl(answer: SignedAnswer): Promise<string | undefined>
  statOf(): Promise<(StoredFileInfo & Partial<Pick<NamedFileInfo, 'contentEncoding'>>) | undefined>
  read(span?: ByteSpan): Promise<Readable>
  etagOf(info: StoredFileInfo): string
  /** What a file that is not there is refused with. */
  missing: 'file.notFound' | 'tileset.noSuchFile'
}

/**
 * Sends a file of the store like `sendFile`; or, when the store serves its files itself (S3 with
 * STORAGE_SERVE=redirect), a redirect to the store's signed address, which answers with the same
 * type, caching and name (and encoding: the store keeps it with the file).
 */
async function sendFromStore(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StoreFile,
  headers: AnswerHeaders,
): Promise<FastifyReply> {
  const signedUrl = await file.signedReadUrl(headers)
  if (signedUrl !== undefined) {
    // the address changes as signatures age: only the store's answer is for caches to keep
    reply.header('cache-control', 'no-store')
    return reply.redirect(signedUrl, 302)
  }
  const info = await file.statOf()
  if (info === undefined) throw new AppError('notFound', file.missing)
  const bytes: SendableBytes = { ...info, etag: file.etagOf(info), read: file.read }
  return sendBytes(request, reply, bytes, { ...headers, contentEncoding: info.contentEncoding })
}

/**
 * Sends a file of the file store (server/plugins/storage.ts), its content hash as its ETag
 * (see `sendFromStore`).
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  file: ServedStoredFile & { cacheControl: string },
): Promise<FastifyReply> {
  const { sha256 } = file
  return sendFromStore(
    request,
    reply,
    {
      signedReadUrl: (answer) => storage.signedReadUrl(sha256, answer),
      statOf: () => storage.statOf(sha256),
      read: (span) => storage.open(sha256, span),
      etagOf: () => `"${sha256}"`,
      missing: 'file.notFound',
    },
    {
      contentType: file.contentType,
      cacheControl: file.cacheControl,
      contentDisposition:
        file.downloadName === undefined ? undefined : attachmentDisposition(file.downloadName),
    },
  )
}

/**
 * Sends a named file of the store (a tileset version's file, see `sendFromStore`); gzip-stored
 * files go with `Content-Encoding: gzip`. Its ETag is made like `sendFile`'s, from `etagSeed`,
 * its size and time written.
 */
export async function sendNamedFile(
  request: FastifyRequest,
  reply: FastifyReply,
  files: NamedFiles,
  file: {
    name: string
    contentType: string
    cacheControl: string
    /** Saved or shown under this name (a package's `attachment; filename=…`). */
    contentDisposition?: string
    etagSeed: string
    missing: StoreFile['missing']
  },
): Promise<FastifyReply> {
  const { name } = file
  return sendFromStore(
    request,
    reply,
    {
      signedReadUrl: (answer) => files.signedReadUrl(name, answer),
      statOf: () => files.statOf(name),
      read: (span) => files.open(name, span),
      etagOf: (info) => etagOf(file.etagSeed, info),
      missing: file.missing,
    },
    {
      contentType: file.contentType,
      cacheControl: file.cacheControl,
      contentDisposition: file.contentDisposition,
    },
  )
}

/** A strong ETag of bytes at one address: a seed of the address, their size and time written. */
function etagOf(seed: string, info: StoredFileInfo): string {
  return `"${seed}-${info.sizeBytes.toString(36)}-${Math.trunc(info.modifiedMs).toString(36)}"`
}

/**
 * Whether a conditional GET may be answered 304 (RFC 9110 §13.1): `If-None-Match` decides when
 * sent, compared weakly (a CDN that compressed the bytes sends `W/"…"` back) and `*` matching
 * any; otherwise `If-Modified-Since`, to the second HTTP dates carry.
 */
export function isNotModified(
  headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined },
  etag: string,
  modifiedMs: number,
): boolean {
  const ifNoneMatch = headers['if-none-match']
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag)
  }
  const since = Date.parse(headers['if-modified-since'] ?? '')
  return !Number.isNaN(since) && Math.floor(modifiedMs / 1000) * 1000 <= since
}

/**
 * The one answer of every sent file: ETag, Last-Modified, 304, Range (206/416) and the headers
 * asked for. No `Vary`: the bytes sent never depend on a request header (gzip-on-disk files are
 * sent gzip to everyone), so one cached copy serves every client.
 */
async function sendBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  bytes: SendableBytes,
  headers: AnswerHeaders,
): Promise<FastifyReply> {
  const { sizeBytes, etag } = bytes
  reply.header('etag', etag)
  reply.header('last-modified', new Date(bytes.modifiedMs).toUTCString())
  reply.header('cache-control', headers.cacheControl)
  reply.header('accept-ranges', 'bytes')
  reply.type(headers.contentType)
  if (headers.contentEncoding) reply.header('content-encoding', headers.contentEncoding)
  if (headers.contentDisposition) reply.header('content-disposition', headers.contentDisposition)

  if (isNotModified(request.headers, etag, bytes.modifiedMs)) return reply.code(304).send()
  const ifRange = request.headers['if-range']
  const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined
  const range = parseRange(rangeHeader, sizeBytes)
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${sizeBytes}`)
    reply.removeHeader('content-encoding')
    reply.removeHeader('content-disposition')
    return reply.code(416).type('text/plain').send('Range Not Satisfiable')
  }
  if (range === undefined) {
    reply.header('content-length', sizeBytes)
    return reply.send(await bytes.read())
  }
  reply.code(206)
  reply.header('content-range', `bytes ${range.start}-${range.end}/${sizeBytes}`)
  reply.header('content-length', range.end - range.start + 1)
  return reply.send(await bytes.read(range))
}
