import { BMP } from 'image-size/types/bmp'
import { GIF } from 'image-size/types/gif'
import { HEIF } from 'image-size/types/heif'
import type { IImage } from 'image-size/types/interface'
import { JPG } from 'image-size/types/jpg'
import { PNG } from 'image-size/types/png'
import { WEBP } from 'image-size/types/webp'

/** Image formats whose size this module reads from the header. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'avif' | 'tga'

/** What an image's header claims, read without decoding a pixel. */
export interface ImageHeader {
  format: ImageFormat
  widthPixels: number
  heightPixels: number
}

/**
 * How many pixels an image may declare. Decoding costs 4 bytes a pixel wherever it happens (the
 * converter's TGA decoder, a viewer's browser), so the budget bounds the memory a file of a few
 * hundred KB can make someone spend.
 */
export interface PixelBudget {
  /** Longest accepted side. */
  maxSidePixels: number
  /** Most pixels (width × height). */
  maxPixels: number
}

/**
 * Covers, avatars, icons and thumbnails: SPEC §9 recommends 2048 × 2048; up to 4096 × 4096
 * (64 MiB decoded) is taken, so a photo straight off a phone still fits.
 */
export const uploadedImageBudget: PixelBudget = { maxSidePixels: 8192, maxPixels: 4096 * 4096 }

/**
 * Model textures: at most 8192 × 8192 (256 MiB decoded), the largest texture WebGL 2 guarantees
 * on the machines the console targets (docs/formats/sbm.md).
 */
export const textureBudget: PixelBudget = { maxSidePixels: 8192, maxPixels: 8192 * 8192 }

/** image-size's maintained header readers, tried by the bytes each format starts with. */
const handlers: Array<[Exclude<ImageFormat, 'tga'>, IImage]> = [
  ['png', PNG],
  ['jpeg', JPG],
  ['gif', GIF],
  ['webp', WEBP],
  ['bmp', BMP],
  ['avif', HEIF],
]

/**
 * Reads an image's format and size from its header (PNG IHDR, JPEG SOF, GIF screen descriptor,
 * WebP VP8/VP8L/VP8X, BMP info header, AVIF `ispe`, and TGA when `isTga` says the name or type
 * claims it, TGA having no signature). Null when the bytes are none of these or their header is
 * damaged: a caller refuses what it cannot measure.
 */
export function readImageHeader(
  bytes: Uint8Array,
  options: { isTga?: boolean } = {},
): ImageHeader | null {
  for (const [format, handler] of handlers) {
    try {
      if (!handler.validate(bytes)) continue
      const size = handler.calculate(bytes)
      // AVIF may hold several images (a grid, a thumbnail): the largest is what gets decoded
      const largest = (size.images ?? [size]).reduce((a, b) =>
        b.width * b.height > a.width * a.height ? b : a,
      )
      // a header cut short reads as NaN or garbage rather than throwing
      if (!Number.isSafeInteger(largest.width) || !Number.isSafeInteger(largest.height)) return null
      if (format === 'png' && bytes.byteLength < 33) return null
      return { format, widthPixels: largest.width, heightPixels: largest.height }
    } catch {
      return null
    }
  }
  return options.isTga ? readTgaHeader(bytes) : null
}

/** TGA's 18-byte header: colour-map type 0/1, an image type TGA decoders know, the size. */
function readTgaHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.byteLength < 18) return null
  const colorMapType = bytes[1]!
  const imageType = bytes[2]!
  if (colorMapType > 1 || ![1, 2, 3, 9, 10, 11].includes(imageType)) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return {
    format: 'tga',
    widthPixels: view.getUint16(12, true),
    heightPixels: view.getUint16(14, true),
  }
}

/**
 * Why an image's declared size is refused, or null when it fits `budget`: no pixels at all
 * (0 × 0 lies as much as 60,000 × 60,000 does), a side or a pixel count over the budget.
 */
export function pixelBudgetProblem(header: ImageHeader, budget: PixelBudget): string | null {
  const { widthPixels: width, heightPixels: height } = header
  if (width < 1 || height < 1) return `it declares ${width} × ${height} pixels`
  if (
    width > budget.maxSidePixels ||
    height > budget.maxSidePixels ||
    width * height > budget.maxPixels
  ) {
    const side = Math.floor(Math.sqrt(budget.maxPixels))
    return `it declares ${width} × ${height} pixels, more than ${side} × ${side}`
  }
  return null
}
