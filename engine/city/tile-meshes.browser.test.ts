import { describe, expect, it } from 'vitest'
import { collectTileMeshes, type TileGltf, usesMipmaps } from './tile-meshes'

const nearest = 9728
const clampToEdge = 33071

/** A post-processed glTF as loaders.gl hands it to the engine (accessors carry `value`). */
function gltfWith(primitive: Record<string, unknown>, nodes?: Record<string, unknown>[]): TileGltf {
  const mesh = { primitives: [primitive] }
  return {
    scene: {
      nodes: (nodes ?? [{ mesh }]).map((node) => ({ ...node, mesh: node.mesh ?? mesh })),
    },
  } as TileGltf
}

const triangle = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])

describe('collectTileMeshes', () => {
  it('keeps float attributes as they are and applies parent and child node transforms', () => {
    const primitive = { attributes: { POSITION: { value: triangle, components: 3 } } }
    const [mesh] = collectTileMeshes(
      gltfWith(primitive, [
        {
          translation: [10, 0, 0],
          mesh: { primitives: [] },
          children: [{ scale: [2, 2, 2], mesh: { primitives: [primitive] } }],
        },
      ]),
    )
    expect(mesh!.positions).toBe(triangle)
    expect(mesh!.vertexCount).toBe(3)
    // Column-major: scale 2 then translate by 10 on x.
    expect(mesh!.matrix[0]).toBe(2)
    expect(mesh!.matrix[12]).toBe(10)
    expect(mesh!.indices).toBeNull()
    expect(mesh!.normals).toBeNull()
    expect(mesh!.texture).toBeNull()
    // Untextured, no normals: drawn lit with face normals, not unlit.
    expect(mesh!.isUnlit).toBe(false)
    expect(mesh!.baseColor).toEqual([1, 1, 1, 1])
  })

  it('converts normalized integer attributes and widens byte indices', () => {
    const [mesh] = collectTileMeshes(
      gltfWith({
        attributes: {
          POSITION: { value: triangle, components: 3 },
          NORMAL: { value: new Int8Array([0, 0, 127, 0, 0, -128, 0, 127, 0]), normalized: true },
          COLOR_0: { value: new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255]), components: 3 },
        },
        indices: { value: new Uint8Array([0, 1, 2]) },
      }),
    )
    expect(Array.from(mesh!.normals!)).toEqual([0, 0, 1, 0, 0, -1, 0, 1, 0])
    // Not normalized in the accessor: values stay as written; a missing alpha is opaque.
    expect(Array.from(mesh!.colors!)).toEqual([255, 0, 0, 1, 0, 255, 0, 1, 0, 0, 255, 1])
    expect(mesh!.indices).toBeInstanceOf(Uint16Array)
    expect(Array.from(mesh!.indices!)).toEqual([0, 1, 2])
  })

  it('reads the material: base colour, unlit, alpha mask, and the texture sampler', () => {
    const image = new ImageData(2, 2)
    const [mesh] = collectTileMeshes(
      gltfWith({
        attributes: {
          POSITION: { value: triangle, components: 3 },
          TEXCOORD_0: { value: new Float32Array([0, 0, 1, 0, 0, 1]), components: 2 },
        },
        material: {
          pbrMetallicRoughness: {
            baseColorFactor: [0.5, 0.25, 1, 1],
            baseColorTexture: {
              texture: {
                source: { image },
                sampler: { minFilter: nearest, magFilter: nearest, wrapS: clampToEdge },
              },
            },
          },
          alphaMode: 'MASK',
          alphaCutoff: 0.3,
          extensions: { KHR_materials_unlit: {} },
        },
      }),
    )
    expect(mesh!.texture).toBe(image)
    expect(mesh!.texCoords).not.toBeNull()
    expect(mesh!.baseColor).toEqual([0.5, 0.25, 1, 1])
    expect(mesh!.isUnlit).toBe(true)
    expect(mesh!.alphaCutoff).toBe(0.3)
    expect(mesh!.textureSampler).toEqual({
      minFilter: nearest,
      magFilter: nearest,
      wrapS: clampToEdge,
      wrapT: 10497,
    })
    expect(usesMipmaps(mesh!.textureSampler.minFilter)).toBe(false)
  })

  it('treats textured meshes without normals as photogrammetry (unlit), and defaults to trilinear', () => {
    const [mesh] = collectTileMeshes(
      gltfWith({
        attributes: {
          POSITION: { value: triangle, components: 3 },
          TEXCOORD_0: { value: new Float32Array(6), components: 2 },
        },
        material: {
          pbrMetallicRoughness: {
            baseColorTexture: { texture: { source: { image: new ImageData(1, 1) } } },
          },
        },
      }),
    )
    expect(mesh!.isUnlit).toBe(true)
    expect(usesMipmaps(mesh!.textureSampler.minFilter)).toBe(true)
  })

  it('skips primitives that are not triangle lists or have no positions', () => {
    expect(
      collectTileMeshes(
        gltfWith({ mode: 1, attributes: { POSITION: { value: triangle, components: 3 } } }),
      ),
    ).toEqual([])
    expect(collectTileMeshes(gltfWith({ attributes: {} }))).toEqual([])
  })
})
