import type { ResumableUploadPurpose } from '../../../contract/resumable-upload'
import { postWithProgress, trackUploadRow, uploadResumable } from '../../api/resumable-upload'
import { uploadStore } from '../../ui'
import { filePercentsOf, nextUploadRowId } from './upload-rows'

/**
 * Files at least this big go through a resumable (tus) upload, one by one, so a dropped
 * connection or a reload costs only the chunk in flight; smaller ones share one multipart
 * request, which is faster than a tus round trip per file.
 */
export const resumableThresholdBytes = 32 * 1024 * 1024

/** How one kind of upload reaches the server. */
export interface UploadPlan<Datum> {
  files: readonly File[]
  /** The multipart route under /web, e.g. `/upload/uploadZip`. */
  path: string
  /** Text fields sent before the files (the server reads them first). */
  fields: Readonly<Record<string, string>>
  /** The multipart name of each file part. */
  fileField: string
  purpose: ResumableUploadPurpose
  /** Hands a finished resumable upload to the same route (`upload_id` instead of a file). */
  sendUploadId: (uploadId: string, file: File) => Promise<Datum>
  /**
   * The files only make sense together (a .gltf with its .bin and images), so they always go in
   * one multipart request, however big.
   */
  isOneRequest?: boolean
}

/**
 * Uploads files with one row each in the upload window (SPEC §2, §4), moving with the bytes
 * really sent (decisions.md "Upload progress is real"), then success or failure. Resolves with
 * the route's answers (one per request); rejects with the first failure, whose rows show it.
 */
export async function uploadWithWindow<Datum>(plan: UploadPlan<Datum>): Promise<Datum[]> {
  uploadStore.open()
  const rows = plan.files.map((file) => {
    const id = nextUploadRowId('bim4')
    uploadStore.add({ id, name: file.name, sizeBytes: file.size })
    return { file, tracker: trackUploadRow(id) }
  })

  const isResumable =
    !plan.isOneRequest && plan.files.some((file) => file.size >= resumableThresholdBytes)
  if (isResumable) {
    const answers: Datum[] = []
    for (const [index, row] of rows.entries()) {
      try {
        const { uploadId } = await uploadResumable(row.file, {
          purpose: plan.purpose,
          onProgress: row.tracker.onProgress,
        })
        answers.push(await plan.sendUploadId(uploadId, row.file))
        row.tracker.succeed()
      } catch (error) {
        for (const failed of rows.slice(index)) failed.tracker.fail(error)
        throw error
      }
    }
    return answers
  }

  const form = new FormData()
  for (const [name, value] of Object.entries(plan.fields)) form.append(name, value)
  for (const file of plan.files) form.append(plan.fileField, file, file.name)
  const sizes = plan.files.map((file) => file.size)
  try {
    const answer = await postWithProgress<Datum>(plan.path, form, (sentBytes, totalBytes) => {
      const percents = filePercentsOf(sizes, sentBytes, totalBytes)
      rows.forEach((row, index) => {
        const sizeBytes = row.file.size
        row.tracker.onProgress(((percents[index] ?? 0) / 100) * sizeBytes, sizeBytes)
      })
    })
    for (const row of rows) row.tracker.succeed()
    return [answer]
  } catch (error) {
    for (const row of rows) row.tracker.fail(error)
    throw error
  }
}
