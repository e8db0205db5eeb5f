import { z } from 'zod'

/**
 * Every /web/ answer: `{ code, message, datum }` (SPEC §7). `code '0'` is success. A failure
 * also names its message in the catalogue (contract/messages.ts): `messageId` and `params` let
 * the console say it in the user's language; `message` is the same text in English, for logs
 * and generic tools. Both are absent on success.
 */
export interface Envelope<Datum = unknown> {
  code: string
  message: string
  /** A key of `serverMessages` (a string here so an older client keeps working on a new id). */
  messageId?: string
  params?: Record<string, string | number>
  datum: Datum
}

/** Builds the zod schema of an envelope around a datum schema, for OpenAPI and clients. */
export function envelopeSchema<Datum extends z.ZodType>(datum: Datum) {
  return z.object({ code: z.string(), message: z.string(), datum })
}

/** Extra detail on a validation failure: which field, and why, so forms can point at it. */
export interface ValidationIssue {
  field: string
  /** English, for logs and generic tools. */
  message: string
  /** The problem in the message catalogue (contract/messages.ts), for the console to translate. */
  messageId?: string
  params?: Record<string, string | number>
}
