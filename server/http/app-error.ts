import { type ErrorKind, errorCatalogue } from '../../contract/errors'
import {
  formatServerMessage,
  type HasParams,
  isMessageId,
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
 * throw new AppError('validation', 'archive.ambiguousRoots', { names: 'a.json, b.json' })
 * throw new AppError('validation', 'upload.fileRequired', {}, { details: [...] })
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
  /** False for the deprecated raw-text form: its envelope then carries no `messageId`. */
  readonly isTranslatable: boolean

  constructor(kind: ErrorKind, messageId: Id & MessageId, ...args: AppErrorArgs<Id & MessageId>)
  /**
   * @deprecated Raw English text cannot be translated: use a message id of
   * contract/messages.ts. Kept only while the call sites move over.
   */
  constructor(
    kind: ErrorKind,
    legacyMessage: Id extends MessageId ? never : Id,
    details?: unknown,
    datum?: Record<string, unknown>,
  )
  constructor(
    readonly kind: ErrorKind,
    idOrText: string,
    paramsOrDetails?: unknown,
    extraOrDatum?: AppErrorExtra | Record<string, unknown>,
  ) {
    const isLegacy = !isMessageId(idOrText)
    const id: MessageId = isLegacy ? (`error.${kind}` as MessageId) : (idOrText as MessageId)
    const params = isLegacy ? {} : ((paramsOrDetails ?? {}) as Record<string, MessageParam>)
    const extra = isLegacy ? undefined : (extraOrDatum as AppErrorExtra | undefined)
    super(isLegacy ? idOrText : (extra?.englishText ?? formatServerMessage(id, params)))
    this.messageId = id
    this.params = params
    this.isTranslatable = !isLegacy
    if (isLegacy) {
      if (paramsOrDetails !== undefined) this.details = paramsOrDetails
      if (extraOrDatum !== undefined) this.datum = extraOrDatum as Record<string, unknown>
    } else {
      if (extra?.details !== undefined) this.details = extra.details
      if (extra?.datum !== undefined) this.datum = extra.datum
    }
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
