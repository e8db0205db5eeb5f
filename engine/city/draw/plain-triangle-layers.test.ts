import { describe, expect, it } from 'vitest'
import { quadVertexArrays, vertexArrays } from './plain-triangle-layers'

/**
 * The vertex arrays every plain triangle layer (lines, dots, POI sprites and meshes) declares
 * its attributes with: the shaders' attribute names and formats, sized for the vertices.
 */
describe('vertexArrays', () => {
  it('gives a position its 64-bit low part and sizes each attribute by its format', () => {
    const { values, attributes } = vertexArrays(2, {
      anchors: 'position',
      corners: 'float32x2',
      colors: 'unorm8x4',
      widths: 'float32',
    })
    expect(attributes.map(({ name, format }) => [name, format])).toEqual([
      ['anchors', 'float32x3'],
      ['anchors64Low', 'float32x3'],
      ['corners', 'float32x2'],
      ['colors', 'unorm8x4'],
      ['widths', 'float32'],
    ])
    expect(values.anchors64Low).toBeInstanceOf(Float32Array)
    expect(values.anchors64Low.length).toBe(6)
    expect(values.corners.length).toBe(4)
    expect(values.colors).toBeInstanceOf(Uint8Array)
    expect(values.colors.length).toBe(8)
    expect(values.widths.length).toBe(2)
    // the layer fills the same arrays its shaders are given
    expect(attributes[3]!.values).toBe(values.colors)
  })

  it('makes quads of four vertices and two triangles each', () => {
    const quads = quadVertexArrays(2, { centers: 'position' })
    expect(quads.vertexCount).toBe(8)
    expect(quads.values.centers.length).toBe(24)
    expect([...quads.indices]).toEqual([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7])
  })
})
