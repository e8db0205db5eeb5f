import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { formNumber } from './form-fields'
import { webRoute } from './route'

/**
 * Materials (issue 21 item 4, SPEC §7 `/materialManager/addBuilding|addMaterial|delMaterial|
 * findMaterial`, `/upload/uploadFile?type=4`): a user's library of PBR materials (base colour,
 * metalness, roughness, emissive, and normal, base colour, emissive and metal-rough maps), and
 * their assignment to meshes of a building project's models, picked in the scene. An
 * assignment is an override the engine draws over the mesh: the SBM stays untouched.
 */

/** `#rrggbb`. */
const hexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/)
/** A texture map: a served upload name from `uploadFile?type=4` (`<uuid>.png|jpg`), or ''. */
export const materialMapNamePattern =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|jpg)$/
const mapNameSchema = z.union([z.literal(''), z.string().regex(materialMapNamePattern)])

/** The map fields of a material, in the order the form shows them. */
export const materialMapFields = [
  'base_color_map',
  'normal_map',
  'emissive_map',
  'metal_rough_map',
] as const
export type MaterialMapField = (typeof materialMapFields)[number]

/** One material of the caller's library. */
export const materialSchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  base_color: z.string(),
  metalness: z.number(),
  roughness: z.number(),
  emissive: z.string(),
  base_color_map: z.string(),
  normal_map: z.string(),
  emissive_map: z.string(),
  metal_rough_map: z.string(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type MaterialDatum = z.infer<typeof materialSchema>

/** One mesh drawn with a material. */
export const materialAssignmentSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  model_id: recordIdSchema,
  mesh_name: z.string(),
  material_id: recordIdSchema,
})
export type MaterialAssignment = z.infer<typeof materialAssignmentSchema>

/** `addMaterial`: a new material; with `id`, that material of the caller is changed instead. */
export const addMaterialBodySchema = z.object({
  id: recordIdSchema.optional(),
  name: z.string().trim().min(1).max(60),
  base_color: hexColorSchema.default('#ffffff'),
  metalness: formNumber(z.number().min(0).max(1)).default(0),
  roughness: formNumber(z.number().min(0).max(1)).default(1),
  emissive: hexColorSchema.default('#000000'),
  base_color_map: mapNameSchema.default(''),
  normal_map: mapNameSchema.default(''),
  emissive_map: mapNameSchema.default(''),
  metal_rough_map: mapNameSchema.default(''),
})

/** `delMaterial`: a material of the caller; its assignments go with it. */
export const delMaterialBodySchema = z.object({ id: recordIdSchema })

/** `findMaterial`: the caller's library and, with a project, that project's assignments. */
export const findMaterialBodySchema = z.object({ project_id: recordIdSchema.optional() })
export const findMaterialDatumSchema = z.object({
  materials: z.array(materialSchema),
  assignments: z.array(materialAssignmentSchema),
})
export type FindMaterialDatum = z.infer<typeof findMaterialDatumSchema>

/**
 * `addBuilding`: draws a material on one mesh of a building project's model (the mesh name a
 * pick reports); `material_id` '' removes the mesh's material. Answers the project's
 * assignments.
 */
export const addBuildingMaterialBodySchema = z.object({
  project_id: recordIdSchema,
  model_id: recordIdSchema,
  mesh_name: z.string().min(1).max(200),
  material_id: z.union([z.literal(''), recordIdSchema]),
})

/** Largest texture file (bytes); its pixels are bounded by the texture budget (8192 × 8192). */
export const materialTextureMaxBytes = 8 * 1024 * 1024

/** `uploadFile?type=4` query: 4 is a material texture (the only type this call takes). */
export const uploadFileQuerySchema = z.object({ type: z.literal('4') })

/** `uploadFile?type=4` answer: where the texture is served and its name for a material's map. */
export const uploadFileDatumSchema = z.object({
  rootPath: z.string(),
  /** `<uuid>.png|jpg`: what a material's map field takes. */
  fileName: z.string(),
  uuid: z.string(),
  widthPixels: z.number().int(),
  heightPixels: z.number().int(),
})
export type UploadFileDatum = z.infer<typeof uploadFileDatumSchema>

/** The /web/ routes of the materials. */
export const materialRoutes = {
  addMaterial: webRoute({
    method: 'POST',
    path: '/web/materialManager/addMaterial',
    auth: 'editor',
    summary: 'Add a PBR material to your library (or change one, with id)',
    tags: ['materialManager'],
    body: addMaterialBodySchema,
    datum: materialSchema,
  }),
  delMaterial: webRoute({
    method: 'POST',
    path: '/web/materialManager/delMaterial',
    auth: 'editor',
    summary: 'Delete a material of your library and every mesh assignment of it',
    tags: ['materialManager'],
    body: delMaterialBodySchema,
    datum: z.null(),
  }),
  findMaterial: webRoute({
    method: 'POST',
    path: '/web/materialManager/findMaterial',
    auth: 'editor',
    summary: "Your material library, and a building project's mesh assignments",
    tags: ['materialManager'],
    body: findMaterialBodySchema,
    datum: findMaterialDatumSchema,
  }),
  addBuilding: webRoute({
    method: 'POST',
    path: '/web/materialManager/addBuilding',
    auth: 'editor',
    summary: 'Draw a material on a mesh of a building model (an override; the model is untouched)',
    tags: ['materialManager'],
    body: addBuildingMaterialBodySchema,
    datum: z.array(materialAssignmentSchema),
  }),
  uploadFile: webRoute({
    method: 'POST',
    path: '/web/upload/uploadFile',
    auth: 'editor',
    summary: 'Upload a material texture (type=4): PNG or JPEG by content, ≤ 8192 × 8192 pixels',
    description:
      'Multipart field `file`, at most 8 MiB; checked by content and declared size before it ' +
      'is stored. Answers the name a material map field takes.',
    tags: ['materialManager'],
    query: uploadFileQuerySchema,
    datum: uploadFileDatumSchema,
    fileFields: ['file'],
  }),
}
