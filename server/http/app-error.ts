import { type ErrorKind, errorCatalogue } from '../../contract/errors'
import {
  formatServerMessage,
  type HasParams,
  type MessageId,
  type MessageParam,
  type MessageParams,
  type ServerMessage,
} from '../../contract/messages'

/** What an error carries besides its message: see {@link AppError}. */
export interface AppErrorExtra {
  /** Travels as `datum.details` (e.g. the wrong fields of a validation answer). */
  details?: unknown
  /** Fields of `datum` itself (e.g. `{ retryAfterSeconds }`, also sent as `Retry-After`). */
  datum?: Record<string, unknown>
  /**
   * The English `message`, when it should say more than the template (a validation answer
   * lists each field's problem for logs and API tools; the console renders the details).
   */
  englishText?: string
}

/** The arguments after the message id: its parameters when its template has placeholders. */
export type AppErrorArgs<Id extends MessageId> =
  HasParams<Id> extends true
    ? [params: MessageParams<Id>, extra?: AppErrorExtra]
    : [params?: Record<string, never>, extra?: AppErrorExtra]

/**
 * An expected failure: its kind from the error catalogue (contract/errors.ts) and its message
 * from the message catalogue (contract/messages.ts), so the console can say it in the user's
 * language. Thrown anywhere in a request, it becomes the envelope
 * `{ code, message, messageId, params, datum }` with the kind's HTTP status:
 *
 * ```ts
 * throw new AppError('notFound', 'project.notFound')
 * throw new AppError('validation', 'tileset.ambiguousRoots', { names: 'a.json, b.json' })
 * throw new AppError('validation', 'gml.empty', {}, { details: { gml_error: 'gml.empty' } })
 * ```
 *
 * `message` is the English text (for logs and generic API tools).
 */
export class AppError<Id extends string = MessageId> extends Error {
  override name = 'AppError'
  readonly messageId: MessageId
  readonly params: Record<string, MessageParam>
  readonly details?: unknown
  readonly datum?: Record<string, unknown>

  constructor(
    readonly kind: ErrorKind,
    messageId: Id & MessageId,
    ...[params, extra]: AppErrorArgs<Id & MessageId>
  ) {
    const values = (params ?? {}) as Record<string, MessageParam>
    super(extra?.englishText ?? formatServerMessage(messageId, values))
    this.messageId = messageId
    this.params = values
    if (extra?.details !== undefined) this.details = extra.details
    if (extra?.datum !== undefined) this.datum = extra.datum
  }

  /** The message id and parameters, as the envelope carries them. */
  get serverMessage(): ServerMessage {
    return { id: this.messageId, params: this.params }
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

/**
 * An error about one input field: `details` name the field (so a form can point at it) and the
 * message is the problem itself, which the console shows as is; the English message reads
 * `field: problem` for logs and API tools.
 */
export function fieldError<Id extends MessageId>(
  kind: ErrorKind,
  field: string,
  messageId: Id,
  ...args: HasParams<Id> extends true ? [params: MessageParams<Id>] : []
): AppError {
  return fieldErrorOf(kind, field, {
    id: messageId,
    params: (args[0] ?? {}) as Record<string, MessageParam>,
  })
}

/**
 * One entry of a failure's `details` naming a field and its problem by catalogue id, so the
 * console can say it in the user's language (`message` is the English, for logs and tools).
 */
export function fieldDetail<Id extends MessageId>(
  field: string,
  messageId: Id,
  ...args: HasParams<Id> extends true ? [params: MessageParams<Id>] : []
): { field: string; message: string; messageId: MessageId; params: Record<string, MessageParam> } {
  const params = (args[0] ?? {}) as Record<string, MessageParam>
  return { field, message: formatServerMessage(messageId, params), messageId, params }
}

/** {@link fieldError} for a message built ahead, e.g. by `serverMessage(id, params)`. */
export function fieldErrorOf(kind: ErrorKind, field: string, problem: ServerMessage): AppError {
  const message = formatServerMessage(problem.id, problem.params)
  const details = [{ field, message, messageId: problem.id, params: problem.params }]
  return new (AppError as new (...values: unknown[]) => AppError)(
    kind,
    problem.id,
    problem.params,
    { details, englishText: `${field}: ${message}` },
  )
}
