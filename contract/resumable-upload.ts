import { z } from 'zod'
import { zodMessage } from './messages'

/**
 * Resumable uploads (tus 1.0, https://tus.io/protocols/resumable-upload) for large files: models,
 * tilesets, basemaps, GML. The browser sends the file in chunks to {@link resumableUploadPath};
 * once the upload is complete it passes the upload's id as the field `upload_id` to the route
 * that consumes the file (e.g. `/web/upload/uploadGml`), instead of a multipart file.
 *
 * Protocol notes for clients: every request carries the `Token` header (an editor's session) and
 * `Tus-Resumable: 1.0.0`; creation sends `Upload-Length` and `Upload-Metadata` with `filename`
 * and `purpose` (base64 values, as tus says). Uploads are private to the user who created them:
 * another user's upload id answers 404. Unfinished uploads expire (see `Upload-Expires`).
 */

/** Where tus requests go: `POST` creates, `HEAD/PATCH/DELETE {path}/{uploadId}` resume. */
export const resumableUploadPath = '/web/upload/resumable'

/** What a resumable upload is for; the consuming route decides whether it accepts it. */
export const resumableUploadPurposes = ['model', 'tileset', 'basemap', 'gml', 'other'] as const
export type ResumableUploadPurpose = (typeof resumableUploadPurposes)[number]

/** Upload ids are 32 lower-case hex digits (128 random bits), made by the server. */
export const resumableUploadIdPattern = /^[0-9a-f]{32}$/

/** The `upload_id` field routes accept instead of a multipart file. */
export const resumableUploadIdSchema = z
  .string()
  .regex(resumableUploadIdPattern, zodMessage('input.resumableUploadId'))

/** Longest file name kept from the metadata (longer names are refused at creation). */
export const resumableFileNameMaxLength = 255

/** Default largest resumable upload (RESUMABLE_UPLOAD_LIMIT_MB, 20 GB). */
export const defaultResumableUploadLimitMegabytes = 20_480

/** The upload id at the end of a tus `Location` URL (absolute or relative), if it has one. */
export function uploadIdOfLocation(location: string): string | undefined {
  const last = location.split('?')[0]?.split('/').pop() ?? ''
  return resumableUploadIdPattern.test(last) ? last : undefined
}
