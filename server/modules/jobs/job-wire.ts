import type { MessageId } from '../../../contract/messages'
import { AppError } from '../../http/app-error'
import type { SentError } from './job-queue'

/**
 * How a job's input, result and error travel between processes through the shared queue: JSON,
 * with bytes (`Uint8Array`, e.g. a model's files or its SBM) as base64 under one marked key, so
 * the other side gets `Uint8Array`s back, not arrays of numbers.
 */
const bytesKey = '$bytes'

/** A value as JSON the queue stores (bytes marked, everything else as `JSON.stringify` has it). */
export function toWire(value: unknown): unknown {
  if (value === undefined) return null
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key, plain: unknown) {
      // `plain` is already toJSON'd: Buffer becomes { type, data }; read the holder's own value
      const original = this[key]
      if (original instanceof Uint8Array) {
        return {
          [bytesKey]: Buffer.from(
            original.buffer,
            original.byteOffset,
            original.byteLength,
          ).toString('base64'),
        }
      }
      return plain
    }),
  )
}

/** The value {@link toWire} was given, bytes as `Uint8Array`s over their own buffers. */
export function fromWire<Value>(wire: unknown): Value {
  const revive = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(revive)
    if (value === null || typeof value !== 'object') return value
    const record = value as Record<string, unknown>
    if (typeof record[bytesKey] === 'string' && Object.keys(record).length === 1) {
      const buffer = Buffer.from(record[bytesKey], 'base64')
      // a copy of exactly its bytes: callers may transfer the buffer to a thread
      return new Uint8Array(buffer)
    }
    return Object.fromEntries(Object.entries(record).map(([key, field]) => [key, revive(field)]))
  }
  return revive(wire) as Value
}

/** An error as it travels: its name, English message and own fields (an AppError's id and params). */
export function sendError(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} }
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'name' && key !== 'message' && key !== 'stack') fields[key] = value
  }
  if (error instanceof AppError) fields.kind = error.kind
  return {
    name: error.name,
    message: error.message,
    fields: toWire(fields) as Record<string, unknown>,
  }
}

/** The default revival of a {@link SentError}: an AppError again when it was one, else an Error. */
export function reviveSentError(sent: SentError): Error {
  const { fields } = sent
  if (sent.name === 'AppError' && typeof fields.kind === 'string') {
    return new AppError(
      fields.kind as AppError['kind'],
      fields.messageId as MessageId,
      fields.params as never,
      {
        ...(fields.details === undefined ? {} : { details: fields.details }),
        ...(fields.datum === undefined ? {} : { datum: fields.datum as Record<string, unknown> }),
        englishText: sent.message,
      },
    )
  }
  return Object.assign(new Error(sent.message), { name: sent.name }, fields)
}
