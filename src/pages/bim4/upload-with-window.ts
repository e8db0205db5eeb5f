import type { z } from 'zod'
import type { ResumableUploadPurpose } from '../../../contract/resumable-upload'
import type { RouteDescriptor } from '../../../contract/route'
import { postWithProgress, trackUploadRow, uploadResumable } from '../../api/resumable-upload'
import { type LiveText, uploadStore } from '../../ui'
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
  /** The multipart route of the route table, e.g. `buildingRoutes.uploadZip`. */
  route: RouteDescriptor<z.ZodType<Datum>>
  /** Text fields sent before the files (the server reads them first). */
  fields: Readonly<Record<string, string>>
  /** The multipart name of each file part. */
  fileField: string
  purpose: ResumableUploadPurpose
  /** Hands a finished resumable upload to the same route (`upload_id` instead of a file). */
  sendUploadId: (uploadId: string, file: File) => Promise<Datum>
  /**
   * What the server does once the bytes are in (e.g. "converting"), shown on the rows until it
   * answers; without it the rows stay at 100 %.
   */
  processingLabel?: LiveText
  /** The row's failure text in the user's language (default: the error's own message). */
  describeError?: (error: unknown) => string
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
    return { id, file, tracker: trackUploadRow(id) }
  })
  const fail = (failed: typeof rows, error: unknown) => {
    for (const row of failed) {
      row.tracker.fail(error)
      if (plan.describeError) {
        const describeError = plan.describeError
        // rendered when drawn, from the answer's message id and parameters: see LiveText
        uploadStore.update(row.id, { errorMessage: () => describeError(error) })
      }
    }
  }
  const process = (row: (typeof rows)[number]) => {
    if (plan.processingLabel) {
      uploadStore.update(row.id, { status: 'processing', processingLabel: plan.processingLabel })
    }
  }

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
        process(row)
        answers.push(await plan.sendUploadId(uploadId, row.file))
        row.tracker.succeed()
      } catch (error) {
        fail(rows.slice(index), error)
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
    const answer = await postWithProgress(plan.route, form, (sentBytes, totalBytes) => {
      const percents = filePercentsOf(sizes, sentBytes, totalBytes)
      rows.forEach((row, index) => {
        const sizeBytes = row.file.size
        row.tracker.onProgress(((percents[index] ?? 0) / 100) * sizeBytes, sizeBytes)
      })
      // every byte is in: the server is converting now, which the rows say instead of 100 %
      if (totalBytes > 0 && sentBytes >= totalBytes) for (const row of rows) process(row)
    })
    for (const row of rows) row.tracker.succeed()
    return [answer]
  } catch (error) {
    fail(rows, error)
    throw error
  }
}
