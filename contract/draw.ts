import { z } from 'zod'
import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { documentedAs, formBoolean, formInteger, formNumber } from './form-fields'
import { parseJsonField, shapeLimitMessages } from './json-text'
import { type MessageId, zodMessage } from './messages'
import { webRoute } from './route'

/**
 * Drawings of a city project (SPEC §2 area division and path programming, §3 "Area drawing" and
 * "Path", §7 `/areadraw/*`, `findareadrawall`; issue 18): areas and paths drawn on the map, each
 * of one of the five draw types, with its points in WGS84 longitude/latitude. The server
 * computes the area (`acreage`, m²) and `length` (m) on the WGS84 ellipsoid from the points —
 * a client never sends them — and refuses shapes it cannot measure: too few points for the
 * type, more than {@link drawMaxPoints}, coordinates out of range, a polygon crossing itself
 * (refused, never repaired).
 */

/** The draw types by their stored numbers (SPEC §3): 1 circle … 5 inflection point. */
export const drawTypes = [1, 2, 3, 4, 5] as const
export type DrawTypeId = (typeof drawTypes)[number]

/** Most points of one drawing (a named limit; workers/geodesy `maxDrawVertices` is the same). */
export const drawMaxPoints = 100_000

/**
 * Largest body of `/areadraw/add` and `/areadraw/update`: 100,000 points written with full
 * double precision (~40 bytes each) and the rest.
 */
export const drawBodyMaxBytes = 6 * 1024 * 1024

/** What a drawing is for: an area of the area division tab, or a path of path programming. */
export const drawKinds = ['area', 'path'] as const
export type DrawKind = (typeof drawKinds)[number]

/** The draw types a path may be: a polyline, or inflection points (SPEC §3 "Path"). */
export const pathDrawTypes: readonly DrawTypeId[] = [3, 5]

/** A colour with alpha, `#RRGGBBAA` (or `#RRGGBB`, read as opaque). */
const colorSchema = z
  .string()
  .trim()
  .regex(/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, zodMessage('draw.colorFormat'))
  .transform((value) => (value.length === 7 ? `${value}ff` : value).toLowerCase())

/** Path display modes (SPEC §9): 0 hide all, 1 node and path, 2 node only, 3 path only. */
export const pathDisplayModes = [0, 1, 2, 3] as const

/** The default fill: white at half opacity (SPEC §9 "Default colour"). */
export const defaultDrawFill = '#ffffff80'
/** The default outline and path colour. */
export const defaultDrawOutline = '#1e88e5ff'

/** A path display mode, with one message naming the four (a bare range says too little). */
const displayModeSchema = formNumber(
  z
    .number()
    .int(zodMessage('draw.displayMode'))
    .min(0, zodMessage('draw.displayMode'))
    .max(3, zodMessage('draw.displayMode')),
)

/** The style fields, each checked; the defaults are only for a new drawing. */
const drawStyleFields = {
  fill_color: colorSchema,
  outline_color: colorSchema,
  outline_width: formNumber(z.number().min(0).max(50)),
  /** For paths: which of nodes and segments show (SPEC §9 path display modes). */
  display_mode: displayModeSchema,
}

/** How a drawing is shown. */
export const drawStyleSchema = z.object({
  fill_color: drawStyleFields.fill_color.default(defaultDrawFill),
  outline_color: drawStyleFields.outline_color.default(defaultDrawOutline),
  outline_width: drawStyleFields.outline_width.default(2),
  display_mode: drawStyleFields.display_mode.default(1),
})
export type DrawStyle = z.output<typeof drawStyleSchema>

/** A style as stored and answered (every field present). */
const storedStyleSchema = z.object({
  fill_color: z.string(),
  outline_color: z.string(),
  outline_width: z.number(),
  display_mode: z.number().int(),
})

/** One point: [longitude, latitude], degrees. */
export type DrawPoint = [lng: number, lat: number]

function readPoint(value: unknown): DrawPoint | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined
  const [lng, lat] = value as unknown[]
  if (typeof lng !== 'number' || typeof lat !== 'number') return undefined
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) return undefined
  return [lng, lat]
}

/**
 * Points as `[[lng, lat], …]` (JSON) or its JSON text (a form field), read in one loop (zod per
 * item costs too much at 100,000 points). Ranges and the type's rules are the geometry check's
 * (server), so they come back as one message naming the point.
 */
export const drawPointsSchema = z
  .unknown()
  .transform((input, context) => {
    let value = input
    if (typeof input === 'string') {
      const parsed = parseJsonField(input)
      if ('problem' in parsed) {
        if (parsed.problem === 'malformed')
          context.addIssue({ code: 'custom', message: zodMessage('validation.notValidJson') })
        else {
          const { id, maximum } = shapeLimitMessages[parsed.problem]
          context.addIssue({ code: 'custom', message: id, params: { maximum } })
        }
        return z.NEVER
      }
      value = parsed.value
    }
    if (!Array.isArray(value)) {
      context.addIssue({ code: 'custom', message: zodMessage('validation.expectedList') })
      return z.NEVER
    }
    if (value.length > drawMaxPoints) {
      context.addIssue({
        code: 'custom',
        message: 'validation.tooManyItems' satisfies MessageId,
        params: { maximum: drawMaxPoints },
      })
      return z.NEVER
    }
    const points: DrawPoint[] = new Array(value.length)
    for (let index = 0; index < value.length; index++) {
      const point = readPoint(value[index])
      if (point === undefined) {
        context.addIssue({
          code: 'custom',
          message: zodMessage('draw.pointFormat'),
          path: [index],
        })
        return z.NEVER
      }
      points[index] = point
    }
    return points
  })
  .meta(documentedAs(z.array(z.tuple([z.number(), z.number()])).max(drawMaxPoints)))

/** A draw type number, 1–5. */
const drawTypeSchema = formInteger({ min: 1, max: 5 })

/** A saved drawing (SPEC §3 "Area drawing", "Path"). */
export const areaDrawSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  kind: z.enum(drawKinds),
  name: z.string(),
  description: z.string(),
  /** 1 circle, 2 point, 3 polyline, 4 polygon, 5 inflection point. */
  type: z.number().int(),
  /** [lng, lat] pairs; a circle is its centre and one point on its rim. */
  points: z
    .custom<DrawPoint[]>((value) => Array.isArray(value))
    .meta(documentedAs(z.array(z.tuple([z.number(), z.number()])))),
  /** Geodesic area on WGS84, m² (circles and polygons; 0 otherwise). Computed by the server. */
  acreage: z.number(),
  /** Geodesic length, m: perimeter of an area, length of a path. Computed by the server. */
  length: z.number(),
  /** A circle's geodesic radius, m (0 otherwise). */
  radius: z.number(),
  style: storedStyleSchema,
  is_visible: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type AreaDraw = z.infer<typeof areaDrawSchema>

/** SPEC §7 `findareadrawall`: the names of a project's drawings. */
export const areaDrawNameSchema = z.object({
  id: recordIdSchema,
  area_name: z.string(),
  kind: z.enum(drawKinds),
  type: z.number().int(),
})
export type AreaDrawName = z.infer<typeof areaDrawNameSchema>

const nameSchema = z.string().trim().min(1).max(100)
/** SPEC §5 text area: at most 100 characters by default; a description takes 500. */
const descriptionSchema = z.string().trim().max(500)

/** `/areadraw/add`. */
export const addAreaDrawBodySchema = z.object({
  project_id: recordIdSchema,
  kind: z.enum(drawKinds).default('area'),
  name: nameSchema,
  description: descriptionSchema.default(''),
  type: drawTypeSchema,
  points: drawPointsSchema,
  style: drawStyleSchema.default(drawStyleSchema.parse({})),
  is_visible: formBoolean().default(true),
})
export type AddAreaDrawBody = z.input<typeof addAreaDrawBodySchema>

/** `/areadraw/update`: any of the fields; new points or type are measured again. */
export const updateAreaDrawBodySchema = z.object({
  id: recordIdSchema,
  name: nameSchema.optional(),
  description: descriptionSchema.optional(),
  type: drawTypeSchema.optional(),
  points: drawPointsSchema.optional(),
  /** Only the fields given change (no defaults: a new fill keeps the outline and display mode). */
  style: z.object(drawStyleFields).partial().optional(),
  is_visible: formBoolean().optional(),
})
export type UpdateAreaDrawBody = z.input<typeof updateAreaDrawBodySchema>

/** The project scope of list calls: `project_id`, or a preview's project token. */
const projectScopeSchema = z.object({
  project_id: recordIdSchema.optional(),
  project_token: z.string().max(100).optional(),
})

/** `/areadraw/find`: one drawing. */
export const findAreaDrawBodySchema = z.object({
  id: recordIdSchema,
  project_token: z.string().max(100).optional(),
})

/** `/areadraw/findall`: a project's drawings in full, of one kind when `kind` is given. */
export const findAllAreaDrawBodySchema = projectScopeSchema.extend({
  kind: z.enum(drawKinds).optional(),
})

/** `/areadraw/del`. */
export const deleteAreaDrawBodySchema = z.object({ id: recordIdSchema })

/** The routes of this file (listed in contract/routes.ts). */
export const drawRoutes = {
  areadrawAdd: webRoute({
    method: 'POST',
    path: '/web/areadraw/add',
    auth: 'editor',
    summary: 'Save an area or a path; its area (m²) and length (m) are computed from the points',
    body: addAreaDrawBodySchema,
    datum: areaDrawSchema,
  }),
  areadrawUpdate: webRoute({
    method: 'POST',
    path: '/web/areadraw/update',
    auth: 'editor',
    summary: 'Change a drawing: name, description, style, visibility, or its type and points',
    body: updateAreaDrawBodySchema,
    datum: areaDrawSchema,
  }),
  areadrawDel: webRoute({
    method: 'POST',
    path: '/web/areadraw/del',
    auth: 'editor',
    summary: 'Delete a drawing',
    body: deleteAreaDrawBodySchema,
    datum: nullDatumSchema,
  }),
  areadrawFind: webRoute({
    method: 'POST',
    path: '/web/areadraw/find',
    auth: 'public',
    summary: 'One drawing with its points',
    body: findAreaDrawBodySchema,
    datum: areaDrawSchema,
  }),
  areadrawFindAll: webRoute({
    method: 'POST',
    path: '/web/areadraw/findall',
    auth: 'public',
    summary: "A project's drawings with their points, areas and lengths",
    body: findAllAreaDrawBodySchema,
    datum: z.array(areaDrawSchema),
  }),
  findAreaDrawAll: webRoute({
    method: 'POST',
    path: '/web/findareadrawall',
    auth: 'public',
    summary: "The names of a project's drawings (area_name list)",
    body: projectScopeSchema,
    datum: z.array(areaDrawNameSchema),
  }),
}
