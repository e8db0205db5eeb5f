import { readFile } from 'node:fs/promises'
import { type MeshStandardMaterial, Raycaster, SRGBColorSpace, Vector3 } from 'three'
import { acceleratedRaycast } from 'three-mesh-bvh'
import { describe, expect, it } from 'vitest'
import { decodeSbm } from './decode-sbm'
import { createSbmObject } from './sbm-three'

const fixture = async () =>
  decodeSbm(new Uint8Array(await readFile(new URL('./fixtures/two-storeys.sbm', import.meta.url))))

describe('createSbmObject', () => {
  it('places one mesh per node, sharing geometry between instances', async () => {
    const model = createSbmObject(await fixture())
    expect(model.root.children.map((child) => child.name)).toEqual([
      'F1 slab',
      'F2 slab',
      'F1 column',
    ])
    expect(model.geometries).toHaveLength(2)
    expect(model.bvhs).toHaveLength(2)
    const [f1, f2] = model.root.children as import('three').Mesh[]
    expect(f1!.geometry).toBe(f2!.geometry)
    expect(new Vector3().setFromMatrixPosition(f2!.matrixWorld).y).toBe(3)
  })

  it('gives geometries views into the decoded buffers, precomputed bounds and the stored BVH', async () => {
    const decoded = await fixture()
    const model = createSbmObject(decoded)
    const slab = model.geometries[0]!
    expect(slab.getAttribute('position').array.buffer).toBe(decoded.positions.buffer)
    expect(slab.index!.array.buffer).toBe(decoded.indices.buffer)
    expect(slab.boundingBox!.max.toArray().map((value) => Math.round(value * 10) / 10)).toEqual([
      5, 0.1, 5,
    ])
    expect(slab.boundsTree).toBe(model.bvhs[0])
  })

  it('is pickable with three.js raycasting at once, hitting the expected mesh', async () => {
    const model = createSbmObject(await fixture())
    for (const child of model.root.children)
      (child as import('three').Mesh).raycast = acceleratedRaycast
    const raycaster = new Raycaster(new Vector3(1, 10, 1), new Vector3(0, -1, 0))
    raycaster.firstHitOnly = true
    const [hit] = raycaster.intersectObject(model.root, true)
    expect(hit?.object.name).toBe('F2 slab')
    expect(hit?.point.y).toBeCloseTo(3.1, 5)
  })

  it('maps glTF materials and frees everything on dispose', async () => {
    const model = createSbmObject(await fixture())
    const concrete = model.materials[0] as import('three').MeshStandardMaterial
    expect(concrete.name).toBe('concrete')
    expect(concrete.color.r).toBeCloseTo(0.8, 5)
    await model.texturesReady
    let disposed = 0
    for (const geometry of model.geometries) geometry.addEventListener('dispose', () => disposed++)
    model.dispose()
    expect(disposed).toBe(2)
    expect(model.geometries[0]!.boundsTree).toBeUndefined()
  })

  it('gives glTF textures the glTF conventions: no flip, sRGB colour, repeat wrapping', async () => {
    const duck = await decodeSbm(
      new Uint8Array(await readFile(new URL('./fixtures/duck.sbm', import.meta.url))),
    )
    expect(duck.images).toHaveLength(1)
    expect(duck.images[0]!.mimeType).toBe('image/png')
    const model = createSbmObject(duck)
    const material = model.materials[0] as MeshStandardMaterial
    expect(material.map).not.toBeNull()
    expect(material.map!.flipY).toBe(false)
    expect(material.map!.colorSpace).toBe(SRGBColorSpace)
    expect(model.textures).toEqual([material.map])
    // Node has no image decoder: the texture stays without an image instead of failing.
    await model.texturesReady
    expect(material.map!.image).toBeNull()
    model.dispose()
  })
})
