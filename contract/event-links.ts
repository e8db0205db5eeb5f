import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { webRoute } from './route'

/**
 * Event linkage (issue 17 item 6; SPEC §2 "POI linkage panel", §3 "POI linkage record", §4, §7
 * `/eventlink/find|del|add|findall`, §8 'Unable to link parent POI.', 'Already linked.', §9
 * "Linkage tree depth 3 or 4").
 *
 * A link says: when the source POI's event fires (link, alarm, offline, fault — the template's
 * event kinds), the target reacts — a target POI is selected (a camera opens its video), a
 * target area (a drawn area of the project) is highlighted. POI → POI links form chains (a
 * camera linked from a sensor may itself link on); a chain is at most {@link eventLinkMaxDepth}
 * POIs deep, and a link that would close a cycle (a POI reaching itself) is refused with
 * 'Unable to link parent POI.'. The same link twice is 'Already linked.'.
 */

/** The event kinds of a source POI (SPEC §2 template manager "events" tab). */
export const eventLinkKinds = ['link', 'alarm', 'offline', 'fault'] as const
export type EventLinkKind = (typeof eventLinkKinds)[number]

/** What a link reaches: tab Area (0) or tab POI linkage (1) of the panel. */
export const eventLinkTargetKinds = ['area', 'poi'] as const
export type EventLinkTargetKind = (typeof eventLinkTargetKinds)[number]

/** SPEC §9: the linkage tree is 3 or 4 deep; a chain holds at most 4 POIs (3 links) plus an area. */
export const eventLinkMaxDepth = 4

/** Links one source POI may have (a named limit against floods). */
export const eventLinkMaxPerSource = 200

/**
 * Which event a device status code fires (SPEC §3 codes): 0 off → offline, 11 fault → fault,
 * 3/31/41 → alarm; `link` fires with every alarm-raising code (the generic linkage).
 */
export function eventKindsOfStatus(code: number): EventLinkKind[] {
  if (code === 0) return ['offline']
  if (code === 11) return ['fault', 'link']
  if (code === 3 || code === 31 || code === 41) return ['alarm', 'link']
  return []
}

/** A linkage record (SPEC §3: target, target_name, source, source_name). */
export const eventLinkSchema = z.object({
  id: z.string(),
  projectid: z.string(),
  /** The source POI's id and name. */
  source: z.string(),
  source_name: z.string(),
  event: z.enum(eventLinkKinds),
  target_kind: z.enum(eventLinkTargetKinds),
  /** The target POI's or area's id and name. */
  target: z.string(),
  target_name: z.string(),
  created_at: timestampSchema,
})
export type EventLink = z.infer<typeof eventLinkSchema>

/** `/eventlink/add`: link a source POI's event to a target POI or area. */
export const addEventLinkBodySchema = z.object({
  source: recordIdSchema,
  event: z.enum(eventLinkKinds),
  target_kind: z.enum(eventLinkTargetKinds),
  target: recordIdSchema,
})

/** `/eventlink/del`: remove one link. */
export const eventLinkIdBodySchema = z.object({ id: recordIdSchema })

/** `/eventlink/find`: the links of one source POI (optionally of one event). */
export const findEventLinksBodySchema = z.object({
  source: recordIdSchema,
  event: z.enum(eventLinkKinds).optional(),
  project_token: z.string().max(100).optional(),
})

/** `/eventlink/findall`: every link of a project (findEventLinkAll's linkage records). */
export const findAllEventLinksBodySchema = z.object({
  projectid: recordIdSchema,
  project_token: z.string().max(100).optional(),
})

/** The /web/ routes of event linkage, all POST. */
export const eventLinkRoutes = {
  addEventLink: webRoute({
    method: 'POST',
    path: '/web/eventlink/add',
    auth: 'editor',
    summary: "Link a source POI's event to a target POI or area",
    body: addEventLinkBodySchema,
    datum: eventLinkSchema,
  }),
  deleteEventLink: webRoute({
    method: 'POST',
    path: '/web/eventlink/del',
    auth: 'editor',
    summary: 'Remove an event link',
    body: eventLinkIdBodySchema,
    datum: z.object({ deleted: z.number().int() }),
  }),
  findEventLinks: webRoute({
    method: 'POST',
    path: '/web/eventlink/find',
    auth: 'public',
    summary: "One source POI's event links",
    body: findEventLinksBodySchema,
    datum: z.array(eventLinkSchema),
  }),
  findAllEventLinks: webRoute({
    method: 'POST',
    path: '/web/eventlink/findall',
    auth: 'public',
    summary: 'Every event link of a project (the linkage records, findEventLinkAll)',
    body: findAllEventLinksBodySchema,
    datum: z.array(eventLinkSchema),
  }),
}
