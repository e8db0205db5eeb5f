import { type ErrorKind, errorCatalogue } from '../../contract/errors'

/**
 * An expected failure with its kind from the error catalogue (contract/errors.ts). Thrown
 * anywhere in a request, it becomes the envelope `{ code, message, datum }` with the catalogue's
 * HTTP status; `details`, when given, travels as `datum.details`, and the fields of `datum`
 * beside it (e.g. `{ retryAfterSeconds }` of a `rateLimited` answer, also sent as `Retry-After`).
 */
export class AppError extends Error {
  override name = 'AppError'

  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details?: unknown,
    readonly datum?: Record<string, unknown>,
  ) {
    super(message)
  }

  /** The envelope code of this error, e.g. '2011'. */
  get code(): string {
    return errorCatalogue[this.kind].code
  }

  /** The HTTP status that goes with the code. */
  get httpStatus(): number {
    return errorCatalogue[this.kind].httpStatus
  }
}
