import { z } from 'zod'
import { recordIdSchema } from './common'
import { investigationSchema } from './investigations'
import { alarmSchema } from './iot'
import { fenceEventSchema, trackedObjectSchema } from './tracking'

/**
 * The live stream of a project's devices (issue 17 item 5), its alarms and their inspections
 * (item 7), and its location POIs (issue 18): one server-sent-events stream per open project,
 * `GET /web/iot/live?projectid=…`, for signed-in users who may read the project
 * (the `Token` header, so the client reads it with `fetch`, not `EventSource`).
 *
 * Each event is one SSE message: `id: <epoch>-<sequence>` and `data:` one {@link LiveEvent} as
 * JSON. A client that reconnects sends the last id it saw as `Last-Event-ID` and gets what it
 * missed, or a `reset` when that is no longer known (server restarted, too long away, or the
 * client read too slowly and events were dropped): then it reloads devices and alarms. The
 * server sends a comment line every {@link liveHeartbeatMs} and ends the stream with a `closed`
 * event when the session ends or the project can no longer be read.
 *
 * This is a raw route (an event stream, no envelope), so it is not in contract/routes.ts.
 */
export const iotLivePath = '/web/iot/live'

/** The query of {@link iotLivePath}. */
export const iotLiveQuerySchema = z.object({ projectid: recordIdSchema })

/** How often the server writes a heartbeat and checks the reader's access again. */
export const liveHeartbeatMs = 20_000

/** How long a client waits before reconnecting after the stream broke. */
export const liveRetryMs = 2_000

/** A device's status changed (SPEC §3 codes). */
export const liveStatusEventSchema = z.object({
  type: z.literal('status'),
  device_id: z.string(),
  /** The POI the device belongs to ('' when none). */
  poi_id: z.string(),
  devicecode: z.string(),
  status: z.number().int(),
  at: z.string(),
})

/** The newest values a device sent in one request (the last of each key). */
export const liveTelemetryEventSchema = z.object({
  type: z.literal('telemetry'),
  device_id: z.string(),
  poi_id: z.string(),
  /** The time of the newest message of the request, epoch ms. */
  ts: z.number(),
  values: z.record(z.string(), z.number()),
})

/** An alarm record was raised, counted again, acknowledged or cleared. */
export const liveAlarmEventSchema = z.object({ type: z.literal('alarm'), alarm: alarmSchema })

/** An alarm record was deleted. */
export const liveAlarmDeletedEventSchema = z.object({
  type: z.literal('alarmDeleted'),
  id: z.string(),
})

/**
 * A location POI (positioned object, contract/tracking.ts) was added or reported a newer
 * position: the object as it stands now, with the fences it is inside (issue 18).
 */
export const livePositionedEventSchema = z.object({
  type: z.literal('positioned'),
  object: trackedObjectSchema,
})

/** A location POI was deleted. */
export const livePositionedDeletedEventSchema = z.object({
  type: z.literal('positionedDeleted'),
  id: z.string(),
})

/** A location POI entered or left an electronic fence. */
export const liveFenceEventSchema = z.object({
  type: z.literal('fenceEvent'),
  event: fenceEventSchema,
})

/** The project's electronic fences changed: the ids of the areas that are fences now. */
export const liveFencesEventSchema = z.object({
  type: z.literal('fences'),
  draw_ids: z.array(z.string()),
})

/** An inspection record was added or changed (contract/investigations.ts). */
export const liveInvestigationEventSchema = z.object({
  type: z.literal('investigation'),
  investigation: investigationSchema,
})

/** An inspection record was deleted. */
export const liveInvestigationDeletedEventSchema = z.object({
  type: z.literal('investigationDeleted'),
  id: z.string(),
})

/**
 * Events were missed: reload the devices, alarms and inspections (and positions, fences and fence
 * events).
 */
export const liveResetEventSchema = z.object({ type: z.literal('reset') })

/** The server ends the stream (signed out, access lost, or the server stops): do not reconnect. */
export const liveClosedEventSchema = z.object({
  type: z.literal('closed'),
  reason: z.enum(['signedOut', 'noAccess', 'shutdown']),
})

/** One event of the stream. */
export const liveEventSchema = z.discriminatedUnion('type', [
  liveStatusEventSchema,
  liveTelemetryEventSchema,
  liveAlarmEventSchema,
  liveAlarmDeletedEventSchema,
  livePositionedEventSchema,
  livePositionedDeletedEventSchema,
  liveFenceEventSchema,
  liveFencesEventSchema,
  liveInvestigationEventSchema,
  liveInvestigationDeletedEventSchema,
  liveResetEventSchema,
  liveClosedEventSchema,
])
export type LiveEvent = z.infer<typeof liveEventSchema>
