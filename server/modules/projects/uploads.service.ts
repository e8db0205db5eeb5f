import type { ProjectAccess } from '../access/project-access'
import { randomUUID } from 'node:crypto'
import { fileTypeFromBuffer } from 'file-type'
import {
  imageUploadMaxBytes,
  thumbnailUploadMaxBytes,
  type UploadJpgDatum,
  type UploadPurpose,
  uploadedFilesRoot,
  uploadedThumbnailsRoot,
} from '../../../contract/files'
import { AppError, fieldDetail, fieldError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { FileStorage, ServedStoredFile } from '../../plugins/storage'
import { type Clock, timestampOf } from '../time/clock'
import {
  type PixelBudget,
  pixelBudgetProblem,
  readImageHeader,
  uploadedImageBudget,
} from '../images/image-header'
import { createUploadsRepository, type UploadedFileRow } from './uploads.repository'
import type { AuthUser } from '../accounts/users.service'

/** An image of a multipart request, read into memory (≤ 2 MB) so it is checked before storing. */
export interface IncomingImage {
  fileName: string
  bytes: Uint8Array
}

/** Uploaded images: checking, recording, serving and cleaning up (SPEC §5 "Images"). */
export interface UploadsService {
  /**
   * Accepts an image upload (`/upload/uploadJpg`): JPEG or PNG by content, ≤ 2 MB, with an
   * optional JPEG thumbnail ≤ 256 KB. Content is checked before anything is stored. With
   * `projectId`, the project must be the caller's and still exist when the upload is recorded,
   * so a project deleted meanwhile leaves nothing behind.
   */
  acceptImage(input: {
    user: AuthUser
    image: IncomingImage | undefined
    thumbnail?: IncomingImage | undefined
    projectId?: string | undefined
    purpose?: UploadPurpose
    /** Other limits than SPEC §5's 2 MB and the upload pixel budget (material textures). */
    limits?: { maxBytes: number; pixelBudget: PixelBudget }
  }): Promise<UploadJpgDatum>
  /** Opens `<uuid>.<ext>` for `GET /web/files/…`; `notFound` for anything else. */
  openServed(fileName: string, variant: 'image' | 'thumbnail'): Promise<ServedStoredFile>
  /** The upload, if it exists. */
  find(fileId: string): Promise<UploadedFileRow | undefined>
  /**
   * Deletes the given uploads that nothing references any more, then the bytes no upload
   * uses. Call after the transaction that dropped the references has committed.
   */
  release(fileIds: readonly string[]): Promise<void>
  /** Removes unreferenced project-cover uploads older than the grace period; how many. */
  collectAbandoned(): Promise<number>
}

/** An unattached upload is kept this long for the form that made it to save. */
export const abandonedUploadGraceMs = 6 * 3_600_000

const acceptedImageTypes = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
])

const servedNamePattern =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(jpg|png)$/

/**
 * Refuses an image whose header cannot be read or declares a size outside
 * {@link uploadedImageBudget}, before it is stored: every viewer's browser decodes what is served.
 */
function checkPixels(
  bytes: Uint8Array,
  field: 'file' | 'thumbnail',
  budget: PixelBudget = uploadedImageBudget,
): void {
  const header = readImageHeader(bytes)
  if (!header) {
    throw new AppError(
      'unsupportedFile',
      'image.unreadableSize',
      { field },
      {
        details: [fieldDetail(field, 'image.unreadableHeader')],
      },
    )
  }
  if (pixelBudgetProblem(header, budget) === null) return
  const width = header.widthPixels
  const height = header.heightPixels
  const details = [fieldDetail(field, 'image.declaredPixels', { width, height })]
  if (width < 1 || height < 1) {
    throw new AppError('tooLarge', 'image.noPixels', { field, width, height }, { details })
  }
  const maxSide = Math.floor(Math.sqrt(budget.maxPixels))
  throw new AppError(
    'tooLarge',
    'image.tooManyPixels',
    { field, width, height, maxSide },
    { details },
  )
}

/** Builds the uploads service. */
export function createUploadsService(dependencies: {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
}): UploadsService {
  const { database, storage, clock, access } = dependencies
  const { db } = database
  const uploads = createUploadsRepository(db)

  const sniff = async (bytes: Uint8Array): Promise<string | undefined> =>
    (await fileTypeFromBuffer(bytes.subarray(0, 4_100)))?.mime

  const removeUnusedContent = async (hashes: readonly string[]) => {
    for (const sha256 of hashes) {
      if (!(await uploads.isContentUsed(sha256))) await storage.remove(sha256)
    }
  }

  return {
    async acceptImage({ user, image, thumbnail, projectId, purpose = 'image', limits }) {
      if (!image) throw fieldError('validation', 'file', 'validation.required')
      if (image.bytes.byteLength > (limits?.maxBytes ?? imageUploadMaxBytes)) {
        throw new AppError('tooLarge', 'image.tooLarge')
      }
      const mime = await sniff(image.bytes)
      const extension = mime ? acceptedImageTypes.get(mime) : undefined
      if (!mime || !extension) {
        throw new AppError('unsupportedFile', 'image.notJpegOrPng')
      }
      checkPixels(image.bytes, 'file', limits?.pixelBudget)
      if (thumbnail) {
        if (thumbnail.bytes.byteLength > thumbnailUploadMaxBytes) {
          throw fieldError('tooLarge', 'thumbnail', 'image.thumbnailTooLarge')
        }
        if ((await sniff(thumbnail.bytes)) !== 'image/jpeg') {
          throw fieldError('unsupportedFile', 'thumbnail', 'image.thumbnailNotJpeg')
        }
        checkPixels(thumbnail.bytes, 'thumbnail')
      }
      const storedImage = await storage.put(image.bytes)
      const storedThumbnail = thumbnail ? await storage.put(thumbnail.bytes) : undefined
      const row: UploadedFileRow = {
        id: randomUUID(),
        sha256: storedImage.sha256,
        size_bytes: storedImage.sizeBytes,
        content_type: mime,
        extension,
        original_name: image.fileName.slice(0, 255),
        thumbnail_sha256: storedThumbnail?.sha256 ?? null,
        owner_id: user.id,
        project_id: projectId ?? null,
        purpose,
        created_at: timestampOf(clock.nowMs()),
      }
      try {
        await db.transaction().execute(async (transaction) => {
          if (projectId !== undefined) {
            // Locked, so a concurrent delete of the project runs wholly before or after this
            await access.lockEditable(transaction, user, projectId)
          }
          await createUploadsRepository(transaction).insert(row)
        })
      } catch (error) {
        // bytes this upload brought in and nobody else stores go again
        for (const stored of [storedImage, storedThumbnail]) {
          if (stored?.isNew && !(await uploads.isContentUsed(stored.sha256))) {
            await storage.remove(stored.sha256)
          }
        }
        throw error
      }
      return {
        rootPath: uploadedFilesRoot,
        jpgName: `${row.id}.${extension}`,
        uuid: row.id,
        sizeBytes: row.size_bytes,
        contentType: mime as 'image/jpeg' | 'image/png',
        thumbnailPath: `${uploadedThumbnailsRoot}${row.id}.${extension}`,
      }
    },

    async openServed(fileName, variant) {
      const match = servedNamePattern.exec(fileName)
      const row = match ? await uploads.findById(match[1]!) : undefined
      if (!row || row.extension !== match?.[2]) throw new AppError('notFound', 'file.notFound')
      const useThumbnail = variant === 'thumbnail' && row.thumbnail_sha256 !== null
      const sha256 = useThumbnail ? row.thumbnail_sha256! : row.sha256
      return { sha256, contentType: useThumbnail ? 'image/jpeg' : row.content_type }
    },

    find: (fileId) => uploads.findById(fileId),

    async release(fileIds) {
      const hashes = await uploads.deleteUnreferenced(fileIds)
      await removeUnusedContent(hashes)
    },

    async collectAbandoned() {
      const cutoff = timestampOf(clock.nowMs() - abandonedUploadGraceMs)
      let removed = 0
      for (;;) {
        const ids = await uploads.unreferencedCreatedBefore(cutoff, 200)
        if (ids.length === 0) return removed
        const hashes = await uploads.deleteUnreferenced(ids)
        await removeUnusedContent(hashes)
        removed += ids.length
        if (ids.length < 200) return removed
      }
    },
  }
}
