import { api } from './index'
import type { UploadedImage } from './types'
import { fileRoutes } from '../../contract/files'

/** `POST /web/upload/uploadJpg` (multipart field `file`). */
export async function uploadImage(file: File): Promise<UploadedImage> {
  const form = new FormData()
  form.append('file', file)
  const { datum } = await api.upload(fileRoutes.uploadJpg, form)
  return datum
}

/** The address an uploaded image is served from. */
export function uploadedImagePath(image: UploadedImage): string {
  const root = image.rootPath.endsWith('/') ? image.rootPath : `${image.rootPath}/`
  return `${root}${image.jpgName}`
}
