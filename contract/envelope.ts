import { z } from 'zod'

/** Every /web/ answer: `{ code, message, datum }` (SPEC §7). `code '0'` is success. */
export interface Envelope<Datum = unknown> {
  code: string
  message: string
  datum: Datum
}

/** Builds the zod schema of an envelope around a datum schema, for OpenAPI and clients. */
export function envelopeSchema<Datum extends z.ZodType>(datum: Datum) {
  return z.object({ code: z.string(), message: z.string(), datum })
}

/** Extra detail on a validation failure: which field, and why, so forms can point at it. */
export interface ValidationIssue {
  field: string
  message: string
}
