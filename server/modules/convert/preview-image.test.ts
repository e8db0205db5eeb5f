import { Document } from '@gltf-transform/core'
import { describe, expect, it } from 'vitest'
import { ownPngPixels } from '../../routes/web/building-test-kit'
import { previewSidePixels, renderPreviewPng } from './preview-image'

/** A document with one red quad (two triangles) in the XY plane, in a scene. */
function redQuad(): Document {
  const document = new Document()
  const buffer = document.createBuffer()
  const positions = document
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]))
    .setBuffer(buffer)
  const indices = document
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
    .setBuffer(buffer)
  const material = document.createMaterial().setBaseColorFactor([1, 0, 0, 1])
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', positions)
    .setIndices(indices)
    .setMaterial(material)
  const mesh = document.createMesh().addPrimitive(primitive)
  const scene = document.createScene().addChild(document.createNode().setMesh(mesh))
  document.getRoot().setDefaultScene(scene)
  return document
}

describe('renderPreviewPng', () => {
  it('draws the model in its colour, centred, on a transparent background', () => {
    const png = renderPreviewPng(redQuad())
    expect(png).not.toBeNull()
    const { width, height, rgba } = ownPngPixels(png!)
    expect([width, height]).toEqual([previewSidePixels, previewSidePixels])
    const pixel = (x: number, y: number) => [
      ...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
    ]
    const [red, green, blue, alpha] = pixel(width / 2, height / 2)
    expect(alpha).toBe(255)
    expect(red).toBeGreaterThan(80)
    expect(green).toBe(0)
    expect(blue).toBe(0)
    expect(pixel(0, 0)[3]).toBe(0)
  })

  it('has nothing to draw for a scene without triangles', () => {
    const document = new Document()
    document.getRoot().setDefaultScene(document.createScene())
    expect(renderPreviewPng(document)).toBeNull()
  })
})
