import { createReadStream } from 'node:fs'
import { lstat } from 'node:fs/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../http/app-error'

/** How one stored file is sent. */
export interface SendFileOptions {
  path: string
  contentType: string
  /** Set for gzip-on-disk files: the bytes are sent as stored, the client inflates them. */
  contentEncoding?: 'gzip' | undefined
  cacheControl: string
  /** Distinguishes this file's bytes from any other bytes served at the same address. */
  etagSeed: string
}

/** A byte range to send, or 'unsatisfiable'; undefined sends the whole file. */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | undefined

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
  const sizeBytes = info.size
  const etag = `"${options.etagSeed}-${sizeBytes.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}"`
  reply.header('etag', etag)
  reply.header('cache-control', options.cacheControl)
  reply.header('accept-ranges', 'bytes')
  reply.type(options.contentType)
  if (options.contentEncoding) reply.header('content-encoding', options.contentEncoding)

  const ifNoneMatch = request.headers['if-none-match']
  if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag)) {
    return reply.code(304).send()
  }
  const ifRange = request.headers['if-range']
  const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined
  const range = parseRange(rangeHeader, sizeBytes)
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${sizeBytes}`)
    reply.removeHeader('content-encoding')
    return reply.code(416).type('text/plain').send('Range Not Satisfiable')
  }
  if (range === undefined) {
    reply.header('content-length', sizeBytes)
    return reply.send(createReadStream(options.path))
  }
  reply.code(206)
  reply.header('content-range', `bytes ${range.start}-${range.end}/${sizeBytes}`)
  reply.header('content-length', range.end - range.start + 1)
  return reply.send(createReadStream(options.path, { start: range.start, end: range.end }))
}
