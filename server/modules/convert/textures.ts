import type { Document, Texture } from '@gltf-transform/core'
import { TGALoader } from 'three/examples/jsm/loaders/TGALoader.js'
import { pixelBudgetProblem, readImageHeader, textureBudget } from '../images/image-header'
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

/** A texture's bytes and how to name it in a refusal. */
export interface TextureBytes {
  label: string
  bytes: Uint8Array
  /** TGA has no signature: its name or declared type says it is one. */
  isTga: boolean
}

/**
 * Refuses textures whose header declares a size outside {@link textureBudget} (or no pixels),
 * naming each with its claim. Runs before anything decodes them: glTF-Transform and assimp only
 * carry image bytes, the TGA decoder and every viewer's browser decode them. Headers this reader
 * does not know are left to {@link normalizeTextures}, which refuses what browsers cannot show.
 */
export function checkTexturePixels(textures: readonly TextureBytes[]): void {
  const oversized: string[] = []
  const claims: string[] = []
  for (const { label, bytes, isTga } of textures) {
    const header = readImageHeader(bytes, { isTga })
    const problem = header && pixelBudgetProblem(header, textureBudget)
    if (problem) {
      oversized.push(label)
      claims.push(`${label} (${problem})`)
    }
  }
  if (oversized.length > 0) {
    throw new ConversionError(
      'oversizedTextures',
      `textures larger than ${textureBudget.maxSidePixels} × ${textureBudget.maxSidePixels} pixels are not accepted: ${claims.join(', ')}`,
      oversized,
    )
  }
}

/** True when a texture's type or name says TGA (which has no signature to sniff). */
export function looksLikeTga(mimeType: string, uri: string): boolean {
  return /tga/i.test(mimeType) || /\.tga$/i.test(uri)
}

function textureLabel(texture: Texture, index: number): string {
  return texture.getURI() || texture.getName() || `texture ${index}`
}

function isTga(texture: Texture): boolean {
  return looksLikeTga(texture.getMimeType(), texture.getURI())
}

/**
 * Makes every texture something a browser can decode: PNG, JPEG, WebP and AVIF are kept (with
 * their declared type corrected from their bytes); TGA, common in DAE and FBX exports, is decoded
 * with three.js's TGALoader and re-encoded as PNG. Anything else is refused by name, and so is a
 * texture whose header declares more than {@link textureBudget} (see {@link checkTexturePixels}).
 * Returns the names of converted textures.
 */
export function normalizeTextures(document: Document): string[] {
  const converted: string[] = []
  const unsupported: string[] = []
  const textures = document.getRoot().listTextures()
  // embedded textures (GLB, data URIs, FBX) are measured here, before the TGA decoder runs
  checkTexturePixels(
    textures.flatMap((texture, index) => {
      const image = texture.getImage()
      return image
        ? [{ label: textureLabel(texture, index), bytes: image, isTga: isTga(texture) }]
        : []
    }),
  )
  textures.forEach((texture, index) => {
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
