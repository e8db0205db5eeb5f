import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { type ErrorKind, errorCatalogue } from '../../contract/errors'
import {
  formatServerMessage,
  type HasParams,
  type MessageId,
  type MessageParam,
  type MessageParams,
} from '../../contract/messages'
import { AppError } from '../http/app-error'
import { validationErrorOf } from '../http/define-route'
import { type ErrorAnswer, errorEnvelope } from '../http/envelope'

/** The kind and message an error becomes in the envelope. */
type ClassifiedError = ErrorAnswer

function answer<Id extends MessageId>(
  kind: ErrorKind,
  id: Id,
  ...args: HasParams<Id> extends true ? [params: MessageParams<Id>] : []
): ClassifiedError {
  const params = (args[0] ?? {}) as Record<string, MessageParam>
  return { kind, message: formatServerMessage(id, params), serverMessage: { id, params } }
}

/** Fastify and plugin errors we know, with a message a client can show. */
const knownErrors: Record<string, ClassifiedError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: answer('tooLarge', 'request.bodyTooLarge'),
  FST_REQ_FILE_TOO_LARGE: answer('tooLarge', 'request.fileTooLarge'),
  FST_PARTS_LIMIT: answer('tooLarge', 'request.tooManyParts'),
  FST_FILES_LIMIT: answer('tooLarge', 'request.tooManyFiles'),
  FST_FIELDS_LIMIT: answer('tooLarge', 'request.tooManyFields'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: answer('unsupportedFile', 'request.unsupportedContentType'),
  FST_ERR_CTP_INVALID_JSON_BODY: answer('validation', 'request.invalidJson'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: answer('validation', 'request.contentLengthMismatch'),
  FST_PROTO_VIOLATION: answer('validation', 'request.fieldNameNotAllowed'),
  FST_INVALID_MULTIPART_CONTENT_TYPE: answer('validation', 'request.notMultipart'),
  FST_MP_PREMATURE_CLOSE: answer('validation', 'request.uploadCutShort'),
  FST_ERR_BAD_URL: answer('validation', 'request.malformedUrl'),
  // The address itself stays out of the answer: it may be kilobytes long.
  FST_ERR_MAX_PARAM_LENGTH: answer('validation', 'request.addressPartTooLong'),
}

/** PostgreSQL's character_not_in_repertoire, which it raises for a NUL in text. */
const postgresNulTextCode = '22021'

/** Maps any thrown value to an envelope. Exported for tests and for code answering outside routes. */
export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof z.ZodError) return classifyError(validationErrorOf(error.issues))
  if (error instanceof AppError) {
    return {
      kind: error.kind,
      message: error.message,
      serverMessage: error.serverMessage,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.datum === undefined ? {} : { datum: error.datum }),
    }
  }
  if ((error as { code?: unknown }).code === postgresNulTextCode) {
    // A NUL that slipped past input validation: still the caller's text, not our failure.
    return answer('validation', 'validation.nulText')
  }
  const fastifyError = error as Partial<FastifyError>
  const known = fastifyError.code === undefined ? undefined : knownErrors[fastifyError.code]
  if (known !== undefined) return known
  const status = fastifyError.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // A framework-level refusal of the request (a 4xx we did not list): the caller's fault.
    const kind: ErrorKind =
      status === 404
        ? 'notFound'
        : status === 413
          ? 'tooLarge'
          : status === 429
            ? 'rateLimited'
            : status === 401
              ? 'sessionTimeout'
              : status === 403
                ? 'forbidden'
                : 'validation'
    // The framework's own English stays in `message`; people read the kind's general text.
    const generic = answer(kind, `error.${kind}`)
    return { ...generic, message: fastifyError.message ?? generic.message }
  }
  return answer('internal', 'error.internal')
}

/**
 * A refused body longer than this that has not been read yet closes the connection with the
 * answer (the server's default body limit, server/app.ts).
 */
const unreadBodyCloseBytes = 64 * 1024

/**
 * True when the answer comes before the request's body was read and that body is large or of
 * unknown length (a Content-Length over the limit, a sign-in refused before an upload, a file
 * over its size). Node would otherwise read the rest and throw it away to keep the connection
 * alive: a client repeating a 1 MB body it knows is refused made the server read, allocate and
 * collect 1 MB per request. Closing costs an honest client one new connection.
 */
function hasLargeUnreadBody(request: FastifyRequest): boolean {
  const raw = request.raw
  if (raw.complete) return false
  const header = raw.headers['content-length']
  if (header === undefined) return raw.headers['transfer-encoding'] !== undefined
  const length = Number(header)
  return !Number.isFinite(length) || length > unreadBodyCloseBytes
}

/**
 * Sends the envelope for an error. `isLogged: false` leaves out the log line of a refusal
 * (never of an internal error): for answers a flood repeats, logged once elsewhere.
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  options: { isLogged?: boolean } = {},
): void {
  const classified = classifyError(error)
  if (classified.kind === 'internal') {
    request.log.error({ err: error }, 'request failed unexpectedly')
  } else if (options.isLogged !== false) {
    request.log.info(
      { code: errorCatalogue[classified.kind].code, reason: classified.message },
      'request refused',
    )
  }
  const retryAfterSeconds = classified.datum?.retryAfterSeconds
  if (typeof retryAfterSeconds === 'number') reply.header('retry-after', String(retryAfterSeconds))
  if (hasLargeUnreadBody(request)) reply.header('connection', 'close')
  reply
    .status(errorCatalogue[classified.kind].httpStatus)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(classified))
}

/**
 * Answers what Node's HTTP parser refuses before any request exists (a request line or headers
 * over 16 KB, a malformed request, a client too slow to send its headers) with the envelope too,
 * written straight to the socket, instead of Node's or Fastify's own bodies. Used as Fastify's
 * `clientErrorHandler`.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection is gone: there is nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const classified: ClassifiedError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? answer('headersTooLarge', 'request.headersTooLarge')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? answer('requestTimeout', 'request.timeout')
        : answer('validation', 'request.malformed')
  const { httpStatus } = errorCatalogue[classified.kind]
  const body = JSON.stringify(errorEnvelope(classified))
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${httpStatus} ${STATUS_CODES[httpStatus]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\nConnection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy()
}

/**
 * Every error becomes an envelope with an honest HTTP status; unexpected errors are logged with
 * their stack and answered `internal` without any detail.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    sendError(request, reply, error)
  })
}
