import { z } from 'zod'
import { webRoute } from './route'

/** `GET /web/health` answer: the server runs and its database answers. */
export const healthDatumSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['sqlite', 'postgres']),
  version: z.string(),
  /**
   * Device ingest (issue 17): HTTP always; MQTT `running` on `mqttPort`, or `off` (MQTT=off) or
   * `unavailable` (mosquitto missing or not started: `mqttReason` says why) — HTTP only then.
   */
  iot: z.object({
    http: z.literal(true),
    mqtt: z.enum(['running', 'starting', 'off', 'unavailable']),
    mqttPort: z.number().int().nullable(),
    mqttReason: z.string().nullable(),
  }),
})
export type HealthDatum = z.infer<typeof healthDatumSchema>

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const systemRoutes = {
  health: webRoute({
    method: 'GET',
    path: '/web/health',
    auth: 'public',
    summary: 'Whether the server and its database answer',
    tags: ['system'],
    datum: healthDatumSchema,
  }),
}
