import type { Document, Texture } from '@gltf-transform/core'
import { TGALoader } from 'three/examples/jsm/loaders/TGALoader.js'
import { ConversionError } from './conversion-error'
import { encodePng } from './png'

/** Image formats a browser decodes for a glTF texture, by the bytes they start with. */
export type BrowserImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/avif'

/** Recognises an image by its content, not its name or declared type (both lie in the wild). */
export function sniffImageType(bytes: Uint8Array): BrowserImageType | null {
  const startsWith = (offset: number, ...values: number[]) =>
    values.every((value, index) => bytes[offset + index] === value)
  if (startsWith(0, 0x89, 0x50, 0x4e, 0x47)) return 'image/png'
  if (startsWith(0, 0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (startsWith(0, 0x52, 0x49, 0x46, 0x46) && startsWith(8, 0x57, 0x45, 0x42, 0x50)) {
    return 'image/webp'
  }
  if (startsWith(4, 0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66)) return 'image/avif'
  return null
}

function textureLabel(texture: Texture, index: number): string {
  return texture.getURI() || texture.getName() || `texture ${index}`
}

function isTga(texture: Texture): boolean {
  return /tga/i.test(texture.getMimeType()) || /\.tga$/i.test(texture.getURI())
}

/**
 * Makes every texture something a browser can decode: PNG, JPEG, WebP and AVIF are kept (with
 * their declared type corrected from their bytes); TGA, common in DAE and FBX exports, is decoded
 * with three.js's TGALoader and re-encoded as PNG. Anything else is refused by name.
 * Returns the names of converted textures.
 */
export function normalizeTextures(document: Document): string[] {
  const converted: string[] = []
  const unsupported: string[] = []
  document
    .getRoot()
    .listTextures()
    .forEach((texture, index) => {
      const image = texture.getImage()
      if (!image) return
      const type = sniffImageType(image)
      if (type) {
        texture.setMimeType(type)
        return
      }
      if (isTga(texture)) {
        try {
          const copy = image.slice().buffer
          const decoded = new TGALoader().parse(copy) as {
            data: Uint8Array
            width: number
            height: number
          }
          texture
            .setImage(encodePng(decoded.data, decoded.width, decoded.height))
            .setMimeType('image/png')
            .setURI(texture.getURI().replace(/\.tga$/i, '.png'))
          converted.push(textureLabel(texture, index))
          return
        } catch {
          // Falls through: a damaged TGA is refused like any other unreadable texture.
        }
      }
      unsupported.push(textureLabel(texture, index))
    })
  if (unsupported.length > 0) {
    throw new ConversionError(
      'unsupportedTextures',
      `textures in a format browsers cannot show: ${unsupported.join(', ')} (use PNG, JPEG or WebP)`,
      unsupported,
    )
  }
  return converted
}
