import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { formInteger, formList } from './form-fields'
import { webRoute } from './route'

/**
 * Inspections (issue 17 item 7; SPEC §3 "investigation", §7 `/investigation/add|del|update|find`):
 * what someone found when they went to look at an alarm or a POI. A record says who inspected
 * and when, what they found, its state (open → in progress → resolved; it may be reopened), and
 * carries photos uploaded with the shared image upload (`/upload/uploadJpg` with the project's
 * id). A record against an alarm belongs to the alarm's POI too, so it is listed with the alarm
 * and with the POI. Editors of the project write them; whoever may read the project reads them.
 */

/** An inspection's state. */
export const investigationStates = ['open', 'in_progress', 'resolved'] as const
export type InvestigationState = (typeof investigationStates)[number]

/** Limits of one record and of the lists (named in the refusals). */
export const investigationLimits = {
  inspectorMaxLength: 100,
  findingsMaxLength: 4000,
  /** Photos one record carries. */
  maxPhotos: 9,
  /** Records one alarm, or one POI without an alarm, may have (against floods). */
  maxPerSubject: 200,
  pageSizeMax: 500,
  /** `inspected_at` may be at most this far ahead of the server's clock (clock skew). */
  maxFutureSkewMs: 10 * 60_000,
} as const

/** A photo of a record: its upload and where it is served. */
export const investigationPhotoSchema = z.object({
  /** The upload's uuid (`/upload/uploadJpg`'s `uuid`). */
  id: z.string(),
  url: z.string(),
  thumbnail_url: z.string(),
})
export type InvestigationPhoto = z.infer<typeof investigationPhotoSchema>

/** An inspection record. `created_by`, `updated_by` are user names. */
export const investigationSchema = z.object({
  id: z.string(),
  projectid: z.string(),
  /** The alarm it answers ('' for a record against a POI only). */
  alarm_id: z.string(),
  /** The POI inspected (the alarm's POI for a record against an alarm; '' if it had none). */
  poi_id: z.string(),
  /** The alarm's device code ('' for a record against a POI only). */
  devicecode: z.string(),
  /** Who inspected (a name: the person on site need not have an account). */
  inspector: z.string(),
  /** When the inspection took place. */
  inspected_at: timestampSchema,
  findings: z.string(),
  state: z.enum(investigationStates),
  photos: z.array(investigationPhotoSchema),
  created_by: z.string(),
  created_at: timestampSchema,
  updated_by: z.string(),
  updated_at: timestampSchema,
})
export type Investigation = z.infer<typeof investigationSchema>

const inspectorSchema = z.string().trim().min(1).max(investigationLimits.inspectorMaxLength)
const findingsSchema = z.string().trim().max(investigationLimits.findingsMaxLength)
/** An ISO 8601 time with its offset (`2026-11-27T08:15:00.000Z`, `…+09:00`), or epoch ms. */
const inspectedAtSchema = z.union([
  z.iso.datetime({ offset: true }),
  formInteger({ min: 0, max: 8_640_000_000_000_000 }),
])
/** Upload uuids, in the order shown; at most {@link investigationLimits.maxPhotos}. */
const photosSchema = formList(recordIdSchema).pipe(
  z.array(recordIdSchema).max(investigationLimits.maxPhotos),
)

/**
 * `/investigation/add`: a record against an alarm (`alarm_id`) or a POI (`poi_id`). `inspector`
 * defaults to the caller's name and `inspected_at` to now; `photos` are uploads made for this
 * project by the caller.
 */
export const addInvestigationBodySchema = z.object({
  alarm_id: recordIdSchema.optional(),
  poi_id: recordIdSchema.optional(),
  inspector: inspectorSchema.optional(),
  inspected_at: inspectedAtSchema.optional(),
  findings: findingsSchema.default(''),
  state: z.enum(investigationStates).default('open'),
  photos: photosSchema.default([]),
})

/**
 * `/investigation/update`: changes the fields given. `photos` replaces the list: photos left out
 * are released, new ones must be uploads made for this project by the caller.
 */
export const updateInvestigationBodySchema = z.object({
  id: recordIdSchema,
  inspector: inspectorSchema.optional(),
  inspected_at: inspectedAtSchema.optional(),
  findings: findingsSchema.optional(),
  state: z.enum(investigationStates).optional(),
  photos: photosSchema.optional(),
})

/** `/investigation/del`: deletes a record and releases its photos. */
export const investigationIdBodySchema = z.object({ id: recordIdSchema })

/** `/investigation/find`: a page of a project's records, newest inspection first, filtered. */
export const findInvestigationsBodySchema = z.object({
  projectid: recordIdSchema,
  project_token: z.string().max(100).optional(),
  /** Filters (combined with and). */
  alarm_id: recordIdSchema.optional(),
  poi_id: recordIdSchema.optional(),
  state: z.enum(investigationStates).optional(),
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: investigationLimits.pageSizeMax }).default(20),
})

/** The answer of `/investigation/find`. */
export const investigationPageSchema = z.object({
  list: z.array(investigationSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
export type InvestigationPage = z.infer<typeof investigationPageSchema>

/** The /web/ routes of inspections, all POST. */
export const investigationRoutes = {
  addInvestigation: webRoute({
    method: 'POST',
    path: '/web/investigation/add',
    auth: 'editor',
    summary: 'Record an inspection of an alarm or a POI (who, when, findings, photos, state)',
    body: addInvestigationBodySchema,
    datum: investigationSchema,
  }),
  updateInvestigation: webRoute({
    method: 'POST',
    path: '/web/investigation/update',
    auth: 'editor',
    summary: 'Change an inspection record (its photos list is replaced when given)',
    body: updateInvestigationBodySchema,
    datum: investigationSchema,
  }),
  deleteInvestigation: webRoute({
    method: 'POST',
    path: '/web/investigation/del',
    auth: 'editor',
    summary: 'Delete an inspection record and release its photos',
    body: investigationIdBodySchema,
    datum: z.object({ deleted: z.number().int() }),
  }),
  findInvestigations: webRoute({
    method: 'POST',
    path: '/web/investigation/find',
    auth: 'public',
    summary: "A page of a project's inspection records, newest first",
    body: findInvestigationsBodySchema,
    datum: investigationPageSchema,
  }),
}

/** The name of one of this area's routes. */
export type InvestigationCallName = keyof typeof investigationRoutes
