import type { BufferGeometry } from 'three'
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh'

/**
 * Wraps stored roots as a MeshBVH over `geometry`, whose index must already be the one the BVH
 * was built with (SBM stores it as the primitive's index). No copy, no rebuild. `version: 1` is
 * required at run time although three-mesh-bvh's typings omit it: without it the library assumes
 * an old layout and rewrites the node offsets in place.
 */
export function deserializeStoredBvh(
  roots: ArrayBuffer[],
  index: Uint32Array | Uint16Array,
  geometry: BufferGeometry,
): MeshBVH {
  const serialized = { version: 1, roots, index, indirectBuffer: null } as SerializedBVH
  return MeshBVH.deserialize(serialized, geometry, { setIndex: false })
}
