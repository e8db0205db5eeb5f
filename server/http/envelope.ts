import type { Envelope } from '../../contract/envelope'
import { type ErrorKind, errorCatalogue, OK_CODE } from '../../contract/errors'

/** The message of every successful answer; clients show their own localized text. */
export const okMessage = 'OK'

/** A success envelope around a datum. */
export function okEnvelope<Datum>(datum: Datum, message = okMessage): Envelope<Datum> {
  return { code: OK_CODE, message, datum }
}

/**
 * A failure envelope: `datum` holds `details` when there are details and the fields of `datum`
 * when given (e.g. `retryAfterSeconds`); null when there is neither.
 */
export function errorEnvelope(
  kind: ErrorKind,
  message: string,
  details?: unknown,
  datum?: Record<string, unknown>,
): Envelope<Record<string, unknown> | null> {
  const fields = {
    ...datum,
    ...(details === undefined ? {} : { details }),
  }
  return {
    code: errorCatalogue[kind].code,
    message,
    datum: Object.keys(fields).length === 0 ? null : fields,
  }
}
