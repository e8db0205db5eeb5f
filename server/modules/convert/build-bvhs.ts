import { type Accessor, type Document, Primitive } from '@gltf-transform/core'
import { BufferAttribute, BufferGeometry } from 'three'
import { MeshBVH } from 'three-mesh-bvh'
import type { BvhChunkEntryInput } from '../../../workers/sbm/bvh-chunk-write'

/**
 * Builds a three-mesh-bvh (CENTER split, its default and the fastest to build; SAH gives no
 * picking gain on building geometry) for every indexed triangle primitive, in the order the glTF
 * writer numbers meshes and primitives. Building reorders each primitive's triangles in place;
 * the reordered index is written back to the accessor, so the stored BVH needs no index of its own
 * and a reader uses the file's index as is. An index shared by primitives with different vertices
 * is cloned first, since one order cannot suit two BVHs.
 */
export function buildDocumentBvhs(document: Document): BvhChunkEntryInput[] {
  const entries: BvhChunkEntryInput[] = []
  const builtFor = new Map<Accessor, { positions: Accessor; roots: ArrayBuffer[] }>()
  document
    .getRoot()
    .listMeshes()
    .forEach((mesh, meshIndex) => {
      mesh.listPrimitives().forEach((primitive, primitiveIndex) => {
        const positions = primitive.getAttribute('POSITION')
        let indices = primitive.getIndices()
        if (primitive.getMode() !== Primitive.Mode.TRIANGLES || !positions || !indices) return
        const triangleCount = Math.floor(indices.getCount() / 3)
        if (triangleCount === 0) return
        const previous = builtFor.get(indices)
        if (previous && previous.positions === positions) {
          entries.push({ meshIndex, primitiveIndex, triangleCount, roots: previous.roots })
          return
        }
        if (previous) {
          indices = indices.clone()
          primitive.setIndices(indices)
        }
        const roots = buildPrimitiveBvh(positions, indices)
        builtFor.set(indices, { positions, roots })
        entries.push({ meshIndex, primitiveIndex, triangleCount, roots })
      })
    })
  return entries
}

function buildPrimitiveBvh(positions: Accessor, indices: Accessor): ArrayBuffer[] {
  let indexArray = indices.getArray()!
  if (!(indexArray instanceof Uint16Array || indexArray instanceof Uint32Array)) {
    indexArray = Uint16Array.from(indexArray)
  }
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new BufferAttribute(positions.getArray()!, 3))
  geometry.setIndex(new BufferAttribute(indexArray, 1))
  const bvh = new MeshBVH(geometry)
  // MeshBVH sorted the array in place; setArray also covers the Uint8 → Uint16 copy above.
  indices.setArray(indexArray)
  return MeshBVH.serialize(bvh, { cloneBuffers: false }).roots
}
