/** SPEC §5, §9: shared image uploads must be under 2 MB. */
export const imageUploadLimitBytes = 2 * 1024 * 1024

/** Content types the shared image upload accepts (SPEC §5: jpeg, jpg, png). */
export const acceptedImageTypes = ['image/jpeg', 'image/jpg', 'image/png'] as const

/** File-name endings accepted when the browser reports no content type. */
const acceptedImageExtensions = ['.jpeg', '.jpg', '.png'] as const

/** The `accept` attribute for a file input that offers only these images. */
export const imageInputAccept = [...acceptedImageTypes, ...acceptedImageExtensions].join(',')

/** Why an image was refused. */
export type ImageRejection = 'type' | 'size'

/** The outcome of {@link validateImageFile}. */
export type ImageValidation = { isValid: true } | { isValid: false; reason: ImageRejection }

/**
 * Checks a chosen image before upload: JPEG or PNG (by content type, or by extension when the
 * browser gives none) and strictly under 2 MB. The type is checked first, so a large PDF is
 * refused for being a PDF. The server checks the content again; this only saves a round trip.
 */
export function validateImageFile(
  file: Pick<File, 'name' | 'type' | 'size'>,
  limitBytes: number = imageUploadLimitBytes,
): ImageValidation {
  const type = file.type.toLowerCase()
  const name = file.name.toLowerCase()
  const isAcceptedType =
    type === ''
      ? acceptedImageExtensions.some((extension) => name.endsWith(extension))
      : (acceptedImageTypes as readonly string[]).includes(type)
  if (!isAcceptedType) return { isValid: false, reason: 'type' }
  if (file.size >= limitBytes) return { isValid: false, reason: 'size' }
  return { isValid: true }
}
