import type { MessageId } from '../../../contract/messages'
import { AppError } from '../../http/app-error'
import type { NamedFiles } from '../../plugins/storage'
import type { SentError } from './job-queue'

/**
 * How a job's input, result and error travel between processes through the shared queue: JSON,
 * with bytes (`Uint8Array`, e.g. a model's files or its SBM) as base64 under one marked key, so
 * the other side gets `Uint8Array`s back, not arrays of numbers. With a file store
 * ({@link toStoredWire}), bytes from {@link inlineBytesLimit} on travel as files of it instead,
 * named in the row: a model of hundreds of megabytes in a JSON row would be a third larger as
 * base64, parsed whole by every poll that reads the row, and kept in the table after the job.
 */
const bytesKey = '$bytes'
/** The marked key of bytes that travel as a file of the store's job area. */
const fileKey = '$file'

/** Bytes from this size on travel as a file of the store (smaller ones inline). */
export const inlineBytesLimit = 64 * 1024

/**
 * A value as JSON the queue stores (bytes marked, everything else as `JSON.stringify` has it).
 * `spill` may take bytes out of the row: it returns the name they travel under, or undefined to
 * keep them inline.
 */
export function toWire(value: unknown, spill?: (bytes: Uint8Array) => string | undefined): unknown {
  if (value === undefined) return null
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key, plain: unknown) {
      // `plain` is already toJSON'd: Buffer becomes { type, data }; read the holder's own value
      const original = this[key]
      if (original instanceof Uint8Array) {
        const name = spill?.(original)
        if (name !== undefined) return { [fileKey]: name }
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

/**
 * The value {@link toWire} was given, bytes as `Uint8Array`s over their own buffers; bytes that
 * travelled as files are taken from `files` (read by {@link fromStoredWire}).
 */
export function fromWire<Value>(
  wire: unknown,
  files: ReadonlyMap<string, Uint8Array> = new Map(),
): Value {
  const revive = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(revive)
    if (value === null || typeof value !== 'object') return value
    const record = value as Record<string, unknown>
    if (Object.keys(record).length === 1) {
      if (typeof record[bytesKey] === 'string') {
        const buffer = Buffer.from(record[bytesKey], 'base64')
        // a copy of exactly its bytes: callers may transfer the buffer to a thread
        return new Uint8Array(buffer)
      }
      const name = record[fileKey]
      if (typeof name === 'string') {
        const bytes = files.get(name)
        if (bytes === undefined) throw new Error(`the job's file ${name} was not read`)
        return bytes
      }
    }
    return Object.fromEntries(Object.entries(record).map(([key, field]) => [key, revive(field)]))
  }
  return revive(wire) as Value
}

/**
 * {@link toWire} with bytes from {@link inlineBytesLimit} on written to `files` under
 * `<folder>/<n>`; resolves once every file is written, so a worker that reads the row finds them.
 */
export async function toStoredWire(
  value: unknown,
  files: NamedFiles,
  folder: string,
): Promise<{ wire: unknown; fileCount: number }> {
  const writes: Array<Promise<void>> = []
  const wire = toWire(value, (bytes) => {
    if (bytes.byteLength < inlineBytesLimit) return undefined
    const name = `${folder}/${writes.length}`
    writes.push(files.write(name, bytes))
    return name
  })
  await Promise.all(writes)
  return { wire, fileCount: writes.length }
}

/** {@link fromWire} of a stored wire: the files it names are read from `files` first. */
export async function fromStoredWire<Value>(wire: unknown, files: NamedFiles): Promise<Value> {
  const names: string[] = []
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect)
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>
      if (typeof record[fileKey] === 'string' && Object.keys(record).length === 1) {
        names.push(record[fileKey])
      } else Object.values(record).forEach(collect)
    }
  }
  collect(wire)
  const read = new Map<string, Uint8Array>()
  await Promise.all(
    names.map(async (name) => {
      const chunks: Buffer[] = []
      for await (const chunk of await files.open(name)) chunks.push(chunk as Buffer)
      const joined = Buffer.concat(chunks)
      // a buffer of exactly its bytes (callers may transfer it to a thread); a buffer this large
      // is its own, not a slice of Node's shared pool, so it needs no copy
      const isOwn = joined.byteOffset === 0 && joined.byteLength === joined.buffer.byteLength
      read.set(
        name,
        isOwn ? new Uint8Array(joined.buffer, 0, joined.byteLength) : new Uint8Array(joined),
      )
    }),
  )
  return fromWire<Value>(wire, read)
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
