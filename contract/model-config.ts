import { z } from 'zod'
import { recordIdSchema, serverMessageItemSchema, timestampSchema } from './common'
import { formList, formNumber } from './form-fields'
import { webRoute } from './route'

/**
 * Model configuration tools (SPEC §2 `/modelConfig/merge|add|conversion`, §5 "Merge tools need a
 * shell model, shell maps, floor models, floor maps, a preview image and an output file name").
 */

/** The multipart file fields of the structure merge, in the order the form shows them. */
export const mergeFileFields = ['shell', 'shell_maps', 'floors', 'floor_maps', 'preview'] as const
export type MergeFileField = (typeof mergeFileFields)[number]

/** Most floor models one merge takes. */
export const mergeMaxFloors = 64
/** Most map images one merge takes (shell and floors together). */
export const mergeMaxMaps = 128
/** Largest preview image (SPEC §5: images at most 2 MB). */
export const mergePreviewMaxBytes = 2 * 1024 * 1024
/** Default storey height: floors are stacked this far apart unless the form says otherwise. */
export const defaultStoreyHeightMeters = 3

/** Characters an output name may not hold: it becomes file names inside the result. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
export const outputNameForbidden = /[/\\:*?"<>|\u0000-\u001f]|^\.+$/

/**
 * Text fields of `POST /web/modelConfig/merge`. Every input is optional in the schema so that
 * one answer names every missing input (§5) rather than the first the schema meets.
 */
export const mergeFieldsSchema = z.object({
  output_name: z.string().max(100).optional(),
  /** A building project to install the result into (its shell, floors and manifest). */
  project_id: recordIdSchema.optional(),
  storey_height: formNumber(z.number().min(0.1).max(100)).optional(),
})

/** What a merge step does: convert the shell, convert one floor, write the structure, install it. */
export const mergeStepKindSchema = z.enum(['shell', 'floor', 'structure', 'install'])
export type MergeStepKind = z.infer<typeof mergeStepKindSchema>

/** Where one step is. */
export const mergeStepStateSchema = z.enum(['waiting', 'running', 'done', 'failed'])
export type MergeStepState = z.infer<typeof mergeStepStateSchema>

/** One step of a merge, as its progress list shows it. */
export const mergeStepSchema = z.object({
  kind: mergeStepKindSchema,
  /** The file the step works on (a model's name), or the output name. */
  name: z.string(),
  state: mergeStepStateSchema,
})
export type MergeStep = z.infer<typeof mergeStepSchema>

/** One floor of a finished merge. */
export const mergedFloorSchema = z.object({
  id: z.string(),
  name: z.string(),
  elevation: z.number(),
  model: z.string(),
  triangleCount: z.number().int(),
})

/** A merge's status: its steps, and once it ended its result or its refusal. */
export const mergeStatusDatumSchema = z.object({
  id: recordIdSchema,
  outputName: z.string(),
  state: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  /** 0–1: steps done over steps. */
  progress: z.number(),
  steps: z.array(mergeStepSchema),
  /** Why it failed, as a catalogue message. */
  error: serverMessageItemSchema.nullable(),
  /** What the user may want to know (maps no model uses, textures converted…). */
  warnings: z.array(serverMessageItemSchema),
  result: z
    .object({
      /** Address of the ZIP (manifest .json, SBMs, preview), public by its random id. */
      downloadPath: z.string(),
      downloadName: z.string(),
      sizeBytes: z.number().int(),
      shellModel: z.string(),
      floors: z.array(mergedFloorSchema),
      /** The building project it was installed into, or null. */
      projectId: recordIdSchema.nullable(),
    })
    .nullable(),
  createdAt: timestampSchema,
})
export type MergeStatusDatum = z.infer<typeof mergeStatusDatumSchema>

/** Body of the merge status call. */
export const mergeStatusBodySchema = z.object({ id: recordIdSchema })

/** Where finished merges are served from: `{mergeFilesRoot}{id}.zip`. */
export const mergeFilesRoot = '/web/modelConfig/files/'

/** The /web/ routes of the model configuration tools. */
export const modelConfigRoutes = {
  merge: webRoute({
    method: 'POST',
    path: '/web/modelConfig/merge',
    auth: 'editor',
    summary: 'Structure merge: shell, floors, their maps and a preview into one building structure',
    description:
      'Multipart: `shell` (one .sbm/.dae/.fbx/.glb), `shell_maps` (images), `floors` (model ' +
      'files, one per floor), `floor_maps` (images), `preview` (PNG or JPEG ≤ 2 MB), ' +
      '`output_name`, optional `storey_height` (m, default 3) and `project_id` (install the ' +
      'result into that building project). Every missing input is named in `details`. The ' +
      'merge runs as a job: the answer is its status; poll `mergeStatus` for the steps.',
    tags: ['modelConfig'],
    body: mergeFieldsSchema,
    datum: mergeStatusDatumSchema,
    fileFields: [...mergeFileFields],
  }),
  mergeStatus: webRoute({
    method: 'POST',
    path: '/web/modelConfig/mergeStatus',
    auth: 'editor',
    summary: "A structure merge's steps, progress and result (its starter only)",
    tags: ['modelConfig'],
    body: mergeStatusBodySchema,
    datum: mergeStatusDatumSchema,
  }),
}

/** The editable fields of a model's details (SPEC §7 model detail calls). */
const modelDetailFields = {
  /** Manufacturer. */
  company: z.string().trim().max(100),
  product: z.string().trim().max(100),
  serial_number: z.string().trim().max(100),
  /** `YYYY-MM-DD`, or empty. */
  install_date: z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/),
  description: z.string().max(500),
}

/** Largest document a model's details keep (a manual, a certificate, a data sheet). */
export const modelDocumentMaxBytes = 50 * 1024 * 1024
/** Documents one upload may carry. */
export const modelDocumentMaxFilesPerUpload = 5
/** Documents one model's details keep at most. */
export const modelDocumentMaxPerDetail = 50
/** Longest document file name kept. */
export const modelDocumentNameMaxLength = 150
/**
 * The documents a model's details take, by extension: PDF, images, Word, Excel, PowerPoint and
 * OpenDocument files. The server checks that the content is what the extension says.
 */
export const modelDocumentExtensions = [
  'pdf',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'docx',
  'xlsx',
  'pptx',
  'doc',
  'xls',
  'ppt',
  'odt',
  'ods',
  'odp',
] as const
/** Where documents are served: `{modelDocumentFilesRoot}{id}?grant=…` (saved under their name). */
export const modelDocumentFilesRoot = '/web/modelDetail/documents/'

/** A document attached to a model's details. */
export const modelDocumentSchema = z.object({
  id: recordIdSchema,
  detail_id: recordIdSchema,
  /** The name it was uploaded under (also the name it downloads as). */
  file_name: z.string(),
  /** The type its content was recognised as, e.g. `application/pdf`. */
  content_type: z.string(),
  size_bytes: z.number().int(),
  /** Downloads the file: a read grant is in the address, valid 12 to 24 hours. */
  url: z.string(),
  created_at: timestampSchema,
})
export type ModelDocument = z.infer<typeof modelDocumentSchema>

/** One model's details, as every detail call answers them. */
export const modelDetailSchema = z.object({
  id: recordIdSchema,
  model_id: recordIdSchema,
  project_id: recordIdSchema,
  model_name: z.string(),
  company: z.string(),
  product: z.string(),
  serial_number: z.string(),
  install_date: z.string(),
  description: z.string(),
  /** Attached documents, oldest first (those of one upload by name). */
  documents: z.array(modelDocumentSchema),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type ModelDetail = z.infer<typeof modelDetailSchema>

/** `addModelDetail`: a model (of a building project the caller may change) and its details. */
export const addModelDetailBodySchema = z.object({
  model_id: recordIdSchema,
  company: modelDetailFields.company.default(''),
  product: modelDetailFields.product.default(''),
  serial_number: modelDetailFields.serial_number.default(''),
  install_date: modelDetailFields.install_date.default(''),
  description: modelDetailFields.description.default(''),
})
/** `updateModelDetail`: a detail by id and the fields to change. */
export const updateModelDetailBodySchema = z
  .object(modelDetailFields)
  .partial()
  .extend({ id: recordIdSchema })
/** `deleteModelDetail`: a detail by id. */
export const modelDetailIdBodySchema = z.object({ id: recordIdSchema })
/** `modelDetail/uploadDocument`: the details the multipart `file` parts are attached to. */
export const uploadModelDocumentBodySchema = z.object({ detail_id: recordIdSchema })
/** `modelDetail/deleteDocument`: a document by id. */
export const modelDocumentIdBodySchema = z.object({ id: recordIdSchema })
/** `findModelInfoOne`: a model by id. */
export const findModelInfoOneBodySchema = z.object({ model_id: recordIdSchema })
/** `findCompanyAndModel`: a building project. */
export const findCompanyAndModelBodySchema = z.object({ project_id: recordIdSchema })

/** `findCompanyAndModel` answer: the project's manufacturers, each with its models. */
export const companyAndModelDatumSchema = z.array(
  z.object({
    company: z.string(),
    models: z.array(modelDetailSchema),
  }),
)

/** `findModelInfoOne` answer: the model's details, or null when it has none yet. */
export const modelInfoOneDatumSchema = modelDetailSchema.nullable()

/** The model detail calls (SPEC §7 "Models"). */
export const modelDetailRoutes = {
  findCompanyAndModel: webRoute({
    method: 'POST',
    path: '/web/findCompanyAndModel',
    auth: 'editor',
    summary: "A building project's models with details, grouped by manufacturer",
    tags: ['model'],
    body: findCompanyAndModelBodySchema,
    datum: companyAndModelDatumSchema,
  }),
  findModelInfoOne: webRoute({
    method: 'POST',
    path: '/web/findModelInfoOne',
    auth: 'editor',
    summary: "One model's details (null when it has none)",
    tags: ['model'],
    body: findModelInfoOneBodySchema,
    datum: modelInfoOneDatumSchema,
  }),
  addModelDetail: webRoute({
    method: 'POST',
    path: '/web/addModelDetail',
    auth: 'editor',
    summary: "Add a model's details (manufacturer, product, serial, install date)",
    tags: ['model'],
    body: addModelDetailBodySchema,
    datum: modelDetailSchema,
  }),
  updateModelDetail: webRoute({
    method: 'POST',
    path: '/web/updateModelDetail',
    auth: 'editor',
    summary: "Change a model's details",
    tags: ['model'],
    body: updateModelDetailBodySchema,
    datum: modelDetailSchema,
  }),
  deleteModelDetail: webRoute({
    method: 'POST',
    path: '/web/deleteModelDetail',
    auth: 'editor',
    summary: "Delete a model's details",
    tags: ['model'],
    body: modelDetailIdBodySchema,
    datum: z.null(),
  }),
  uploadModelDocument: webRoute({
    method: 'POST',
    path: '/web/modelDetail/uploadDocument',
    auth: 'editor',
    summary: "Attach documents (PDF, images, office files) to a model's details",
    description:
      'Multipart `detail_id` and up to 5 `file` parts of at most 50 MiB each: PDF, PNG, JPEG, ' +
      'GIF, WebP, DOCX, XLSX, PPTX, DOC, XLS, PPT, ODT, ODS or ODP, checked by content. Names ' +
      'with folders, control or direction characters are refused, and so are office files whose ' +
      'packed parts are damaged or expand like a zip bomb. All or nothing: answers the details ' +
      'with their documents.',
    tags: ['model'],
    body: uploadModelDocumentBodySchema,
    datum: modelDetailSchema,
    fileFields: ['file'],
  }),
  deleteModelDocument: webRoute({
    method: 'POST',
    path: '/web/modelDetail/deleteDocument',
    auth: 'editor',
    summary: "Remove a document from a model's details",
    tags: ['model'],
    body: modelDocumentIdBodySchema,
    datum: modelDetailSchema,
  }),
}

/**
 * Structure add (SPEC §2 `/modelConfig/add`): floors added to, or the shell replaced in, the
 * structure of an existing building project. The same model and map fields as the merge, all
 * optional but one model; no preview image or output name (the project keeps its own).
 */
export const structureAddFileFields = ['shell', 'shell_maps', 'floors', 'floor_maps'] as const
export type StructureAddFileField = (typeof structureAddFileFields)[number]

/** Text fields of `POST /web/modelConfig/add`. */
export const structureAddFieldsSchema = z.object({
  project_id: recordIdSchema,
  storey_height: formNumber(z.number().min(0.1).max(100)).optional(),
})

/** `POST /web/modelConfig/addPreview`: the files the user chose, by name only (nothing is sent). */
export const structureAddPreviewBodySchema = z.object({
  project_id: recordIdSchema,
  /** The new shell's file name, or empty to keep the shell. */
  shell_name: z.string().max(255).default(''),
  /** The floor models' file names. */
  floor_names: formList(z.string().min(1).max(255)).default([]),
  storey_height: formNumber(z.number().min(0.1).max(100)).optional(),
})

/** What the add does to a floor or the shell: nothing, adds it, or replaces its model. */
export const structureChangeSchema = z.enum(['kept', 'added', 'replaced'])
export type StructureChange = z.infer<typeof structureChangeSchema>

/** The structure an add would leave (or left): the shell and every floor, bottom-up. */
export const structureAddPlanSchema = z.object({
  projectId: recordIdSchema,
  /** The structure's name (the project's manifest name, or the project name). */
  name: z.string(),
  /** The shell's file name after the add, and what happens to it; null when there is none. */
  shell: z
    .object({
      fileName: z.string(),
      change: structureChangeSchema,
      /** The file it replaces, when it replaces one. */
      replacesFileName: z.string().nullable(),
    })
    .nullable(),
  floors: z.array(
    z.object({
      name: z.string(),
      elevation: z.number(),
      /** The floor's model file names after the add. */
      models: z.array(z.string()),
      change: structureChangeSchema,
      /** The uploaded file that adds or replaces this floor's model, or null. */
      sourceName: z.string().nullable(),
    }),
  ),
})
export type StructureAddPlan = z.infer<typeof structureAddPlanSchema>

/** A structure add's status: its steps, and once it ended the structure it left or its refusal. */
export const structureAddStatusDatumSchema = z.object({
  id: recordIdSchema,
  projectId: recordIdSchema,
  state: mergeStatusDatumSchema.shape.state,
  /** 0–1: steps done over steps. */
  progress: z.number(),
  steps: z.array(mergeStepSchema),
  error: serverMessageItemSchema.nullable(),
  warnings: z.array(serverMessageItemSchema),
  /** The planned structure while it runs (what the preview showed); what was saved once done. */
  plan: structureAddPlanSchema,
  createdAt: timestampSchema,
})
export type StructureAddStatusDatum = z.infer<typeof structureAddStatusDatumSchema>

/** The /web/ routes of the structure add. */
export const structureAddRoutes = {
  addPreview: webRoute({
    method: 'POST',
    path: '/web/modelConfig/addPreview',
    auth: 'editor',
    summary:
      "Structure add, before saving: the building's structure as the chosen files would leave it",
    description:
      'Names only: `shell_name` (a new shell, or empty), `floor_names` (floor model file names), ' +
      'optional `storey_height`. A floor named like an existing floor replaces its model; other ' +
      'floors are stacked above the top floor (basements, B1…, below the lowest). The same ' +
      'refusals as `add` for the names (two floors with one name, not a model, nothing to add).',
    tags: ['modelConfig'],
    body: structureAddPreviewBodySchema,
    datum: structureAddPlanSchema,
  }),
  add: webRoute({
    method: 'POST',
    path: '/web/modelConfig/add',
    auth: 'editor',
    summary: 'Structure add: add floors to, or replace the shell of, a building project',
    description:
      'Multipart: `project_id`, optional `shell` (one .sbm/.dae/.fbx/.glb), `shell_maps`, ' +
      '`floors` (model files, one per floor), `floor_maps`, optional `storey_height` (m). At ' +
      'least one model. Runs as a job (each model converted, then everything saved in one ' +
      'transaction, or nothing); poll `addStatus`.',
    tags: ['modelConfig'],
    body: structureAddFieldsSchema,
    datum: structureAddStatusDatumSchema,
    fileFields: [...structureAddFileFields],
  }),
  addStatus: webRoute({
    method: 'POST',
    path: '/web/modelConfig/addStatus',
    auth: 'editor',
    summary: "A structure add's steps, progress and the structure it left (its starter only)",
    tags: ['modelConfig'],
    body: mergeStatusBodySchema,
    datum: structureAddStatusDatumSchema,
  }),
}
