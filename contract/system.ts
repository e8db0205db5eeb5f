import { z } from 'zod'

/** `GET /web/health` answer: the server runs and its database answers. */
export const healthDatumSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['sqlite', 'postgres']),
  version: z.string(),
})
export type HealthDatum = z.infer<typeof healthDatumSchema>
