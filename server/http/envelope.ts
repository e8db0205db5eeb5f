import type { Envelope } from '../../contract/envelope'
import { type ErrorKind, errorCatalogue, OK_CODE } from '../../contract/errors'
import type { ServerMessage } from '../../contract/messages'

/** The message of every successful answer; clients show their own localized text. */
export const okMessage = 'OK'

/** A success envelope around a datum. */
export function okEnvelope<Datum>(datum: Datum, message = okMessage): Envelope<Datum> {
  return { code: OK_CODE, message, datum }
}

/** What a failure envelope is made of (see server/plugins/errors.ts `classifyError`). */
export interface ErrorAnswer {
  kind: ErrorKind
  /** English text. */
  message: string
  /** The catalogue message; absent only for the deprecated raw-text AppErrors. */
  serverMessage?: ServerMessage
  details?: unknown
  datum?: Record<string, unknown>
}

/**
 * A failure envelope: `messageId` and `params` name the message for translation; `datum` holds
 * `details` when there are details and the fields of `datum` when given (e.g.
 * `retryAfterSeconds`); null when there is neither.
 */
export function errorEnvelope(answer: ErrorAnswer): Envelope<Record<string, unknown> | null> {
  const fields = {
    ...answer.datum,
    ...(answer.details === undefined ? {} : { details: answer.details }),
  }
  return {
    code: errorCatalogue[answer.kind].code,
    message: answer.message,
    ...(answer.serverMessage === undefined
      ? {}
      : { messageId: answer.serverMessage.id, params: answer.serverMessage.params }),
    datum: Object.keys(fields).length === 0 ? null : fields,
  }
}
