import type { Envelope } from '../../contract/envelope'
import { type ErrorKind, errorCatalogue, OK_CODE } from '../../contract/errors'

/** The message of every successful answer; clients show their own localized text. */
export const okMessage = 'OK'

/** A success envelope around a datum. */
export function okEnvelope<Datum>(datum: Datum, message = okMessage): Envelope<Datum> {
  return { code: OK_CODE, message, datum }
}

/** A failure envelope: `datum` is `{ details }` when there are details, else null. */
export function errorEnvelope(
  kind: ErrorKind,
  message: string,
  details?: unknown,
): Envelope<{ details: unknown } | null> {
  return {
    code: errorCatalogue[kind].code,
    message,
    datum: details === undefined ? null : { details },
  }
}
