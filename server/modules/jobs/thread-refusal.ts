import type { ErrorKind } from '../../../contract/errors'
import type { MessageId, MessageParam } from '../../../contract/messages'
import { AppError } from '../../http/app-error'

/**
 * A refusal as it crosses threads: an AppError's own fields do not survive structured clone,
 * so a task thread answers the refusal as data and the request thread throws it again.
 */
export interface ThreadRefusal {
  kind: ErrorKind
  messageId: MessageId
  params: Record<string, MessageParam>
  englishText: string
  details?: unknown
}

/** The refusal of an AppError, to send across threads. */
export function refusalOf(error: AppError): ThreadRefusal {
  return {
    kind: error.kind,
    messageId: error.messageId,
    params: error.params,
    englishText: error.message,
    ...(error.details === undefined ? {} : { details: error.details }),
  }
}

/** The AppError a thread's refusal stands for (the same answer the thread's error gives). */
export function appErrorOf(refusal: ThreadRefusal): AppError {
  // the message id and its parameters came from an AppError on the other thread
  return new AppError(refusal.kind, refusal.messageId, refusal.params as never, {
    englishText: refusal.englishText,
    ...(refusal.details === undefined ? {} : { details: refusal.details }),
  })
}
