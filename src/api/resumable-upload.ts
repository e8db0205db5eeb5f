import type { ResumableUploadPurpose } from '../../contract/resumable-upload'
import { reasonText } from '../components/feedback/error-text'
import { startFakeRowProgress } from '../ui/upload/fake-progress'
import { uploadStore } from '../ui/upload/upload-store'
import { createUploadTransport, type ResumableUploadOptions } from './resumable-transport'
import { sessionLink } from './session-link'

export {
  createUploadTransport,
  defaultChunkSizeBytes,
  type ResumableUploadOptions,
  type UploadTransport,
} from './resumable-transport'

/** The app's upload transport: the session's token, and '2011' reported like every other call. */
const transport = createUploadTransport({
  getToken: sessionLink.token,
  onSessionTimeout: sessionLink.reportSessionTimeout,
})

/**
 * Sends a (large) file as a resumable tus upload with real byte progress, resuming after a
 * dropped connection or a page reload; resolves with the `upload_id` to hand to the route that
 * consumes it (e.g. `uploadGml`, the model and tileset uploads).
 */
export const uploadResumable = transport.uploadResumable

/**
 * Posts a multipart form to a `/web` route (`'/upload/uploadGml'`) with upload progress from
 * XMLHttpRequest, resolving with the answer's datum; for files too small to need resuming.
 */
export const postWithProgress = transport.postWithProgress

/** What drives one row of the upload window from a transport's callbacks. */
export interface UploadRowTracker {
  /** Real progress: the percent and the bytes sent; ends the fallback ticks for good. */
  onProgress(sentBytes: number, totalBytes: number): void
  succeed(): void
  fail(error: unknown): void
}

/** Without a progress report this long, the row falls back to SPEC §4's 10→90 % ticks. */
export const fakeProgressFallbackMs = 1_000

/**
 * Marks a row of the upload window as uploading and moves it with the bytes really sent. Only
 * when the transport reports no progress at all (a browser without upload events) does it fall
 * back to the fake ticks, which the first real report replaces.
 */
export function trackUploadRow(rowId: string): UploadRowTracker {
  uploadStore.update(rowId, { status: 'uploading', progressPercent: 0 })
  let stopFake: (() => void) | undefined
  let hasRealProgress = false
  const fallback = setTimeout(() => {
    if (!hasRealProgress) stopFake = startFakeRowProgress(rowId)
  }, fakeProgressFallbackMs)
  const stop = () => {
    clearTimeout(fallback)
    stopFake?.()
    stopFake = undefined
  }
  return {
    onProgress(sentBytes, totalBytes) {
      if (!hasRealProgress) {
        hasRealProgress = true
        stop()
      }
      uploadStore.update(rowId, {
        progressPercent: totalBytes > 0 ? (sentBytes / totalBytes) * 100 : 0,
        sentBytes,
      })
    },
    succeed() {
      stop()
      uploadStore.update(rowId, { status: 'success' })
    },
    fail(error) {
      stop()
      uploadStore.update(rowId, { status: 'failure', errorMessage: () => reasonText(error) })
    },
  }
}

let rowCounter = 0

/**
 * Uploads one file resumably with its own row in the upload window (opened if closed), then
 * hands the upload id to `consume` (the route that takes the file). The row turns to success
 * only once `consume` has succeeded, so a refusal by the server shows as a failed row.
 *
 * ```ts
 * const gml = await uploadFileWithWindow(file, {
 *   purpose: 'gml',
 *   consume: (uploadId) => uploadGmlById(projectId, uploadId),
 * })
 * ```
 */
export async function uploadFileWithWindow<Result>(
  file: File,
  options: Omit<ResumableUploadOptions, 'onProgress' | 'fileName'> & {
    purpose: ResumableUploadPurpose
    consume: (uploadId: string) => Promise<Result>
  },
): Promise<Result> {
  rowCounter += 1
  const rowId = `resumable-${rowCounter}`
  uploadStore.open()
  uploadStore.add({ id: rowId, name: file.name, sizeBytes: file.size })
  const row = trackUploadRow(rowId)
  try {
    const { uploadId } = await uploadResumable(file, {
      purpose: options.purpose,
      onProgress: row.onProgress,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    const result = await options.consume(uploadId)
    row.succeed()
    return result
  } catch (error) {
    row.fail(error)
    throw error
  }
}
