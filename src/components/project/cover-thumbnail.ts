import { thumbnailEdgePixels, thumbnailUploadMaxBytes } from '../../../contract/files'

/**
 * Makes the small JPEG the project lists show instead of the full cover (up to 2 MB each):
 * the longest side scaled to 320 px in the browser, which already decodes the image for its
 * preview. Null when the browser cannot (no canvas, an undecodable file) or the result is too
 * big: the lists then show the cover itself.
 */
export async function createCoverThumbnail(file: Blob): Promise<Blob | null> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return null
  try {
    const bitmap = await createImageBitmap(file)
    const scale = Math.min(1, thumbnailEdgePixels / Math.max(bitmap.width, bitmap.height))
    const canvas = document.createElement('canvas')
    canvas.width = Math.max(1, Math.round(bitmap.width * scale))
    canvas.height = Math.max(1, Math.round(bitmap.height * scale))
    const context = canvas.getContext('2d')
    if (!context) return null
    // JPEG has no transparency: a PNG's transparent parts become white, not black
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, canvas.width, canvas.height)
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    bitmap.close()
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', 0.82),
    )
    return blob && blob.size <= thumbnailUploadMaxBytes ? blob : null
  } catch {
    return null
  }
}
