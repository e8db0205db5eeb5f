import { z } from 'zod'
import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { formNumber } from './form-fields'
import { webRoute } from './route'

/**
 * Anchor points (SPEC §3 "Anchor point": name, relative coordinates, longitude, latitude,
 * offset; §5 "Location needs at least 3 anchor points"; §7 `/poi` location mapping get, add,
 * update, delete; issue 18). Each pairs a point of a model in its own coordinates with where it
 * is on the earth. The anchors of one model are saved as they are; the similarity transform
 * they fix is solved from them by `workers/geodesy/anchor-solver.ts` wherever it is needed (the
 * city's anchor tab, the building editor's location module), so a saved set never disagrees
 * with its fit.
 */

/** How many anchors one model keeps at most: a least-squares fit gains nothing past this. */
export const maxAnchorsPerTarget = 100

/**
 * Which model of the project the anchors place: the empty string for a building project's own
 * model, a tileset id in a city project.
 */
export const anchorTargetSchema = z.string().trim().max(64)

/** Relative coordinates: metres from the model's origin (a building is well inside 10,000 km). */
const relativeSchema = formNumber(z.number().finite().min(-1e7).max(1e7))
const longitudeSchema = formNumber(z.number().finite().min(-180).max(180))
const latitudeSchema = formNumber(z.number().finite().min(-90).max(90))
/** Height offset of the anchor above the ellipsoid point, metres. */
const offsetSchema = formNumber(z.number().finite().min(-10_000).max(10_000))
const nameSchema = z.string().trim().min(1).max(100)

/** One saved anchor point. */
export const locationAnchorSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  target: z.string(),
  name: z.string(),
  /**
   * Relative coordinates, metres: x and y across the ground, right-handed seen from above (a
   * three.js scene's x and −z), z up.
   */
  x: z.number(),
  y: z.number(),
  z: z.number(),
  lng: z.number(),
  lat: z.number(),
  offset: z.number(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type LocationAnchor = z.infer<typeof locationAnchorSchema>

/** Location mapping get: a model's anchors, oldest first (a project token opens a preview's). */
export const getLocationMappingBodySchema = z.object({
  project_id: recordIdSchema.optional(),
  project_token: z.string().max(100).optional(),
  target: anchorTargetSchema.default(''),
})

/** Location mapping add. */
export const addLocationMappingBodySchema = z.object({
  project_id: recordIdSchema,
  target: anchorTargetSchema.default(''),
  name: nameSchema,
  x: relativeSchema,
  y: relativeSchema,
  z: relativeSchema.default(0),
  lng: longitudeSchema,
  lat: latitudeSchema,
  offset: offsetSchema.default(0),
})
export type AddLocationMappingBody = z.input<typeof addLocationMappingBodySchema>

/** Location mapping update: any of the fields. */
export const updateLocationMappingBodySchema = z.object({
  id: recordIdSchema,
  name: nameSchema.optional(),
  x: relativeSchema.optional(),
  y: relativeSchema.optional(),
  z: relativeSchema.optional(),
  lng: longitudeSchema.optional(),
  lat: latitudeSchema.optional(),
  offset: offsetSchema.optional(),
})

/** Location mapping delete. */
export const deleteLocationMappingBodySchema = z.object({ id: recordIdSchema })

/** The routes of this file (listed in contract/routes.ts). */
export const locationRoutes = {
  getLocationMapping: webRoute({
    method: 'POST',
    path: '/web/poi/getLocationMapping',
    auth: 'public',
    summary: "A model's anchor points (building model or city tileset), oldest first",
    body: getLocationMappingBodySchema,
    datum: z.array(locationAnchorSchema),
  }),
  addLocationMapping: webRoute({
    method: 'POST',
    path: '/web/poi/addLocationMapping',
    auth: 'editor',
    summary: 'Save an anchor point: a model point (metres) paired with a longitude and latitude',
    body: addLocationMappingBodySchema,
    datum: locationAnchorSchema,
  }),
  updateLocationMapping: webRoute({
    method: 'POST',
    path: '/web/poi/updateLocationMapping',
    auth: 'editor',
    summary: 'Change an anchor point',
    body: updateLocationMappingBodySchema,
    datum: locationAnchorSchema,
  }),
  deleteLocationMapping: webRoute({
    method: 'POST',
    path: '/web/poi/deleteLocationMapping',
    auth: 'editor',
    summary: 'Delete an anchor point',
    body: deleteLocationMappingBodySchema,
    datum: nullDatumSchema,
  }),
}
