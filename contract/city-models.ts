import { z } from 'zod'
import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { formBoolean, formInteger, formNumber } from './form-fields'
import { webRoute } from './route'

/**
 * The model library (issue 21 items 1 and 6; SPEC §2 city sub-tabs "model library" and "model
 * animation", §3 "Model library item: model_name, preview_path, operation, modelLoadState"): a
 * project's glTF and SBM models, each placed — in a city project on the map (longitude,
 * latitude, height), in a building project in its scene (x, y, z metres, y up) — turned by a
 * heading and scaled, with how its glTF animation plays. A `.gltf` upload with its `.bin` and
 * images is packed into one GLB on arrival; a GLB keeps its animations; an SBM is checked as
 * every SBM is and has none. The routes keep the `/cityModel/` name they started with.
 */

/** Largest model file (and largest `.gltf` part) a city library takes: props, not buildings. */
export const cityModelMaxBytes = 64 * 1024 * 1024
/** A `.gltf` with its `.bin` and images: at most this many files in one upload. */
export const cityModelMaxFiles = 32
/** How many models one project keeps at most. */
export const maxCityModelsPerProject = 500

/** Where model files are served from: `{cityModelFilesRoot}{id}/{sha256}.glb?grant=…`. */
export const cityModelFilesRoot = '/web/cityModel/files/'

/** Allowed range of the scale (1: the file's own metres). */
export const cityModelScaleRange = { min: 0.001, max: 10_000 } as const
/** Allowed range of the animation speed. */
export const cityModelSpeedRange = { min: 0.1, max: 10 } as const

const longitudeSchema = formNumber(z.number().finite().min(-180).max(180))
/** MapLibre's mercator ends at ±85.05°: nothing can be placed beyond it. */
const latitudeSchema = formNumber(z.number().finite().min(-85).max(85))
const heightSchema = formNumber(z.number().finite().min(-10_000).max(100_000))
/** A building's scene metres (its models are props, not continents). */
const sceneMetresSchema = formNumber(z.number().finite().min(-100_000).max(100_000))
const headingSchema = formNumber(z.number().finite().min(-360).max(360))
const scaleSchema = formNumber(
  z.number().finite().min(cityModelScaleRange.min).max(cityModelScaleRange.max),
)
const speedSchema = formNumber(
  z.number().finite().min(cityModelSpeedRange.min).max(cityModelSpeedRange.max),
)
const nameSchema = z.string().trim().min(1).max(100)

/** One model of a city project's library, as answered. */
export const cityModelSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  model_name: z.string(),
  /** The uploaded main file's name (`Cube.gltf`), for display. */
  file_name: z.string(),
  format: z.enum(['glb', 'sbm']),
  /** The model's bytes (a GLB or SBM), with a read grant. */
  url: z.string(),
  size_bytes: z.number().int(),
  /** Animations the file carries (always 0 for an SBM). */
  animation_count: z.number().int(),
  lng: z.number(),
  lat: z.number(),
  /** Metres above the ellipsoid of the model's origin. */
  height: z.number(),
  /** A building project's model: scene metres of its origin (y up); 0 in a city project. */
  x: z.number(),
  y: z.number(),
  z: z.number(),
  /** Degrees clockwise from north of the model's front. */
  heading: z.number(),
  scale: z.number(),
  /** The animation shown when the project opens, and how it plays. */
  animation_clip: z.number().int(),
  animation_speed: z.number(),
  animation_loop: z.boolean(),
  /** Plays on opening the project (else the clip waits on its first frame). */
  animation_autoplay: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type CityModel = z.infer<typeof cityModelSchema>

/**
 * `/cityModel/upload` (multipart): `file` parts — one `.glb`, `.sbm` or `.gltf` (with its
 * `.bin` and images) — and where it goes: `lng` and `lat` (required) and `height` in a city
 * project, `x`, `y`, `z` in a building project; the name defaults to the file's.
 */
export const uploadCityModelBodySchema = z.object({
  project_id: recordIdSchema,
  model_name: nameSchema.optional(),
  lng: longitudeSchema.optional(),
  lat: latitudeSchema.optional(),
  height: heightSchema.default(0),
  x: sceneMetresSchema.default(0),
  y: sceneMetresSchema.default(0),
  z: sceneMetresSchema.default(0),
  heading: headingSchema.default(0),
  scale: scaleSchema.default(1),
})

/** `/cityModel/findAll`: a project's models, oldest first (a project token opens a preview's). */
export const findCityModelsBodySchema = z.object({
  project_id: recordIdSchema.optional(),
  project_token: z.string().max(100).optional(),
})

/** `/cityModel/update`: a new name, place, heading, scale or animation; the rest is kept. */
export const updateCityModelBodySchema = z.object({
  id: recordIdSchema,
  model_name: nameSchema.optional(),
  lng: longitudeSchema.optional(),
  lat: latitudeSchema.optional(),
  height: heightSchema.optional(),
  x: sceneMetresSchema.optional(),
  y: sceneMetresSchema.optional(),
  z: sceneMetresSchema.optional(),
  heading: headingSchema.optional(),
  scale: scaleSchema.optional(),
  animation_clip: formInteger({ min: 0, max: 1_000 }).optional(),
  animation_speed: speedSchema.optional(),
  animation_loop: formBoolean().optional(),
  animation_autoplay: formBoolean().optional(),
})
export type UpdateCityModelBody = z.input<typeof updateCityModelBodySchema>

/** `/cityModel/delete`. */
export const deleteCityModelBodySchema = z.object({ id: recordIdSchema })

/** The /web/ routes of the city model library. */
export const cityModelRoutes = {
  uploadCityModel: webRoute({
    method: 'POST',
    path: '/web/cityModel/upload',
    auth: 'editor',
    summary:
      "Add a glTF/GLB/SBM model to a project's library, placed on the map or in the building",
    description:
      'Multipart: `file` parts (one .glb, .sbm or .gltf with its .bin and images, each at most ' +
      '64 MiB) and the fields of the body. A .gltf is packed into one GLB; animations are kept. ' +
      'A city project places it at `lng`/`lat`/`height`, a building project at `x`/`y`/`z`.',
    tags: ['cityModel'],
    body: uploadCityModelBodySchema,
    datum: cityModelSchema,
    fileFields: ['file'],
  }),
  findCityModels: webRoute({
    method: 'POST',
    path: '/web/cityModel/findAll',
    auth: 'public',
    summary: "A project's library models with their places and animation settings",
    tags: ['cityModel'],
    body: findCityModelsBodySchema,
    datum: z.array(cityModelSchema),
  }),
  updateCityModel: webRoute({
    method: 'POST',
    path: '/web/cityModel/update',
    auth: 'editor',
    summary: 'Rename, move, turn or scale a library model, or change how its animation plays',
    tags: ['cityModel'],
    body: updateCityModelBodySchema,
    datum: cityModelSchema,
  }),
  deleteCityModel: webRoute({
    method: 'POST',
    path: '/web/cityModel/delete',
    auth: 'editor',
    summary: "Remove a model from a project's library",
    tags: ['cityModel'],
    body: deleteCityModelBodySchema,
    datum: nullDatumSchema,
  }),
}
