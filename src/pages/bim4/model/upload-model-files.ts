import {
  type FloorUploadDatum,
  replaceModelFile,
  type StructureUploadDatum,
  uploadFloorModels,
  uploadStructureManifest,
} from '../../../api/building'
import type { LiveText } from '../../../ui'
import { uploadWithWindow } from '../upload-with-window'
import { uploadErrorText } from './upload-messages'
import { buildingRoutes } from '../../../../contract/building'

/**
 * The model library's three uploads, each through the upload window with real progress: the
 * shell (structure .json), the floors (SBMs or one ZIP) and the replacement of one model.
 */

/** What the rows say while the server converts a model. */
export interface UploadLabels {
  /** Shown on the rows once the bytes are in and the server converts (null: nothing to convert). */
  convertingLabel: LiveText | null
}

/** The shell: one model or a building structure `.json` (`/upload/configModelFileStructureReturnUrl`). */
export async function uploadShell(
  projectId: string,
  files: readonly File[],
  labels: UploadLabels,
): Promise<StructureUploadDatum[]> {
  return uploadWithWindow({
    ...windowOptions(labels),
    files,
    route: buildingRoutes.configModelFileStructureReturnUrl,
    fields: { project_id: projectId },
    fileField: 'file',
    purpose: 'model',
    sendUploadId: (uploadId) => uploadStructureManifest(projectId, { uploadId }),
  })
}

/** The floors: model files (converted when not SBM) or one `.zip` of them (`/upload/uploadZip`). */
export async function uploadFloors(
  projectId: string,
  files: readonly File[],
  labels: UploadLabels,
): Promise<FloorUploadDatum[]> {
  return uploadWithWindow({
    ...windowOptions(labels),
    // a .gltf needs its .bin and images in the same request
    isOneRequest: files.some((file) => file.name.toLowerCase().endsWith('.gltf')),
    files,
    route: buildingRoutes.uploadZip,
    fields: { project_id: projectId },
    fileField: 'file',
    purpose: 'model',
    sendUploadId: (uploadId) => uploadFloorModels(projectId, { uploadId }),
  })
}

function windowOptions(labels: UploadLabels) {
  return {
    ...(labels.convertingLabel ? { processingLabel: labels.convertingLabel } : {}),
    describeError: uploadErrorText,
  }
}

/** A new SBM for one library item (`/upload/uploadandupdatemodel`). */
export async function uploadReplacement(modelId: string, files: readonly File[]): Promise<void> {
  await uploadWithWindow({
    files,
    route: buildingRoutes.uploadandupdatemodel,
    fields: { id: modelId },
    fileField: 'file',
    purpose: 'model',
    sendUploadId: (uploadId) => replaceModelFile(modelId, { uploadId }),
  })
}
