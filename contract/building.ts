import { nullDatumSchema, recordIdSchema, serverMessageItemSchema, timestampSchema } from './common'
import { z } from 'zod'
import { formBoolean, formNumber } from './form-fields'
import { webRoute } from './route'

/**
 * Building models of a project (SPEC §2 model library, §3 "POI/model record", "Model library
 * item", §4 model load state and payment, §5 "Model files", §7 models and uploads), and the
 * building-structure manifest (decisions.md "Building structure").
 */

/** What a model is in the building: the outer shell, one floor, or a free-standing model. */
export const buildingModelRoleSchema = z.enum(['shell', 'floor', 'model'])
export type BuildingModelRole = z.infer<typeof buildingModelRoleSchema>

/** Where model files are served from: `{buildingModelFilesRoot}{modelId}/{sha256}.sbm?grant=…`. */
export const buildingModelFilesRoot = '/web/model/files/'
/** Where converted (library) SBMs are served from: `{convertedModelFilesRoot}{uuid}.sbm`. */
export const convertedModelFilesRoot = '/web/model/converted/'
/** Where structure manifests are served from: `{buildingStructureFilesRoot}{projectId}/{sha256}.json`. */
export const buildingStructureFilesRoot = '/web/model/structure/'

/** Largest SBM accepted in one upload (a whole building's floor can be big). */
export const sbmUploadMaxBytes = 512 * 1024 * 1024
/** Largest floor ZIP accepted. */
export const floorZipUploadMaxBytes = 1024 * 1024 * 1024
/** Most SBM files in one floor upload (multipart files or ZIP entries). */
export const floorUploadMaxFiles = 200
/** Largest structure manifest (.json). */
export const structureManifestMaxBytes = 1024 * 1024
/** Largest source model for conversion, per file (main file, .bin, textures). */
export const conversionSourceMaxBytes = 256 * 1024 * 1024
/** Most files of one glTF conversion upload (.gltf + .bin + textures). */
export const conversionMaxFiles = 64

/** The message for a file that is not a loadable SBM (SPEC §5 "Model files"). */
export const notValidSbmMessage = 'Failed to load a model, not a valid SBM file!'

/**
 * How the engine should load a model: with the BVH stored in the file, or by building one in a
 * worker (older or foreign SBMs without the BVH chunk).
 */
export const modelLoadHintSchema = z.enum(['storedBvh', 'buildBvh'])
export type ModelLoadHint = z.infer<typeof modelLoadHintSchema>

/** A vector of three finite numbers. */
const vector3Schema = z.tuple([z.number().finite(), z.number().finite(), z.number().finite()])

/** Where a model sits in the building: metres, degrees (XYZ Euler), and scale factors. */
export const modelPlacementSchema = z.object({
  position: vector3Schema,
  rotationDegrees: vector3Schema,
  scale: vector3Schema,
})
export type ModelPlacement = z.infer<typeof modelPlacementSchema>

/** One model of a project's model library, as every model call answers it. */
export const buildingModelSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  /** The name shown in the model list (SPEC `modelname`). */
  name: z.string(),
  /** The uploaded file's name; manifests refer to models by it. */
  file_name: z.string(),
  role: buildingModelRoleSchema,
  floor_id: recordIdSchema.nullable(),
  /**
   * Address of the SBM bytes, with a read grant in its query so a plain `fetch` loads it (no
   * Token header needed). The bytes under it never change (the address changes with the file);
   * the grant expires like a tile address's (contract/city.ts: 12–24 h for a signed-in reader,
   * 1–2 h for a project-token holder, ended within a minute by revoking the token), so a client
   * asks `findModelInfo` again for fresh addresses when it opens the scene.
   */
  url: z.string(),
  size_bytes: z.number().int(),
  triangle_count: z.number().int(),
  has_stored_bvh: z.boolean(),
  preview_path: z.string().nullable(),
  model_load_hint: modelLoadHintSchema,
  placement: modelPlacementSchema,
  is_visible: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type BuildingModel = z.infer<typeof buildingModelSchema>

/** A floor of a building project. */
export const buildingFloorSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  name: z.string(),
  /** Height of the floor's base above the building's origin, in metres. */
  elevation: z.number(),
  sort_order: z.number().int(),
  /** The floor's id in the manifest or the SBM floor metadata (e.g. 'F1'), if it came from one. */
  floor_key: z.string().nullable(),
})
export type BuildingFloor = z.infer<typeof buildingFloorSchema>

/** One floor entry of the building-structure manifest. */
export const structureManifestFloorSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().max(100),
  elevation: z.number().finite(),
  /** File name of the floor's SBM, or null for a floor with no model yet. */
  model: z.string().min(1).max(255).nullable().optional(),
  /** File names of the floor's maps (images); kept as given. */
  maps: z.array(z.string().max(255)).max(100).default([]),
})

/**
 * The building-structure manifest (the "shell" `.json`): which model is the shell and which
 * floors exist, each with its model by file name. `preview` names the preview image.
 */
export const structureManifestSchema = z.object({
  version: z.literal(1),
  kind: z.literal('building'),
  name: z.string().min(1).max(100),
  shell: z.object({ model: z.string().min(1).max(255) }).nullable(),
  floors: z.array(structureManifestFloorSchema).max(500),
  preview: z.string().max(255).nullable().optional(),
})
export type StructureManifest = z.output<typeof structureManifestSchema>

/** `POST /web/model/findModelInfo`: the scene description the engine loads. */
export const modelInfoDatumSchema = z.object({
  structure: z.object({
    name: z.string(),
    shellModelId: recordIdSchema.nullable(),
    floors: z.array(
      z.object({
        id: recordIdSchema,
        name: z.string(),
        elevation: z.number(),
        modelIds: z.array(recordIdSchema),
      }),
    ),
  }),
  models: z.array(buildingModelSchema),
  /** The stored manifest's address (with a read grant, like model URLs), or null before one was uploaded. */
  shell_json_path: z.string().nullable(),
})
export type ModelInfoDatum = z.infer<typeof modelInfoDatumSchema>

/** Bodies that name only a project. */
export const buildingProjectBodySchema = z.object({ project_id: recordIdSchema })

/** Bodies that name only a model. */
export const buildingModelIdBodySchema = z.object({ id: recordIdSchema })

/**
 * The multipart text fields of the floor upload (`/upload/uploadZip`). The files are `file`
 * parts (many `.sbm`, or one `.zip` of SBMs); `upload_id` names a finished resumable upload
 * instead.
 */
export const floorUploadFieldsSchema = z.object({
  project_id: recordIdSchema,
  upload_id: z.string().min(1).max(200).optional(),
})

/** `POST /web/upload/uploadZip` answer: the models added or replaced and the project's floors. */
export const floorUploadDatumSchema = z.object({
  models: z.array(buildingModelSchema),
  floors: z.array(buildingFloorSchema),
})
export type FloorUploadDatum = z.infer<typeof floorUploadDatumSchema>

/**
 * What the floor and shell uploads take besides `.sbm`: common model formats, converted to SBM
 * on the server (a `.gltf` travels with its `.bin` and images), or one `.zip` of any of them.
 */
export const convertibleModelExtensions = ['glb', 'gltf', 'dae', 'fbx'] as const
/** Files that only come along with a `.gltf` (its buffers and images) or a DAE/FBX (textures). */
export const modelResourceExtensions = ['bin', 'png', 'jpg', 'jpeg', 'webp', 'tga', 'ktx2'] as const

/** The height between floors made from plain model uploads, stacked one above the other. */
export const defaultStoreyHeightMeters = 3

/** `POST /web/BIMupload/updateFloor`: rename a floor or set its elevation (metres). */
export const updateFloorBodySchema = z.object({
  id: recordIdSchema,
  name: z.string().trim().min(1).max(100).optional(),
  elevation: formNumber(z.number().finite().min(-10_000).max(10_000)).optional(),
})

/** Multipart text fields of the shell (structure manifest) upload. */
export const structureUploadFieldsSchema = z.object({
  project_id: recordIdSchema,
  upload_id: z.string().min(1).max(200).optional(),
})

/** `POST /web/upload/configModelFileStructureReturnUrl` answer. */
export const structureUploadDatumSchema = z.object({
  /**
   * Where the stored manifest is served, with a read grant; the project's new `shell_json_path`
   * is the same address without the grant (readable with the Token or ProjectToken header).
   */
  url: z.string(),
  structure: modelInfoDatumSchema.shape.structure,
  /** Model file names the manifest names that the project has no model for yet. */
  missingModels: z.array(z.string()),
})
export type StructureUploadDatum = z.infer<typeof structureUploadDatumSchema>

/** Multipart text fields of `/upload/uploadandupdatemodel` (plus one `.sbm` file part). */
export const replaceModelFieldsSchema = z.object({
  id: recordIdSchema,
  upload_id: z.string().min(1).max(200).optional(),
})

/** `POST /web/BIMupload/updateBimModel`: rename, move to a floor (null: no floor), change role. */
export const updateBimModelBodySchema = z.object({
  id: recordIdSchema,
  name: z.string().trim().min(1).max(100).optional(),
  /** A floor of the same project; '' or null takes the model off its floor. */
  floor_id: z
    .union([recordIdSchema, z.literal(''), z.null()])
    .transform((value) => (value === '' ? null : value))
    .optional(),
  role: buildingModelRoleSchema.optional(),
})

/** `POST /web/project/updatemodelinfo`: save a model's placement and visibility. */
export const updateModelInfoBodySchema = z.object({
  id: recordIdSchema,
  position: z.array(formNumber(z.number().finite())).length(3).optional(),
  rotationDegrees: z.array(formNumber(z.number().finite())).length(3).optional(),
  scale: z
    .array(formNumber(z.number().finite().positive().max(1e6)))
    .length(3)
    .optional(),
  is_visible: formBoolean().optional(),
})

/**
 * `POST /web/model/createModelByCategory`: adds a converted library model (the `uuid` an
 * `uploadGltfForSbm` or `convertSbm` answered) to a project's model library.
 */
export const createModelByCategoryBodySchema = z.object({
  project_id: recordIdSchema,
  sbm_uuid: recordIdSchema,
  name: z.string().trim().min(1).max(100).optional(),
  role: buildingModelRoleSchema.default('model'),
  floor_id: recordIdSchema.optional(),
})

/** `POST /web/findmodelnum` answer: how many models a project has, in total and per role. */
export const modelCountDatumSchema = z.object({
  count: z.number().int(),
  shell: z.number().int(),
  floor: z.number().int(),
  model: z.number().int(),
})
export type ModelCountDatum = z.infer<typeof modelCountDatumSchema>

/** Multipart text fields of `/upload/uploadGltfForSbm` (files in `glbf_arr`). */
export const uploadGltfForSbmFieldsSchema = z.object({
  category_zip_uuid: z.string().max(100).optional(),
  option_type: z.literal('add').default('add'),
  /** With a project, the converted model is also added to its model library. */
  project_id: recordIdSchema.optional(),
  upload_id: z.string().min(1).max(200).optional(),
})

/** Multipart text fields of `/upload/convertSbm` (one `.dae` or `.fbx` in `file`). */
export const convertSbmFieldsSchema = z.object({
  project_id: recordIdSchema.optional(),
  upload_id: z.string().min(1).max(200).optional(),
})

/** What a conversion answers (SPEC §7: uuid, rootPath, sbmName), with its summary. */
export const conversionDatumSchema = z.object({
  uuid: recordIdSchema,
  /** Folder the SBM is served from, ending in '/'. */
  rootPath: z.string(),
  /** The served file name, `<uuid>.sbm`. */
  sbmName: z.string(),
  /** The name to save the SBM under: the source's name with `.sbm` (the download uses it). */
  downloadName: z.string(),
  sizeBytes: z.number().int(),
  triangleCount: z.number().int(),
  /**
   * Things the user may want to know (dropped animations, converted textures…): a catalogue
   * message id with its parameters for the console, and the English text for API users.
   */
  warnings: z.array(serverMessageItemSchema),
  /** The library model made in the project, when a `project_id` was given. */
  model: buildingModelSchema.nullable(),
})
export type ConversionDatum = z.infer<typeof conversionDatumSchema>

/** `POST /web/model/findModelInfo` input: a building project, by user or project token. */
export const readModelInfoBodySchema = buildingProjectBodySchema.extend({
  /** A project token instead of a user token, for preview links. */
  project_token: z.string().max(100).optional(),
})

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const buildingRoutes = {
  uploadZip: webRoute({
    method: 'POST',
    path: '/web/upload/uploadZip',
    auth: 'editor',
    summary: 'Floor upload: model files (.sbm, .glb, .gltf, .dae, .fbx) or one .zip of them',
    description:
      'Multipart: `project_id`, then `file` parts (SBM files, glTF/GLB/DAE/FBX models converted ' +
      'to SBM here, a .gltf with its .bin and images, or one ZIP of any of these), or ' +
      '`upload_id` of a finished resumable upload. Every model is validated or converted; any ' +
      'refused file refuses the whole upload. An SBM with floor metadata registers those floors; ' +
      'otherwise a floor named after the file is made, one storey (3 m) above the highest floor. ' +
      'A file name (`<base>.sbm`) already in the project replaces that model.',
    tags: ['upload'],
    body: floorUploadFieldsSchema,
    datum: floorUploadDatumSchema,
    fileFields: ['file'],
  }),
  configModelFileStructureReturnUrl: webRoute({
    method: 'POST',
    path: '/web/upload/configModelFileStructureReturnUrl',
    auth: 'editor',
    summary: 'Shell upload: one model (converted like the floor upload) or a structure .json',
    description:
      'Multipart: `project_id` and one model (`.sbm`, `.glb`, `.gltf` with its files, `.dae`, ' +
      '`.fbx`, or one ZIP), which becomes the shell; or exactly one `.json` `file`, the building ' +
      'structure manifest. The manifest is validated, stored ' +
      "and becomes the project's `shell_json_path`; its shell and floors are linked to the " +
      "project's models by file name (models not uploaded yet are listed in `missingModels`).",
    tags: ['upload'],
    body: structureUploadFieldsSchema,
    datum: structureUploadDatumSchema,
    fileFields: ['file'],
  }),
  uploadandupdatemodel: webRoute({
    method: 'POST',
    path: '/web/upload/uploadandupdatemodel',
    auth: 'editor',
    summary: "Replace a model's SBM file",
    tags: ['upload'],
    body: replaceModelFieldsSchema,
    datum: buildingModelSchema,
    fileFields: ['file'],
  }),
  updateBimModel: webRoute({
    method: 'POST',
    path: '/web/BIMupload/updateBimModel',
    auth: 'editor',
    summary: 'Rename a model, move it to a floor, or change its role',
    body: updateBimModelBodySchema,
    datum: buildingModelSchema,
  }),
  updateFloor: webRoute({
    method: 'POST',
    path: '/web/BIMupload/updateFloor',
    auth: 'editor',
    summary: 'Rename a floor or set its elevation (metres; floors are drawn stacked by it)',
    body: updateFloorBodySchema,
    datum: buildingFloorSchema,
  }),
  deleteBimModel: webRoute({
    method: 'POST',
    path: '/web/BIMupload/deleteBimModel',
    auth: 'editor',
    summary: 'Delete a model (refused once the project is paid)',
    body: buildingModelIdBodySchema,
    datum: nullDatumSchema,
  }),
  findModelInfo: webRoute({
    method: 'POST',
    path: '/web/model/findModelInfo',
    auth: 'public',
    summary: "A project's building structure and models, as the engine loads them",
    description:
      'For the owner (user token) or a project-token holder (`project_token` or the ProjectToken ' +
      'header); project cases for everyone signed in.',
    body: readModelInfoBodySchema,
    datum: modelInfoDatumSchema,
  }),
  createModelByCategory: webRoute({
    method: 'POST',
    path: '/web/model/createModelByCategory',
    auth: 'editor',
    summary: 'Add a converted library model to a project',
    body: createModelByCategoryBodySchema,
    datum: buildingModelSchema,
  }),
  findmodelnum: webRoute({
    method: 'POST',
    path: '/web/findmodelnum',
    auth: 'editor',
    summary: 'How many models a project has',
    tags: ['model'],
    body: buildingProjectBodySchema,
    datum: modelCountDatumSchema,
  }),
  updatemodelinfo: webRoute({
    method: 'POST',
    path: '/web/project/updatemodelinfo',
    auth: 'editor',
    summary: "Save a model's placement (position, rotation, scale) and visibility",
    tags: ['model'],
    body: updateModelInfoBodySchema,
    datum: buildingModelSchema,
  }),
  uploadGltfForSbm: webRoute({
    method: 'POST',
    path: '/web/upload/uploadGltfForSbm',
    auth: 'editor',
    summary: 'Convert a glTF/GLB model to SBM',
    description:
      'Multipart `glbf_arr`: one `.glb`, or one `.gltf` with its `.bin` and image files; ' +
      '`category_zip_uuid`, `option_type` (add) and optional `project_id` (the SBM then joins ' +
      "that project's model library). Conversion runs in a worker thread.",
    tags: ['upload'],
    body: uploadGltfForSbmFieldsSchema,
    datum: conversionDatumSchema,
    fileFields: ['glbf_arr'],
  }),
  convertSbm: webRoute({
    method: 'POST',
    path: '/web/upload/convertSbm',
    auth: 'editor',
    summary: 'Convert one DAE or FBX model to SBM',
    description:
      'Multipart: exactly one `.dae` or `.fbx` `file` and optional `project_id`. A refusal ' +
      "carries the converter's reason (glTF 1.0, missing buffers, unsupported extension, " +
      'UTF-16 DAE…) as the message.',
    tags: ['upload'],
    body: convertSbmFieldsSchema,
    datum: conversionDatumSchema,
    fileFields: ['file'],
  }),
}
