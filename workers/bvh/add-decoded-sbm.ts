import type { DecodedSbm } from '../sbm/decoded-sbm'
import type { PickingScene } from './picking-scene'

/** A mesh added from an SBM: its picking id and what it is in the model. */
export interface PickableSbmMesh {
  meshId: string
  /** glTF node and mesh the placement came from, and the node's name (else its mesh's). */
  nodeIndex: number
  meshIndex: number
  name: string
}

/** Where a model stands in the picking scene: raised by `liftMeters` (a floor's elevation). */
export interface PickingPlacement {
  liftMeters?: number
}

/**
 * Adds every placed triangle primitive of a decoded SBM to a picking scene, with ids
 * `<modelId>#<node>.<primitive>`, replacing the model's earlier meshes. Placements of the same
 * geometry share one BVH. The decoded buffers are kept by the scene (views, no copies), and so
 * are its placements, which `liftMeters` raises.
 */
export function addDecodedSbm(
  scene: PickingScene,
  modelId: string,
  decoded: DecodedSbm,
  { liftMeters = 0 }: PickingPlacement = {},
): { meshes: PickableSbmMesh[]; triangleCount: number } {
  scene.removeByPrefix(`${modelId}#`)
  if (liftMeters !== 0) {
    for (const instance of decoded.instances) {
      instance.matrixWorld[13] = (instance.matrixWorld[13] ?? 0) + liftMeters
    }
  }
  const meshes: PickableSbmMesh[] = []
  let triangleCount = 0
  const firstPlacement = new Map<number, string>()
  for (const instance of decoded.instances) {
    for (const primitiveId of decoded.meshes[instance.meshIndex]!.primitiveIds) {
      const primitive = decoded.primitives[primitiveId]!
      if (primitive.indexCount === 0) continue
      const meshId = `${modelId}#${instance.nodeIndex}.${primitive.primitiveIndex}`
      const shared = firstPlacement.get(primitiveId)
      if (shared) {
        scene.add(meshId, { geometryOf: shared, matrixWorld: instance.matrixWorld })
      } else {
        const vertexStart = primitive.vertexOffset * 3
        scene.add(meshId, {
          ownedPositions: decoded.positions.subarray(
            vertexStart,
            vertexStart + primitive.vertexCount * 3,
          ),
          ownedIndices: decoded.indices.subarray(
            primitive.indexOffset,
            primitive.indexOffset + primitive.indexCount,
          ),
          ownedBvhRoots: primitive.bvhRootIndices.map((index) => decoded.bvhRoots[index]!),
          matrixWorld: instance.matrixWorld,
        })
        firstPlacement.set(primitiveId, meshId)
      }
      triangleCount += primitive.indexCount / 3
      meshes.push({
        meshId,
        nodeIndex: instance.nodeIndex,
        meshIndex: instance.meshIndex,
        name: instance.name || (decoded.meshes[instance.meshIndex]?.name ?? ''),
      })
    }
  }
  return { meshes, triangleCount }
}
