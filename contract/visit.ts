import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { formInteger, formList } from './form-fields'
import { webRoute } from './route'

/**
 * Visit mode's captures (issue 19, SPEC §3 "capture (image, sequence)", §7
 * `/project/findCaptureById|addCapture|deleteCapture|updateCaptureSeq`): a PNG of the scene at a
 * view, the camera that made it (so the view can be flown back to exactly), and its place in the
 * project's sequence. Played in sequence order, the captures are the building's view tour.
 */

/** A capture image may be at most this big (a 4K canvas PNG fits; 50 MB does not). */
export const captureImageMaxBytes = 8 * 1024 * 1024

/** How many captures a project keeps at most. */
export const maxCapturesPerProject = 200

/** How long a tour stays on a capture by default, and the allowed range (seconds). */
export const defaultCaptureDwellSeconds = 5
export const captureDwellRange = { min: 1, max: 600 } as const

const coordinateSchema = z.number().finite().min(-1e9).max(1e9)
const vectorSchema = z.tuple([coordinateSchema, coordinateSchema, coordinateSchema])

/** The camera of a capture: where it stood and what it looked at (scene metres). */
export const captureCameraSchema = z
  .object({ position: vectorSchema, target: vectorSchema })
  .strict()
export type CaptureCamera = z.infer<typeof captureCameraSchema>

/** The camera field: an object (JSON body) or JSON text (a multipart field). */
const cameraFieldSchema = z.preprocess((value) => {
  if (typeof value !== 'string' || value.length > 4_096) return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}, captureCameraSchema)

/** One capture as answered. */
export const captureSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  /** 1-based place in the project's sequence (the tour order). */
  seq: z.number().int(),
  /** Where the PNG is served (`GET`, public: its name is a random uuid). */
  image_url: z.string(),
  camera: captureCameraSchema,
  /** How long a tour stays on this view. */
  dwell_seconds: z.number().int(),
  created_at: timestampSchema,
})
export type Capture = z.infer<typeof captureSchema>

/** `findCaptureById` body: the project's captures (a project token opens a public preview's). */
export const findCapturesBodySchema = z.object({
  project_id: recordIdSchema,
  project_token: z.string().max(100).optional(),
})

/** `addCapture` multipart fields (besides the PNG in `file`). */
export const addCaptureFieldsSchema = z.object({
  project_id: recordIdSchema,
  name: z.string().trim().max(100).default(''),
  camera: cameraFieldSchema,
  dwell_seconds: formInteger(captureDwellRange).default(defaultCaptureDwellSeconds),
})

/**
 * `updateCapture` body: a capture's name and how long the tour stays on it (issue 19 "dwell");
 * a field left out keeps its value.
 */
export const updateCaptureBodySchema = z.object({
  id: recordIdSchema,
  name: z.string().trim().max(100).optional(),
  dwell_seconds: formInteger(captureDwellRange).optional(),
})

/** `deleteCapture` body. */
export const deleteCaptureBodySchema = z.object({ id: recordIdSchema })

/**
 * `updateCaptureSeq` body: every capture id of the project, in the new order. A list that
 * names another project's capture, leaves one out or repeats one is refused whole.
 */
export const updateCaptureSeqBodySchema = z.object({
  project_id: recordIdSchema,
  ids: formList(recordIdSchema).pipe(z.array(recordIdSchema).max(maxCapturesPerProject)),
})

/** A project's captures in sequence order. */
export const capturesDatumSchema = z.array(captureSchema)

/** `checkProjectToken` body: is this preview link still open? */
export const checkPreviewBodySchema = z.object({
  project_id: recordIdSchema,
  project_token: z.string().max(100).optional(),
})

/** `checkProjectToken` answer: the link works, and opens this project. */
export const checkPreviewDatumSchema = z.object({
  project_id: z.string(),
  name: z.string(),
})
export type CheckPreviewDatum = z.infer<typeof checkPreviewDatumSchema>

/** The /web/ routes of visit mode (contract/routes.ts). */
export const visitRoutes = {
  findCaptureById: webRoute({
    method: 'POST',
    path: '/web/project/findCaptureById',
    auth: 'public',
    summary: "A project's captures in tour order",
    description: 'A signed-in reader, or a project token (body `project_token` or header).',
    body: findCapturesBodySchema,
    datum: capturesDatumSchema,
  }),
  addCapture: webRoute({
    method: 'POST',
    path: '/web/project/addCapture',
    auth: 'editor',
    summary: 'Save a capture: a PNG of the scene (≤ 8 MB) with its camera, last in the sequence',
    description:
      'Multipart: `file` (a PNG, checked by content), `project_id`, `camera` (JSON text ' +
      '`{"position":[x,y,z],"target":[x,y,z]}`), optional `name` and `dwell_seconds` (1–600).',
    body: addCaptureFieldsSchema,
    datum: captureSchema,
    fileFields: ['file'],
  }),
  updateCapture: webRoute({
    method: 'POST',
    path: '/web/project/updateCapture',
    auth: 'editor',
    summary: 'Rename a capture or change its tour dwell (1–600 s)',
    body: updateCaptureBodySchema,
    datum: captureSchema,
  }),
  deleteCapture: webRoute({
    method: 'POST',
    path: '/web/project/deleteCapture',
    auth: 'editor',
    summary: 'Delete a capture; the others close up the sequence',
    body: deleteCaptureBodySchema,
    datum: capturesDatumSchema,
  }),
  updateCaptureSeq: webRoute({
    method: 'POST',
    path: '/web/project/updateCaptureSeq',
    auth: 'editor',
    summary: "Reorder a project's captures (every id of the project, in the new order)",
    body: updateCaptureSeqBodySchema,
    datum: capturesDatumSchema,
  }),
  checkProjectToken: webRoute({
    method: 'POST',
    path: '/web/project/checkProjectToken',
    auth: 'public',
    summary: 'Whether a public preview link (project token) still opens its project',
    description:
      'Public previews and kiosks ask this every half minute: a revoked, expired or forged ' +
      'token answers `2011`/403 and the preview ends.',
    body: checkPreviewBodySchema,
    datum: checkPreviewDatumSchema,
  }),
}
