import { z } from 'zod'
import { recordIdSchema, serverMessageItemSchema } from './common'
import { webRoute } from './route'

/**
 * The file side of POI templates (SPEC §5 "A 3D template model upload must be a zip", §7
 * "Template uploads"): the 3D template zip (`/upload/upload3DPoi`, `/upload/upload3DGLBFPoi`),
 * its served files, and the batch-POI template file (download, `/poi/uploadPoiTemplate`).
 */

/** Largest 3D template zip accepted (models with their textures; the converter's own limit). */
export const templateZipMaxBytes = 128 * 1024 * 1024
/** Most bytes a template zip may expand to, all entries together. */
export const templateZipMaxUncompressedBytes = 512 * 1024 * 1024

/** Where a template model's files are served: `GET {templateModelFilesRoot}{uuid}/{name}`. */
export const templateModelFilesRoot = '/web/templateModels/'

/** Multipart text fields of the 3D template upload (the zip travels in `file`). */
export const templateZipFieldsSchema = z.object({
  /** A finished resumable upload instead of a `file` part. */
  upload_id: z.string().min(1).max(200).optional(),
})

/**
 * What the 3D template upload answers (SPEC §7 "The 3D zip upload returns uuid, rootPath,
 * jpgName, xmlName"), plus the SBM's name: a template saves `category_zip_uuid` = `uuid`,
 * `file_path` = `rootPath`, `jpg_name`, `xml_name` and `glbf_name` = `sbmName`.
 */
export const templateModelDatumSchema = z.object({
  uuid: recordIdSchema,
  /** Folder the files are served from, ending in '/'. */
  rootPath: z.string(),
  /** The preview thumbnail (a PNG rendered from the model on the server). */
  jpgName: z.string(),
  /** A small XML description of the model (source, files, size, bounds). */
  xmlName: z.string(),
  /** The converted model. */
  sbmName: z.string(),
  /** The name of the model file inside the zip, for display. */
  sourceName: z.string(),
  triangleCount: z.number().int(),
  sizeBytes: z.number().int(),
  /**
   * Things the user may want to know (dropped animations, missing textures…): catalogue ids
   * with parameters, rendered in the user's language by the console.
   */
  warnings: z.array(serverMessageItemSchema),
})
export type TemplateModelDatum = z.infer<typeof templateModelDatumSchema>

/** The batch-POI template download: the POI template ("POI category") the file is for. */
export const poiBatchTemplateBodySchema = z.object({
  pid: recordIdSchema,
})

/** Multipart text fields of `/poi/uploadPoiTemplate` (the filled XLSX travels in `file`). */
export const uploadPoiTemplateFieldsSchema = z.object({
  pid: recordIdSchema,
})

/** Largest filled batch-POI file accepted. */
export const poiBatchFileMaxBytes = 10 * 1024 * 1024
/** Most POI rows one batch file may hold. */
export const poiBatchMaxRows = 5_000

/** What a stored, valid batch-POI file answers; the POI issue creates POIs from `uuid`. */
export const uploadPoiTemplateDatumSchema = z.object({
  uuid: recordIdSchema,
  pid: recordIdSchema,
  fileName: z.string(),
  rowCount: z.number().int(),
  /** The column keys of the file, in order (POI fields, then static attributes). */
  columns: z.array(z.string()),
})
export type UploadPoiTemplateDatum = z.infer<typeof uploadPoiTemplateDatumSchema>

/**
 * One bad cell of a refused batch file (in the refusal's `datum.details`): the sheet row (1 is
 * the header), the column key and the reason as a catalogue message.
 */
export const poiBatchRowErrorSchema = z.object({
  row: z.number().int(),
  column: z.string(),
  field: z.string(),
  message: z.string(),
  messageId: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
})
export type PoiBatchRowError = z.infer<typeof poiBatchRowErrorSchema>

/**
 * The envelope routes of the template files (the XLSX download and the model files answer raw
 * bytes, so they are not in the route table).
 */
export const templateFileRoutes = {
  upload3DPoi: webRoute({
    method: 'POST',
    path: '/web/upload/upload3DPoi',
    auth: 'editor',
    summary: 'Make a 3D template model from a zip holding a glTF, GLB, DAE or FBX model',
    description:
      'Multipart: one `file`, a zip (checked by content: anything else is refused with ' +
      '"Only zip can be uploaded."), or `upload_id` of a finished resumable upload. The zip is ' +
      'inspected before anything is extracted (unsafe names, links, zip bombs); its one model is ' +
      'converted to SBM in a worker thread and a preview PNG is rendered from it. Files are ' +
      'served at `rootPath` + `sbmName` / `jpgName` / `xmlName`; a template saves `uuid` as its ' +
      '`category_zip_uuid`.',
    tags: ['upload'],
    body: templateZipFieldsSchema,
    datum: templateModelDatumSchema,
    fileFields: ['file'],
  }),
  upload3DGLBFPoi: webRoute({
    method: 'POST',
    path: '/web/upload/upload3DGLBFPoi',
    auth: 'editor',
    summary: 'Make a 3D template model from a zip holding a glTF or GLB model',
    description: 'As `/upload/upload3DPoi`, for zips whose model is a .glb or .gltf only.',
    tags: ['upload'],
    body: templateZipFieldsSchema,
    datum: templateModelDatumSchema,
    fileFields: ['file'],
  }),
  uploadPoiTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/uploadPoiTemplate',
    auth: 'editor',
    summary: 'Upload a filled batch-POI file: validated and stored, no POI is created yet',
    description:
      'Multipart: `pid` (the template the file was made for) and one `file` (.xlsx ≤ 10 MB). ' +
      'The workbook is checked before it is parsed (zip sizes and ratios), then read as a ' +
      'stream: row 1 must hold the keys of the downloaded file (`POST /web/poi/downloadPoiTemplate` ' +
      'with `pid`, which answers the .xlsx), at most 5,000 rows, no formulas, every cell valid for ' +
      'its column. Any bad cell refuses the whole file, listing each `{ row, column, messageId }` ' +
      'in `datum.details`; a valid file is stored and its `uuid` answered.',
    tags: ['poi'],
    body: uploadPoiTemplateFieldsSchema,
    datum: uploadPoiTemplateDatumSchema,
    fileFields: ['file'],
  }),
}
