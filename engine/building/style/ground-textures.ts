import {
  DataTexture,
  LinearMipmapLinearFilter,
  RepeatWrapping,
  RGBAFormat,
  SRGBColorSpace,
} from 'three'
import type { GroundStyle } from '../../api/style-commands'

/**
 * Tiling ground textures, generated procedurally from a fixed seed (no image files, so nothing to
 * license and the same pixels everywhere). Each is 256 × 256 and wraps seamlessly: the noise and
 * the gravel cells are computed on a torus (coordinates taken modulo the tile).
 */

/** Texture size in pixels (a power of two, for mipmaps and repeat wrapping). */
export const GROUND_TEXTURE_SIZE = 256
/** Metres of ground one texture tile covers. */
export const GROUND_TILE_METERS = 4

type Rgb = [number, number, number]

function hash(x: number, y: number, seed: number): number {
  let value = Math.imul(x, 374761393) + Math.imul(y, 668265263) + Math.imul(seed, 2147483647)
  value = Math.imul(value ^ (value >>> 13), 1274126177)
  return ((value ^ (value >>> 16)) >>> 0) / 4294967296
}

/** Value noise of one octave with `cells` cells per tile, wrapping at the tile's edge. */
function valueNoise(x: number, y: number, cells: number, seed: number): number {
  const scaledX = (x / GROUND_TEXTURE_SIZE) * cells
  const scaledY = (y / GROUND_TEXTURE_SIZE) * cells
  const x0 = Math.floor(scaledX)
  const y0 = Math.floor(scaledY)
  const fx = scaledX - x0
  const fy = scaledY - y0
  const sx = fx * fx * (3 - 2 * fx)
  const sy = fy * fy * (3 - 2 * fy)
  const at = (cx: number, cy: number) =>
    hash(((cx % cells) + cells) % cells, ((cy % cells) + cells) % cells, seed)
  const top = at(x0, y0) * (1 - sx) + at(x0 + 1, y0) * sx
  const bottom = at(x0, y0 + 1) * (1 - sx) + at(x0 + 1, y0 + 1) * sx
  return top * (1 - sy) + bottom * sy
}

/** Fractal noise 0–1 of a few octaves. */
function fractalNoise(x: number, y: number, seed: number): number {
  let sum = 0
  let weight = 0
  for (let octave = 0; octave < 4; octave++) {
    const amplitude = 0.5 ** octave
    sum += valueNoise(x, y, 4 * 2 ** octave, seed + octave) * amplitude
    weight += amplitude
  }
  return sum / weight
}

/**
 * Gravel: jittered cells (stones) on a wrapping grid, each with its own shade, darker toward
 * its border (the gaps between stones).
 */
function gravel(
  x: number,
  y: number,
  cells: number,
  seed: number,
): { shade: number; edge: number } {
  const cellSize = GROUND_TEXTURE_SIZE / cells
  const cx = Math.floor(x / cellSize)
  const cy = Math.floor(y / cellSize)
  let nearest = Number.POSITIVE_INFINITY
  let second = Number.POSITIVE_INFINITY
  let shade = 0
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const gx = (((cx + dx) % cells) + cells) % cells
      const gy = (((cy + dy) % cells) + cells) % cells
      const px = (cx + dx + hash(gx, gy, seed)) * cellSize
      const py = (cy + dy + hash(gx, gy, seed + 1)) * cellSize
      const distance = Math.hypot(px - x, py - y)
      if (distance < nearest) {
        second = nearest
        nearest = distance
        shade = hash(gx, gy, seed + 2)
      } else if (distance < second) {
        second = distance
      }
    }
  }
  return { shade, edge: Math.min(1, (second - nearest) / (cellSize * 0.25)) }
}

function mix(a: Rgb, b: Rgb, amount: number): Rgb {
  return [
    a[0] + (b[0] - a[0]) * amount,
    a[1] + (b[1] - a[1]) * amount,
    a[2] + (b[2] - a[2]) * amount,
  ]
}

/** The sRGB colour (0–255) of a ground style at a texel. */
export function groundTexel(style: Exclude<GroundStyle, 'none'>, x: number, y: number): Rgb {
  if (style === 'grassland') {
    const patches = fractalNoise(x, y, 3)
    // fine blades: noise stretched along one axis
    const blades = valueNoise(x * 4, y * 0.5, 32, 7)
    const base = mix([54, 92, 33], [104, 140, 52], patches)
    return mix(base, [140, 170, 80], blades * blades * 0.6)
  }
  const { shade, edge } = gravel(
    x,
    y,
    style === 'stoneGravel' ? 24 : 20,
    style === 'stoneGravel' ? 11 : 23,
  )
  const grain = fractalNoise(x, y, 5)
  const [light, dark]: [Rgb, Rgb] =
    style === 'stoneGravel'
      ? [
          [196, 188, 172],
          [128, 120, 108],
        ]
      : [
          [86, 84, 82],
          [34, 33, 33],
        ]
  const stone = mix(dark, light, shade * 0.7 + grain * 0.3)
  const gap: Rgb = style === 'stoneGravel' ? [90, 82, 72] : [18, 18, 18]
  return mix(gap, stone, Math.sqrt(edge))
}

/** A seamless tiling texture of a ground style, with mipmaps (made in a few milliseconds). */
export function createGroundTexture(style: Exclude<GroundStyle, 'none'>): DataTexture {
  const size = GROUND_TEXTURE_SIZE
  const data = new Uint8Array(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const [r, g, b] = groundTexel(style, x, y)
      const offset = (y * size + x) * 4
      data[offset] = r
      data[offset + 1] = g
      data[offset + 2] = b
      data[offset + 3] = 255
    }
  }
  const texture = new DataTexture(data, size, size, RGBAFormat)
  texture.colorSpace = SRGBColorSpace
  texture.wrapS = RepeatWrapping
  texture.wrapT = RepeatWrapping
  texture.minFilter = LinearMipmapLinearFilter
  texture.generateMipmaps = true
  texture.anisotropy = 4
  texture.needsUpdate = true
  return texture
}
