import type { MergeStatusDatum } from '../../contract/model-config'
import { modelConfigRoutes } from '../../contract/model-config'
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
