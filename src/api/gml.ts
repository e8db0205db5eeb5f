import type { GmlDisplayModeValue, GmlPath, GmlPlacementDatum } from '../../contract/gml'
import { api } from './index'
import { postWithProgress, uploadResumable } from './resumable-upload'
import { gmlRoutes } from '../../contract/gml'

export type { GmlDisplayModeValue, GmlPath, GmlPlacementDatum } from '../../contract/gml'

/** Files at least this large go through a resumable upload; smaller ones in one multipart post. */
export const resumableGmlThresholdBytes = 16 * 1024 * 1024

/**
 * `POST /web/project/findGmlPath`: the project's GML file (address, counts, placement, display
 * mode), or null when it has none ('There is no GML file.'). A public preview passes its
 * project token.
 */
export async function findGmlPath(
  projectId: string,
  options: { projectToken?: string; signal?: AbortSignal } = {},
): Promise<GmlPath | null> {
  const { datum } = await api.call(
    gmlRoutes.findGmlPath,
    {
      project_id: projectId,
      ...(options.projectToken === undefined ? {} : { project_token: options.projectToken }),
    },
    options.signal ? { signal: options.signal } : {},
  )
  return datum
}

/** What `updateGmlPlacement` saves. */
export interface GmlPlacementUpdate {
  project_id: string
  placement: GmlPlacementDatum
  display_mode: GmlDisplayModeValue
}

/** `POST /web/project/updateGmlPlacement`: saves placement and display mode; the file as saved. */
export async function updateGmlPlacement(update: GmlPlacementUpdate): Promise<GmlPath> {
  // JSON: the offset is a list of numbers, which a flat form would spell awkwardly.
  const { datum } = await api.call(
    gmlRoutes.updateGmlPlacement,
    { ...update },
    {
      encoding: 'json',
    },
  )
  return datum
}

/**
 * `POST /web/upload/uploadGml`: checks and stores the project's IndoorGML file, replacing the
 * previous one; with real byte progress, resumable when the file is large. Rejects with the
 * server's reason when the file is refused (not XML, no navigation network…).
 */
export async function uploadGml(
  projectId: string,
  file: File,
  options: {
    onProgress?: (sentBytes: number, totalBytes: number) => void
    signal?: AbortSignal
  } = {},
): Promise<GmlPath> {
  if (file.size >= resumableGmlThresholdBytes) {
    const { uploadId } = await uploadResumable(file, { purpose: 'gml', ...options })
    const { datum } = await api.call(
      gmlRoutes.uploadGml,
      { project_id: projectId, upload_id: uploadId },
      options.signal ? { signal: options.signal } : {},
    )
    return datum
  }
  const form = new FormData()
  // Fields first: the server reads them before the file.
  form.append('project_id', projectId)
  form.append('file', file, file.name)
  return postWithProgress(
    gmlRoutes.uploadGml,
    form,
    options.onProgress,
    options.signal ? { signal: options.signal } : {},
  )
}
