import type { Device, Texture } from '@luma.gl/core'

/**
 * An RGBA texture of `width` × `height` texels, filtered linearly and clamped at its edges: what
 * the city's pictures drawn on quads need (the drawings' ground picture, the POI sprite atlas),
 * so a quad's edge never samples the texels of the opposite side.
 *
 * With `mipmaps`, it has every level down to 1 × 1 and a minified sample reads the one level
 * nearest its scale: a picture seen smaller than its texels (the ground picture under a tilted,
 * turning view) is then read from a level about as fine as the screen, not from the full one.
 * On a software GPU (SwiftShader) reading the full 1,000²-texel picture for each pixel cost more
 * than all the rest of a frame's drawing did; the levels are filled by
 * {@link writeClampedTexture}.
 */
export function createClampedTexture(
  device: Device,
  width: number,
  height: number,
  { mipmaps = false }: { mipmaps?: boolean } = {},
): Texture {
  return device.createTexture({
    width,
    height,
    format: 'rgba8unorm',
    mipLevels: mipmaps ? Math.floor(Math.log2(Math.max(width, height, 1))) + 1 : 1,
    sampler: {
      minFilter: 'linear',
      magFilter: 'linear',
      // One level a sample (the nearest), not a blend of two: half the reads.
      mipmapFilter: mipmaps ? 'nearest' : 'none',
      addressModeU: 'clamp-to-edge',
      addressModeV: 'clamp-to-edge',
    },
  })
}

/** Writes all of `texture`'s texels (RGBA, rows top first) and, when it has them, its levels. */
export function writeClampedTexture(texture: Texture, pixels: Uint8Array): void {
  texture.writeData(pixels, {
    width: texture.width,
    height: texture.height,
    bytesPerRow: texture.width * 4,
  })
  if (texture.mipLevels > 1) texture.generateMipmapsWebGL()
}
