import { z } from 'zod'
import { webRoute } from './route'

/**
 * The shared image upload `POST /web/upload/uploadJpg` (SPEC §5, §7) and how uploaded files are
 * served. Multipart: field `file` (jpeg/jpg/png by content, ≤ 2 MB); optional field `thumbnail`
 * (a smaller jpeg/png the browser made for lists, ≤ 256 KB).
 */

/** SPEC §9 "Image upload limit". */
export const imageUploadMaxBytes = 2 * 1024 * 1024
/** Largest accepted list thumbnail. */
export const thumbnailUploadMaxBytes = 256 * 1024
/** The edge the browser scales a list thumbnail to (longest side, pixels). */
export const thumbnailEdgePixels = 320
/** SPEC §9 "Recommended cover size". */
export const recommendedCoverPixels = { width: 2048, height: 2048 } as const

/** Where uploaded files are served: `GET {uploadedFilesRoot}{jpgName}`. */
export const uploadedFilesRoot = '/web/files/'
/** Where list thumbnails are served: `GET {uploadedThumbnailsRoot}{jpgName}` (the image if none). */
export const uploadedThumbnailsRoot = '/web/files/thumbs/'

/** `POST /web/upload/uploadJpg` answer (SPEC §7 "The jpg upload returns rootPath, jpgName, uuid"). */
export const uploadJpgDatumSchema = z.object({
  /** The folder address the image is served from, ending in '/'. */
  rootPath: z.string(),
  /** The served file name: `<uuid>.jpg` or `<uuid>.png`. */
  jpgName: z.string(),
  /** The upload's id: what a project's `prewiewpath_uuid` refers to. */
  uuid: z.string(),
  sizeBytes: z.number().int(),
  contentType: z.enum(['image/jpeg', 'image/png']),
  /** The list thumbnail's address (the image's own when no thumbnail was sent). */
  thumbnailPath: z.string(),
})
export type UploadJpgDatum = z.infer<typeof uploadJpgDatumSchema>

/** Optional text fields of the upload: what the image is for, so unused uploads can go. */
export const uploadJpgFieldsSchema = z.object({
  project_id: z.string().min(1).max(64).optional(),
  /**
   * 'project-cover' for the project form: such an upload that no project uses is deleted after
   * a grace period. Anything else is kept until released.
   */
  purpose: z.enum(['image', 'project-cover']).default('image'),
})

/** Upload purposes (see {@link uploadJpgFieldsSchema}). */
export type UploadPurpose = z.output<typeof uploadJpgFieldsSchema>['purpose']

const uploadJpgDescription =
  'Multipart: `file` (checked by content, not by name, before anything is stored), optional ' +
  '`thumbnail` (a JPEG ≤ 256 KB the browser made for lists) and `project_id` (the project ' +
  'the image is for: if it is deleted before the upload is recorded, nothing is kept).'

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const fileRoutes = {
  uploadJpg: webRoute({
    method: 'POST',
    path: '/web/upload/uploadJpg',
    auth: 'editor',
    summary: 'Upload a JPEG or PNG image (≤ 2 MB), e.g. a project cover',
    description: uploadJpgDescription,
    tags: ['upload'],
    body: uploadJpgFieldsSchema,
    datum: uploadJpgDatumSchema,
    fileFields: ['file', 'thumbnail'],
  }),
}
