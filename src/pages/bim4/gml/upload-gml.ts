import type { GmlPath } from '../../../../contract/gml'
import { uploadGml } from '../../../api/gml'
import { trackUploadRow } from '../../../api/resumable-upload'
import { uploadStore } from '../../../ui'
import { nextUploadRowId } from '../upload-rows'

/**
 * Uploads the project's IndoorGML file with a row in the upload window moving with the bytes
 * sent (resumable when large, see `uploadGml`); the server replaces any previous file.
 */
export async function uploadGmlFile(projectId: string, file: File): Promise<GmlPath> {
  const rowId = nextUploadRowId('gml')
  uploadStore.open()
  uploadStore.add({ id: rowId, name: file.name, sizeBytes: file.size })
  const row = trackUploadRow(rowId)
  try {
    const datum = await uploadGml(projectId, file, { onProgress: row.onProgress })
    row.succeed()
    return datum
  } catch (error) {
    row.fail(error)
    throw error
  }
}
