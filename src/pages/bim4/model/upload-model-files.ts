import {
  type FloorUploadDatum,
  replaceModelFile,
  type StructureUploadDatum,
  uploadFloorModels,
  uploadStructureManifest,
} from '../../../api/building'
import { uploadWithWindow } from '../upload-with-window'

/**
 * The model library's three uploads, each through the upload window with real progress: the
 * shell (structure .json), the floors (SBMs or one ZIP) and the replacement of one model.
 */

/** The shell: one building structure `.json` (`/upload/configModelFileStructureReturnUrl`). */
export async function uploadShell(
  projectId: string,
  files: readonly File[],
): Promise<StructureUploadDatum[]> {
  return uploadWithWindow({
    files,
    path: '/upload/configModelFileStructureReturnUrl',
    fields: { project_id: projectId },
    fileField: 'file',
    purpose: 'model',
    sendUploadId: (uploadId) => uploadStructureManifest(projectId, { uploadId }),
  })
}

/** The floors: many `.sbm` files or one `.zip` of them (`/upload/uploadZip`). */
export async function uploadFloors(
  projectId: string,
  files: readonly File[],
): Promise<FloorUploadDatum[]> {
  return uploadWithWindow({
    files,
    path: '/upload/uploadZip',
    fields: { project_id: projectId },
    fileField: 'file',
    purpose: 'model',
    sendUploadId: (uploadId) => uploadFloorModels(projectId, { uploadId }),
  })
}

/** A new SBM for one library item (`/upload/uploadandupdatemodel`). */
export async function uploadReplacement(modelId: string, files: readonly File[]): Promise<void> {
  await uploadWithWindow({
    files,
    path: '/upload/uploadandupdatemodel',
    fields: { id: modelId },
    fileField: 'file',
    purpose: 'model',
    sendUploadId: (uploadId) => replaceModelFile(modelId, { uploadId }),
  })
}
