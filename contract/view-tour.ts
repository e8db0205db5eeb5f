import { z } from 'zod'
import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { formNumber } from './form-fields'
import { webRoute } from './route'

/**
 * The city's view tour (SPEC §2 city sub-tab "view tour", §9 "Tour modes: 0 open, 2 close";
 * issue 18): a project's saved viewpoints in order. Playing them (mode 0 open) flies the camera
 * from one to the next with smooth transitions until the tour is closed (mode 2); that is the
 * engine's `tour.open`/`tour.close`, not a server call.
 */

/** How many viewpoints a project's tour keeps at most. */
export const maxTourViewpoints = 100

/** How long the camera stays on a viewpoint by default, and the allowed range (seconds). */
export const defaultTourDwellSeconds = 3
export const tourDwellRange = { min: 0, max: 600 } as const

/** One saved viewpoint, as answered. */
export const tourViewpointSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  /** 1-based place in the tour. */
  seq: z.number().int(),
  name: z.string(),
  lng: z.number(),
  lat: z.number(),
  zoom: z.number(),
  /** Tilt, degrees from looking straight down. */
  pitch: z.number(),
  /** Degrees clockwise from north. */
  bearing: z.number(),
  dwell_seconds: z.number(),
  created_at: timestampSchema,
})
export type TourViewpointRecord = z.infer<typeof tourViewpointSchema>

/** `/viewTour/findall`: a project's viewpoints in tour order (a project token opens a preview's). */
export const findTourBodySchema = z.object({
  project_id: recordIdSchema.optional(),
  project_token: z.string().max(100).optional(),
})

/** `/viewTour/add`: a viewpoint appended to the tour. */
export const addTourViewpointBodySchema = z.object({
  project_id: recordIdSchema,
  name: z.string().trim().min(1).max(100),
  lng: formNumber(z.number().finite().min(-180).max(180)),
  lat: formNumber(z.number().finite().min(-90).max(90)),
  zoom: formNumber(z.number().finite().min(0).max(24)),
  pitch: formNumber(z.number().finite().min(0).max(85)),
  bearing: formNumber(z.number().finite().min(-360).max(360)),
  dwell_seconds: formNumber(
    z.number().finite().min(tourDwellRange.min).max(tourDwellRange.max),
  ).default(defaultTourDwellSeconds),
})
export type AddTourViewpointBody = z.input<typeof addTourViewpointBodySchema>

/** `/viewTour/del`: the others keep their order. */
export const deleteTourViewpointBodySchema = z.object({ id: recordIdSchema })

/** The routes of this file (listed in contract/routes.ts). */
export const viewTourRoutes = {
  viewTourFindAll: webRoute({
    method: 'POST',
    path: '/web/viewTour/findall',
    auth: 'public',
    summary: "A city project's view tour: its viewpoints in order",
    body: findTourBodySchema,
    datum: z.array(tourViewpointSchema),
  }),
  viewTourAdd: webRoute({
    method: 'POST',
    path: '/web/viewTour/add',
    auth: 'editor',
    summary: 'Append a viewpoint (camera place, zoom, tilt, bearing, dwell) to the view tour',
    body: addTourViewpointBodySchema,
    datum: tourViewpointSchema,
  }),
  viewTourDel: webRoute({
    method: 'POST',
    path: '/web/viewTour/del',
    auth: 'editor',
    summary: 'Delete a viewpoint of the view tour',
    body: deleteTourViewpointBodySchema,
    datum: nullDatumSchema,
  }),
}
