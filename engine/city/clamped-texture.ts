import type { Device, Texture } from '@luma.gl/core'

/**
 * An RGBA texture of `width` × `height` texels, filtered linearly and clamped at its edges: what
 * the city's pictures drawn on quads need (the drawings' ground picture, the POI sprite atlas),
 * so a quad's edge never samples the texels of the opposite side.
 */
export function createClampedTexture(device: Device, width: number, height: number): Texture {
  return device.createTexture({
    width,
    height,
    format: 'rgba8unorm',
    sampler: {
      minFilter: 'linear',
      magFilter: 'linear',
      addressModeU: 'clamp-to-edge',
      addressModeV: 'clamp-to-edge',
    },
  })
}
