import { z } from 'zod'
import { recordIdSchema } from './common'
import { formInteger, formNumber } from './form-fields'
import { resumableUploadIdSchema } from './resumable-upload'
import { webRoute } from './route'

/**
 * The IndoorGML navigation network of a building project (issue #6, SPEC §7 `findGmlPath`):
 * `POST /web/upload/uploadGml` stores it (checked by parsing it on the server first),
 * `POST /web/project/findGmlPath` says where it is and how it is placed, and
 * `POST /web/project/updateGmlPlacement` saves the placement and display mode.
 */

/** Where a stored GML file is served: `GET {gmlFilesRoot}{file_id}.gml?grant=…`. */
export const gmlFilesRoot = '/web/gml/files/'

/** Default largest GML file (GML_UPLOAD_LIMIT_MB). */
export const defaultGmlUploadLimitMegabytes = 200

/** SPEC §9 path display modes: 0 hide all, 1 nodes and paths, 2 nodes only, 3 paths only. */
export const gmlDisplayModes = [0, 1, 2, 3] as const
export type GmlDisplayModeValue = (typeof gmlDisplayModes)[number]

const finiteNumber = formNumber(z.number().finite())

/** How the network sits in the building's scene (see engine/building/gml-placement.ts). */
export const gmlPlacementSchema = z.object({
  /** Scene units added after turning and scaling: [x, y (up), z]. */
  offset: z.tuple([finiteNumber, finiteNumber, finiteNumber]),
  /** Turn about the vertical axis, counter-clockwise seen from above. */
  rotation_deg: formNumber(z.number().min(-360).max(360)),
  /** File units to scene units; positive. */
  scale: formNumber(z.number().positive().max(1e6)),
})
export type GmlPlacementDatum = z.infer<typeof gmlPlacementSchema>

/** The placement of a network nobody has placed yet. */
export const defaultGmlPlacement: GmlPlacementDatum = {
  offset: [0, 0, 0],
  rotation_deg: 0,
  scale: 1,
}

const displayModeSchema = formInteger({ min: 0, max: 3 }).transform(
  (value) => value as GmlDisplayModeValue,
)

/** `POST /web/upload/uploadGml` fields: with a multipart `file`, or `upload_id` of a tus upload. */
export const uploadGmlBodySchema = z.object({
  project_id: recordIdSchema,
  /** A finished resumable upload (contract/resumable-upload.ts) instead of a multipart file. */
  upload_id: resumableUploadIdSchema.optional(),
})

/** `POST /web/project/findGmlPath` body; a project token opens public previews. */
export const findGmlPathBodySchema = z.object({
  project_id: recordIdSchema,
  project_token: z.string().max(100).optional(),
})

/** `POST /web/project/updateGmlPlacement` body. */
export const updateGmlPlacementBodySchema = z.object({
  project_id: recordIdSchema,
  placement: gmlPlacementSchema,
  display_mode: displayModeSchema,
})

/** A project's GML file: where to fetch it, what it holds, how it is placed and shown. */
export const gmlPathSchema = z.object({
  /**
   * Relative to the server, e.g. `/web/gml/files/<file_id>.gml?grant=…`; changes when the file
   * does. The grant expires like a model URL's (contract/building.ts): call `findGmlPath` again.
   */
  url: z.string(),
  file_name: z.string(),
  size_bytes: z.number().int(),
  state_count: z.number().int(),
  /** Transition elements in the file (a directed pair counts twice). */
  transition_count: z.number().int(),
  placement: z.object({
    offset: z.tuple([z.number(), z.number(), z.number()]),
    rotation_deg: z.number(),
    scale: z.number(),
  }),
  display_mode: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  updated_at: z.string(),
})
export type GmlPath = z.infer<typeof gmlPathSchema>

/** `findGmlPath` answer: the file, or null when the project has none ('There is no GML file.'). */
export const findGmlPathDatumSchema = gmlPathSchema.nullable()

/** `uploadGml` and `updateGmlPlacement` answer: the project's file as it now is. */
export const uploadGmlDatumSchema = gmlPathSchema

const uploadGmlDescription =
  'Multipart: `project_id` and one `file` (an IndoorGML document), or form/JSON `project_id` ' +
  'and `upload_id` of a finished resumable upload. The file is parsed on the server first; ' +
  "a refusal names the parser's reason (not XML, DOCTYPE, no navigation network…). It " +
  'replaces the project’s previous GML file in one step.'

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const gmlRoutes = {
  uploadGml: webRoute({
    method: 'POST',
    path: '/web/upload/uploadGml',
    auth: 'editor',
    summary: 'Upload the IndoorGML navigation network of a building project',
    description: uploadGmlDescription,
    tags: ['upload'],
    body: uploadGmlBodySchema,
    datum: uploadGmlDatumSchema,
    fileFields: ['file'],
  }),
  findGmlPath: webRoute({
    method: 'POST',
    path: '/web/project/findGmlPath',
    auth: 'public',
    summary: "A building project's GML file, its counts and placement, or null",
    description: 'A signed-in reader, or a project token (body `project_token` or header).',
    body: findGmlPathBodySchema,
    datum: findGmlPathDatumSchema,
  }),
  updateGmlPlacement: webRoute({
    method: 'POST',
    path: '/web/project/updateGmlPlacement',
    auth: 'editor',
    summary: 'Save how the GML network is placed on the model and how it is shown',
    body: updateGmlPlacementBodySchema,
    datum: uploadGmlDatumSchema,
  }),
}
