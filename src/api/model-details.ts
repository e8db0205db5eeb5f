import type { z } from 'zod'
import {
  type addModelDetailBodySchema,
  type ModelDetail,
  modelDetailRoutes,
} from '../../contract/model-config'
import { api } from './index'

/** Typed calls of a model's details (contract/model-config.ts, SPEC §7 "Models"). */

export type { ModelDetail, ModelDocument } from '../../contract/model-config'
export { modelDocumentExtensions } from '../../contract/model-config'

/** What the details form saves: manufacturer, product, serial, install date, description. */
export type ModelDetailFields = Omit<z.input<typeof addModelDetailBodySchema>, 'model_id'>

/** `findModelInfoOne`: a model's details, or null while it has none. */
export async function findModelDetail(modelId: string): Promise<ModelDetail | null> {
  return (await api.call(modelDetailRoutes.findModelInfoOne, { model_id: modelId })).datum
}

/** `addModelDetail`, or `updateModelDetail` when the model has details (`detailId`). */
export async function saveModelDetail(
  modelId: string,
  detailId: string | null,
  fields: ModelDetailFields,
): Promise<ModelDetail> {
  const answer = detailId
    ? await api.call(modelDetailRoutes.updateModelDetail, { id: detailId, ...fields })
    : await api.call(modelDetailRoutes.addModelDetail, { model_id: modelId, ...fields })
  return answer.datum
}

/** `deleteModelDetail`. */
export async function deleteModelDetail(detailId: string): Promise<void> {
  await api.call(modelDetailRoutes.deleteModelDetail, { id: detailId })
}

/** `findCompanyAndModel`: a building project's models with details, by manufacturer. */
export async function findModelsByCompany(
  projectId: string,
): Promise<Array<{ company: string; models: ModelDetail[] }>> {
  return (await api.call(modelDetailRoutes.findCompanyAndModel, { project_id: projectId })).datum
}

/**
 * `modelDetail/uploadDocument`: attaches files (PDF, images, office files) to a model's details,
 * all or none; answers the details with every document.
 */
export async function uploadModelDocuments(
  detailId: string,
  files: readonly File[],
): Promise<ModelDetail> {
  const form = new FormData()
  form.append('detail_id', detailId)
  // the files go last: the server reads the fields before it streams the files
  for (const file of files) form.append('file', file, file.name)
  return (await api.upload(modelDetailRoutes.uploadModelDocument, form)).datum
}

/** `modelDetail/deleteDocument`: answers the details with the remaining documents. */
export async function deleteModelDocument(documentId: string): Promise<ModelDetail> {
  return (await api.call(modelDetailRoutes.deleteModelDocument, { id: documentId })).datum
}
