import type {
  MergeStatusDatum,
  StructureAddPlan,
  StructureAddStatusDatum,
} from '../../contract/model-config'
import { modelConfigRoutes, structureAddRoutes } from '../../contract/model-config'
import { api } from './index'
import { postWithProgress } from './resumable-upload'

/** Typed calls of the model configuration tools (contract/model-config.ts). */

export type { MergeStatusDatum, MergeStep } from '../../contract/model-config'

/**
 * `POST /web/modelConfig/merge`: sends the merge's files with real upload progress and resolves
 * with the status of the job it started (the steps, all waiting).
 */
export function startMerge(
  form: FormData,
  onProgress: (sentBytes: number, totalBytes: number) => void,
  signal?: AbortSignal,
): Promise<MergeStatusDatum> {
  return postWithProgress(modelConfigRoutes.merge, form, onProgress, signal ? { signal } : {})
}

/** `POST /web/modelConfig/mergeStatus`: a merge's steps, progress and result. */
export async function findMergeStatus(id: string, signal?: AbortSignal): Promise<MergeStatusDatum> {
  const { datum } = await api.call(modelConfigRoutes.mergeStatus, { id }, signal ? { signal } : {})
  return datum
}

export type {
  StructureAddPlan,
  StructureAddStatusDatum,
  StructureChange,
} from '../../contract/model-config'

/**
 * `POST /web/modelConfig/addPreview`: the structure the chosen files (by name) would leave in
 * the project, before anything is uploaded or saved.
 */
export async function previewStructureAdd(
  input: {
    project_id: string
    shell_name: string
    floor_names: string[]
    storey_height?: number | undefined
  },
  signal?: AbortSignal,
): Promise<StructureAddPlan> {
  // JSON: the floor names are a list, empty or of one name alike
  const { datum } = await api.call(structureAddRoutes.addPreview, input, {
    encoding: 'json',
    ...(signal ? { signal } : {}),
  })
  return datum
}

/** `POST /web/modelConfig/add`: sends the files with real upload progress; starts the job. */
export function startStructureAdd(
  form: FormData,
  onProgress: (sentBytes: number, totalBytes: number) => void,
  signal?: AbortSignal,
): Promise<StructureAddStatusDatum> {
  return postWithProgress(structureAddRoutes.add, form, onProgress, signal ? { signal } : {})
}

/** `POST /web/modelConfig/addStatus`: an add's steps, progress and the structure it left. */
export async function findStructureAddStatus(
  id: string,
  signal?: AbortSignal,
): Promise<StructureAddStatusDatum> {
  const { datum } = await api.call(structureAddRoutes.addStatus, { id }, signal ? { signal } : {})
  return datum
}
