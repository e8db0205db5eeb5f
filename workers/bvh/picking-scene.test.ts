import { readFile } from 'node:fs/promises'
import fc from 'fast-check'
import {
  BufferGeometry,
  DoubleSide,
  Euler,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  Quaternion,
  Raycaster,
  TorusKnotGeometry,
  Vector3,
} from 'three'
import { acceleratedRaycast, MeshBVH } from 'three-mesh-bvh'
import { describe, expect, it } from 'vitest'
import { decodeSbm } from '../sbm/decode-sbm'
import type { DecodedSbm } from '../sbm/decoded-sbm'
import { addDecodedSbm } from './add-decoded-sbm'
import { type PickRay, PickingScene } from './picking-scene'

const fixture = async () =>
  decodeSbm(
    new Uint8Array(await readFile(new URL('../sbm/fixtures/two-storeys.sbm', import.meta.url))),
    { purpose: 'picking' },
  )

/** One mesh per node, named by node, with shared geometry between the slab's two placements. */
function sceneOf(decoded: DecodedSbm): PickingScene {
  const scene = new PickingScene()
  const { meshes } = addDecodedSbm(scene, 'building', decoded)
  expect(meshes.map((mesh) => mesh.name)).toEqual(['F1 slab', 'F2 slab', 'F1 column'])
  // Re-key by node name so the tests read as the building does.
  for (const mesh of meshes)
    scene.add(mesh.name, {
      geometryOf: mesh.meshId,
      matrixWorld: decoded.instances.find((instance) => instance.nodeIndex === mesh.nodeIndex)!
        .matrixWorld,
    })
  scene.removeByPrefix('building#')
  return scene
}

const rounded = (values: number[]) => values.map((value) => Math.round(value * 1000) / 1000 + 0)

describe('PickingScene on the two-storey fixture', () => {
  it('hits the upper slab from above, with an upward normal', async () => {
    const scene = sceneOf(await fixture())
    const hit = scene.raycast({ origin: [1, 10, 1], direction: [0, -1, 0] })
    expect(hit?.meshId).toBe('F2 slab')
    expect(rounded(hit!.point)).toEqual([1, 3.1, 1])
    expect(rounded(hit!.normal)).toEqual([0, 1, 0])
    expect(hit!.distance).toBeCloseTo(6.9, 5)
  })

  it('hits the column from the side and the lower slab between the floors', async () => {
    const scene = sceneOf(await fixture())
    const side = scene.raycast({ origin: [-10, 1.5, 0], direction: [2, 0, 0] })
    expect(side?.meshId).toBe('F1 column')
    expect(rounded(side!.point)).toEqual([2.75, 1.5, 0])
    expect(rounded(side!.normal)).toEqual([-1, 0, 0])
    const down = scene.raycast({ origin: [-2, 2, -2], direction: [0, -1, 0] })
    expect(down?.meshId).toBe('F1 slab')
    expect(rounded(down!.point)).toEqual([-2, 0.1, -2])
  })

  it('turns the normal toward the viewer when hitting a face from behind', async () => {
    const scene = sceneOf(await fixture())
    const fromBelow = scene.raycast({ origin: [1, 2, 1], direction: [0, 1, 0] })
    expect(fromBelow?.meshId).toBe('F2 slab')
    expect(rounded(fromBelow!.normal)).toEqual([0, -1, 0])
  })

  it('answers null for a miss, a zero direction and hits outside near/far', async () => {
    const scene = sceneOf(await fixture())
    expect(scene.raycast({ origin: [50, 10, 50], direction: [0, -1, 0] })).toBeNull()
    expect(scene.raycast({ origin: [0, 10, 0], direction: [0, 0, 0] })).toBeNull()
    expect(scene.raycast({ origin: [1, 10, 1], direction: [0, -1, 0], far: 5 })).toBeNull()
    const pastUpper = scene.raycast({ origin: [1, 10, 1], direction: [0, -1, 0], near: 7.2 })
    expect(pastUpper?.meshId).toBe('F1 slab')
  })

  it('forgets removed meshes, while instances sharing their geometry keep working', async () => {
    const scene = sceneOf(await fixture())
    expect(scene.meshCount).toBe(3)
    expect(scene.remove('F1 slab')).toBe(true)
    expect(scene.remove('F1 slab')).toBe(false)
    expect(scene.raycast({ origin: [1, 10, 1], direction: [0, -1, 0] })?.meshId).toBe('F2 slab')
    expect(scene.raycast({ origin: [-2, 2, -2], direction: [0, -1, 0] })).toBeNull()
    expect(scene.removeByPrefix('F')).toBe(2)
    expect(scene.meshCount).toBe(0)
  })

  it('replaces a mesh added again under the same id', async () => {
    const scene = sceneOf(await fixture())
    scene.add('F2 slab', {
      geometryOf: 'F1 slab',
      matrixWorld: new Matrix4().makeTranslation(0, 6, 0).elements,
    })
    expect(scene.meshCount).toBe(3)
    expect(rounded(scene.raycast({ origin: [1, 10, 1], direction: [0, -1, 0] })!.point)).toEqual([
      1, 6.1, 1,
    ])
  })
})

describe('PickingScene agrees with three.js raycasting', () => {
  it('finds the same first hit as Raycaster + three-mesh-bvh for random rays and placements', () => {
    const geometry = new TorusKnotGeometry(1, 0.35, 96, 12)
    const bvh = new MeshBVH(geometry)
    geometry.boundsTree = bvh
    const roots = MeshBVH.serialize(bvh).roots
    const placements = [
      new Matrix4().compose(new Vector3(0, 0, 0), new Quaternion(), new Vector3(1, 1, 1)),
      new Matrix4().compose(
        new Vector3(3, 1, -2),
        new Quaternion().setFromEuler(new Euler(0.4, 1.1, -0.3)),
        new Vector3(2, 0.5, 1.5),
      ),
      new Matrix4().compose(new Vector3(-3, -1, 1), new Quaternion(), new Vector3(-1, 1, 1)),
    ]
    const scene = new PickingScene()
    const meshes: Mesh[] = []
    placements.forEach((matrix, index) => {
      const ownGeometry = new BufferGeometry().copy(geometry)
      scene.add(`knot-${index}`, {
        ownedPositions: ownGeometry.getAttribute('position').array as Float32Array,
        ownedIndices: ownGeometry.index!.array as Uint16Array,
        ownedBvhRoots: roots.map((root) => root.slice(0)),
        matrixWorld: matrix.elements,
      })
      const mesh = new Mesh(geometry, new MeshBasicMaterial({ side: DoubleSide }))
      mesh.name = `knot-${index}`
      mesh.raycast = acceleratedRaycast
      mesh.matrixAutoUpdate = false
      mesh.matrix.copy(matrix)
      mesh.updateMatrixWorld(true)
      meshes.push(mesh)
    })
    const coordinate = fc.double({ min: -6, max: 6, noNaN: true })
    fc.assert(
      fc.property(
        fc.tuple(coordinate, coordinate, coordinate),
        fc.tuple(coordinate, coordinate, coordinate),
        (origin, target) => {
          const direction = new Vector3(...target).sub(new Vector3(...origin))
          fc.pre(direction.length() > 1e-3)
          const ray: PickRay = { origin, direction: direction.toArray() }
          const raycaster = new Raycaster(new Vector3(...origin), direction.clone().normalize())
          raycaster.firstHitOnly = true
          const expected = raycaster.intersectObjects(meshes, false)[0]
          const actual = scene.raycast(ray)
          if (!expected) {
            expect(actual).toBeNull()
            return
          }
          expect(actual).not.toBeNull()
          expect(actual!.distance).toBeCloseTo(expected.distance, 4)
          // Two meshes can touch at the hit; then either id is right, but the point is the same.
          if (Math.abs(actual!.distance - expected.distance) < 1e-6) {
            expect(rounded(actual!.point)).toEqual(rounded(expected.point.toArray()))
          }
        },
      ),
      { numRuns: 400, seed: 20261125 },
    )
  })
})
