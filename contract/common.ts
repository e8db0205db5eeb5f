import { z } from 'zod'

/** The datum of a failed validation: one entry per wrong field, so forms can point at it. */
export const validationDetailsSchema = z.object({
  details: z.array(z.object({ field: z.string(), message: z.string() })),
})

/**
 * A message for a person inside an answer (a conversion's warnings…): a catalogue id with its
 * parameters, which the console renders in the user's language, and the English text for API
 * users and logs.
 */
export const serverMessageItemSchema = z.object({
  messageId: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
})
export type ServerMessageItem = z.infer<typeof serverMessageItemSchema>

/** For calls that take no input (SPEC: e.g. findUserName "takes an empty payload"). */
export const emptyBodySchema = z.object({})

/** For calls whose answer carries no data: `datum` is null. */
export const nullDatumSchema = z.null()

/** Text ids of stored records (UUIDs, see server/migrations). */
export const recordIdSchema = z.string().min(1).max(64)

/** Timestamps travel as ISO 8601 UTC strings, e.g. `2026-11-25T09:30:00.000Z`. */
export const timestampSchema = z.string()
