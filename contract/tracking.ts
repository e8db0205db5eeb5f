import { z } from 'zod'
import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { webRoute } from './route'

/**
 * Electronic fences and GPS positioning (SPEC §2 "GPS positioning", "electronic fence", §3
 * "Positioned object"; issue 18). A fence is a saved area (circle or polygon) marked as a fence;
 * positioned objects report their positions over HTTP with a device token
 * (`POST /api/v1/{token}/position`, the ingest style of telemetry); each report that crosses a
 * fence's edge records an enter or leave event, listed here and pushed to open editors on the
 * project's live stream (contract/iot-live.ts).
 *
 * A positioned object is a **location POI** (SPEC §7 `creatLocationPoi`, `selLocationPoi`,
 * `delLocationPoi`; the spec's "location" is positioning): its model category is a node of the
 * location category tree (`findlocationsystempoicategory`, id '0'), its coding the device's own
 * code, unique in its project.
 */

/** Most positions a track answer holds (the newest ones of the asked time range). */
export const trackMaxPositions = 5_000

/** A report may be at most this far ahead of the server's clock (clock skew of a device). */
export const positionFutureToleranceMs = 60_000

/** A fence: the area drawing it is, and when it was made a fence. */
export const fenceSchema = z.object({
  draw_id: recordIdSchema,
  project_id: recordIdSchema,
  created_at: timestampSchema,
})
export type Fence = z.infer<typeof fenceSchema>

/** A positioned object (SPEC §3) with its last position, if any. */
export const trackedObjectSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  name: z.string(),
  /** SPEC §3 "model category": what it is (person, vehicle, …), as text. */
  category: z.string(),
  /** The location category it is filed under ('' for none). */
  category_id: z.string(),
  /** SPEC §3 "coding". */
  coding: z.string(),
  last_position: z
    .object({
      lng: z.number(),
      lat: z.number(),
      heading: z.number().nullable(),
      at: timestampSchema,
    })
    .nullable(),
  /** The fences it is inside, as of its last position. */
  inside_fence_ids: z.array(z.string()),
  created_at: timestampSchema,
})
export type TrackedObject = z.infer<typeof trackedObjectSchema>

/** One position of a track. */
export const trackPositionSchema = z.object({
  lng: z.number(),
  lat: z.number(),
  heading: z.number().nullable(),
  at: timestampSchema,
})
export type TrackPosition = z.infer<typeof trackPositionSchema>

/** An enter or leave of a fence. */
export const fenceEventSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  fence_id: recordIdSchema,
  object_id: recordIdSchema,
  kind: z.enum(['enter', 'leave']),
  lng: z.number(),
  lat: z.number(),
  at: timestampSchema,
})
export type FenceEvent = z.infer<typeof fenceEventSchema>

/**
 * A position report's body: longitude and latitude (degrees), optional heading (degrees
 * clockwise from north) and time (`ts`, epoch milliseconds or ISO 8601; the server's time when
 * left out). Read by the ingest route, which answers in the envelope.
 */
export const positionReportSchema = z.object({
  lng: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
  heading: z.number().min(0).max(360).optional(),
  ts: z.union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })]).optional(),
})
export type PositionReport = z.infer<typeof positionReportSchema>

/** What a position report answers: the fence crossings it caused. */
export const positionReportResultSchema = z.object({
  events: z.array(z.object({ fence_id: z.string(), kind: z.enum(['enter', 'leave']) })),
})

const projectScopeSchema = z.object({
  project_id: recordIdSchema.optional(),
  project_token: z.string().max(100).optional(),
})

/** A location POI's coding: the device's own code (unique in its project when not empty). */
const codingSchema = z.string().trim().max(100)

/** `creatLocationPoi`: a new positioned object. */
export const creatLocationPoiBodySchema = z.object({
  project_id: recordIdSchema,
  name: z.string().trim().min(1).max(100),
  /** Free text; the location category's name when left empty and a category is chosen. */
  category: z.string().trim().max(100).default(''),
  /** A node of the location category tree the caller sees ('' or absent: none). */
  category_id: z.string().trim().max(64).default(''),
  coding: codingSchema.default(''),
})
export type CreatLocationPoiBody = z.input<typeof creatLocationPoiBodySchema>

/** `selLocationPoi`: a project's location POIs, optionally of one category (and below) or coding. */
export const selLocationPoiBodySchema = projectScopeSchema.extend({
  category_id: z.string().trim().min(1).max(64).optional(),
  coding: codingSchema.optional(),
})

/** The routes of this file (listed in contract/routes.ts). */
export const trackingRoutes = {
  fenceSet: webRoute({
    method: 'POST',
    path: '/web/fence/set',
    auth: 'editor',
    summary: 'Make a saved area (circle or polygon) an electronic fence, or no longer one',
    body: z.object({ draw_id: recordIdSchema, is_fence: z.boolean() }),
    datum: nullDatumSchema,
  }),
  fenceFindAll: webRoute({
    method: 'POST',
    path: '/web/fence/findall',
    auth: 'public',
    summary: "A project's electronic fences",
    body: projectScopeSchema,
    datum: z.array(fenceSchema),
  }),
  fenceEvents: webRoute({
    method: 'POST',
    path: '/web/fence/events',
    auth: 'public',
    summary: "A project's newest fence events (enter and leave), newest first",
    body: projectScopeSchema.extend({
      limit: z.number().int().min(1).max(500).default(100),
    }),
    datum: z.array(fenceEventSchema),
  }),
  creatLocationPoi: webRoute({
    method: 'POST',
    path: '/web/poi/creatLocationPoi',
    auth: 'editor',
    summary:
      'Add a location POI (a positioned object); the answer holds its device token (shown once) for position reports',
    body: creatLocationPoiBodySchema,
    datum: z.object({ object: trackedObjectSchema, token: z.string() }),
  }),
  delLocationPoi: webRoute({
    method: 'POST',
    path: '/web/poi/delLocationPoi',
    auth: 'editor',
    summary: 'Delete a location POI with its track and events',
    body: z.object({ id: recordIdSchema }),
    datum: nullDatumSchema,
  }),
  selLocationPoi: webRoute({
    method: 'POST',
    path: '/web/poi/selLocationPoi',
    auth: 'public',
    summary: "A project's location POIs with their last positions (of a category, or a coding)",
    body: selLocationPoiBodySchema,
    datum: z.array(trackedObjectSchema),
  }),
  trackedTrack: webRoute({
    method: 'POST',
    path: '/web/tracked/track',
    auth: 'public',
    summary: "An object's track: its positions in a time range, oldest first",
    body: z.object({
      id: recordIdSchema,
      project_token: z.string().max(100).optional(),
      from: timestampSchema.optional(),
      to: timestampSchema.optional(),
    }),
    datum: z.array(trackPositionSchema),
  }),
}
