import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { type ErrorKind, errorCatalogue } from '../../contract/errors'
import { AppError } from '../http/app-error'
import { nulTextMessage, validationErrorOf } from '../http/define-route'
import { errorEnvelope } from '../http/envelope'

/** The kind, message and details an error becomes in the envelope. */
interface ClassifiedError {
  kind: ErrorKind
  message: string
  details?: unknown
  datum?: Record<string, unknown>
}

/** Fastify and plugin errors we know, with a message a client can show. */
const knownErrors: Record<string, ClassifiedError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { kind: 'tooLarge', message: 'The request body is too large.' },
  FST_REQ_FILE_TOO_LARGE: { kind: 'tooLarge', message: 'The file is too large.' },
  FST_PARTS_LIMIT: { kind: 'tooLarge', message: 'The form has too many parts.' },
  FST_FILES_LIMIT: { kind: 'tooLarge', message: 'Too many files in one request.' },
  FST_FIELDS_LIMIT: { kind: 'tooLarge', message: 'The form has too many fields.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    kind: 'unsupportedFile',
    message: 'Unsupported content type: send JSON, form-encoded or multipart data.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { kind: 'validation', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    kind: 'validation',
    message: 'The body size does not match its Content-Length.',
  },
  FST_PROTO_VIOLATION: { kind: 'validation', message: 'A form field name is not allowed.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    kind: 'validation',
    message: 'The request is not multipart.',
  },
  FST_MP_PREMATURE_CLOSE: { kind: 'validation', message: 'The upload was cut short.' },
  FST_ERR_BAD_URL: { kind: 'validation', message: 'The address is malformed.' },
}

/** PostgreSQL's character_not_in_repertoire, which it raises for a NUL in text. */
const postgresNulTextCode = '22021'

/** Maps any thrown value to an envelope. Exported for tests and for code answering outside routes. */
export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof AppError) {
    return { kind: error.kind, message: error.message, details: error.details, datum: error.datum }
  }
  if (error instanceof z.ZodError) {
    const appError = validationErrorOf(error.issues)
    return { kind: 'validation', message: appError.message, details: appError.details }
  }
  if ((error as { code?: unknown }).code === postgresNulTextCode) {
    // A NUL that slipped past input validation: still the caller's text, not our failure.
    return { kind: 'validation', message: nulTextMessage }
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
    return { kind, message: fastifyError.message ?? 'The request was refused.' }
  }
  return { kind: 'internal', message: 'Internal server error.' }
}

/** Sends the envelope for an error. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  const classified = classifyError(error)
  if (classified.kind === 'internal') {
    request.log.error({ err: error }, 'request failed unexpectedly')
  } else {
    request.log.info(
      { code: errorCatalogue[classified.kind].code, reason: classified.message },
      'request refused',
    )
  }
  const retryAfterSeconds = classified.datum?.retryAfterSeconds
  if (typeof retryAfterSeconds === 'number') reply.header('retry-after', String(retryAfterSeconds))
  reply
    .status(errorCatalogue[classified.kind].httpStatus)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(classified.kind, classified.message, classified.details, classified.datum))
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
