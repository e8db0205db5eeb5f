import { luma } from '@luma.gl/core'
import { type WEBGLTexture, type WebGLDevice, webgl2Adapter } from '@luma.gl/webgl'
import { describe, expect, it } from 'vitest'
import { createClampedTexture, writeClampedTexture } from './clamped-texture'

/**
 * The city's pictures on quads (issue 18's drawing frames): the drawings' ground picture is
 * mipmapped, so a tilted or far view reads a level as fine as the screen, whose texels are the
 * average of the picture's, instead of every other texel of the full picture.
 */

/** RGBA of level `level` of `texture`, read through a framebuffer (WebGL2). */
function readLevel(device: WebGLDevice, texture: WebGLTexture, level: number, side: number) {
  const gl = device.gl
  const framebuffer = gl.createFramebuffer()
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer)
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, level)
  const pixels = new Uint8Array(side * side * 4)
  gl.readPixels(0, 0, side, side, gl.RGBA, gl.UNSIGNED_BYTE, pixels)
  gl.bindFramebuffer(gl.FRAMEBUFFER, null)
  gl.deleteFramebuffer(framebuffer)
  return pixels
}

describe('clamped textures', () => {
  it('gives a mipmapped picture every level, each the average of the one above', async () => {
    const device = (await luma.createDevice({
      type: 'webgl',
      adapters: [webgl2Adapter],
      createCanvasContext: { width: 4, height: 4 },
    })) as WebGLDevice
    // A checkerboard of opaque red and clear texels: seen from afar, a see-through red.
    const side = 8
    const pixels = new Uint8Array(side * side * 4)
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++)
        if ((x + y) % 2 === 0) pixels.set([255, 0, 0, 255], (y * side + x) * 4)
    const texture = createClampedTexture(device, side, side, { mipmaps: true })
    expect(texture.mipLevels).toBe(4)
    writeClampedTexture(texture, pixels)
    const half = readLevel(device, (texture as WEBGLTexture).handle, 1, side / 2)
    for (let index = 0; index < half.length; index += 4) {
      expect(half[index]).toBeGreaterThan(120)
      expect(half[index]).toBeLessThan(135)
      expect(half[index + 3]).toBeGreaterThan(120)
      expect(half[index + 3]).toBeLessThan(135)
    }
    // The POI atlas keeps one level: its sprites are drawn at their size.
    const atlas = createClampedTexture(device, side, side)
    expect(atlas.mipLevels).toBe(1)
    texture.destroy()
    atlas.destroy()
    device.destroy()
  })
})
