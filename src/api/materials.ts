import type { z } from 'zod'
import {
  type addMaterialBodySchema,
  type FindMaterialDatum,
  type MaterialAssignment,
  type MaterialDatum,
  materialRoutes,
  type UploadFileDatum,
} from '../../contract/materials'
import { api } from './index'

/** Typed calls of the material library (contract/materials.ts, SPEC §7 `/materialManager/*`). */

export type { FindMaterialDatum, MaterialAssignment, MaterialDatum, UploadFileDatum }

/** `findMaterial`: the caller's library and the project's mesh assignments. */
export async function findMaterials(projectId: string): Promise<FindMaterialDatum> {
  return (await api.call(materialRoutes.findMaterial, { project_id: projectId })).datum
}

/** `addMaterial`: a new material, or a change of one (with `id`). */
export async function saveMaterial(
  input: z.input<typeof addMaterialBodySchema>,
): Promise<MaterialDatum> {
  return (await api.call(materialRoutes.addMaterial, input)).datum
}

/** `delMaterial`: the material and its assignments. */
export async function deleteMaterial(id: string): Promise<void> {
  await api.call(materialRoutes.delMaterial, { id })
}

/** `addBuilding`: draws a material on a mesh ('' removes); answers the project's assignments. */
export async function assignMaterial(input: {
  project_id: string
  model_id: string
  mesh_name: string
  material_id: string
}): Promise<MaterialAssignment[]> {
  return (await api.call(materialRoutes.addBuilding, input)).datum
}

/** `uploadFile?type=4`: a texture for a material map. */
export async function uploadTexture(file: File): Promise<UploadFileDatum> {
  const form = new FormData()
  form.append('file', file)
  // the call's one query value travels in the path: api.upload sends the form as the body
  const route = { ...materialRoutes.uploadFile, path: '/web/upload/uploadFile?type=4' as const }
  return (await api.upload(route, form)).datum
}

/** Where a texture (a material map's value) is served. */
export function texturePath(fileName: string): string {
  return `/web/files/${fileName}`
}
