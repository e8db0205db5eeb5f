import type { FastifyInstance } from 'fastify'
import {
  type ResumableUploadPurpose,
  resumableUploadIdPattern,
} from '../../../contract/resumable-upload'
import { AppError, fieldError } from '../../http/app-error'
import { resumableUploadsOf } from './resumable-uploads'

/** A finished resumable upload, taken by the route that consumes it. */
export interface ClaimedUpload {
  /**
   * The complete file on this machine's disk (with an S3 store, a copy made for this claim and
   * deleted with it); read it (stream it), do not move or change it.
   */
  filePath: string
  /** The name the client gave; for display and for guessing the type only, never a path. */
  fileName: string
  sizeBytes: number
  /** What the client said the upload is for; a route may refuse a purpose it does not take. */
  purpose: ResumableUploadPurpose
  /**
   * Deletes the temporary upload. Call it once the consumer has stored what it needs (or
   * refused the file for good), so the bytes do not wait for the expiry sweep.
   */
  release(): Promise<void>
  /**
   * Gives the upload back untouched (e.g. the database was briefly unavailable), so the client
   * may send the same `upload_id` again. Call `release` or `giveBack` exactly once.
   */
  giveBack(): Promise<void>
}

/**
 * Takes a finished resumable upload for the route that consumes it, e.g. a model or tileset
 * upload given `upload_id` instead of a multipart file:
 *
 * ```ts
 * const claimed = await claimResumableUpload(app, { userId: user.id, uploadId: body.upload_id })
 * try {
 *   const stored = await storage.put(createReadStream(claimed.filePath))
 *   ...
 * } finally {
 *   await claimed.release()
 * }
 * ```
 *
 * Refuses with a `validation` AppError a malformed id or an upload still in progress, and with
 * `notFound` an unknown, expired or another user's upload (the same answer for all three, so ids
 * cannot be probed), or `conflict` one another request is consuming right now.
 */
export async function claimResumableUpload(
  app: FastifyInstance,
  input: {
    userId: string
    uploadId: string
    /**
     * The consumer's refusal of a finished upload by its size (e.g. over its limit), asked
     * before the file is fetched from a bucket: the upload is then deleted and this thrown.
     */
    refuseSize?(sizeBytes: number): AppError | undefined
  },
): Promise<ClaimedUpload> {
  const { userId, uploadId } = input
  if (!resumableUploadIdPattern.test(uploadId)) {
    throw fieldError('validation', 'upload_id', 'upload.notResumableId')
  }
  const uploads = resumableUploadsOf(app)
  if (!(await uploads.lock(uploadId))) {
    throw new AppError('conflict', 'upload.busy')
  }
  let isHeld = true
  const unlock = async () => {
    if (isHeld) {
      isHeld = false
      await uploads.unlock(uploadId)
    }
  }
  try {
    const info = await uploads.describeUpload(uploadId)
    if (info === undefined || info.ownerId !== userId || uploads.isExpired(info)) {
      throw new AppError('notFound', 'upload.gone')
    }
    if (info.sizeBytes === undefined || info.offsetBytes < info.sizeBytes) {
      throw info.sizeBytes === undefined
        ? new AppError('validation', 'upload.unfinishedUnknownSize', { received: info.offsetBytes })
        : new AppError('validation', 'upload.unfinished', {
            received: info.offsetBytes,
            total: info.sizeBytes,
          })
    }
    const refusal = input.refuseSize?.(info.sizeBytes)
    if (refusal !== undefined) {
      await uploads.remove(uploadId)
      throw refusal
    }
    // in a bucket, a copy on this machine: its consumers read the file as a file
    const local = await uploads.localFile(uploadId)
    return {
      filePath: local.path,
      fileName: info.fileName,
      sizeBytes: info.sizeBytes,
      purpose: info.purpose,
      async release() {
        try {
          await local.dispose()
          await uploads.remove(uploadId)
        } finally {
          await unlock()
        }
      },
      async giveBack() {
        try {
          await local.dispose()
        } finally {
          await unlock()
        }
      },
    }
  } catch (error) {
    await unlock()
    throw error
  }
}
