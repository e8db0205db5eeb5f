import { MeshoptDecoder } from 'meshoptimizer/decoder'
import { buildBvhRoots, needsStoredBvh } from '../sbm/decode-sbm'
import type { DecodedSbm } from '../sbm/decoded-sbm'
import { decodeArrivingBvhChunk } from '../sbm/decode-while-arriving'
import type { LapTimer } from '../sbm/load-timings'
import { type PostedModelSource, receivePostedModel } from '../sbm/posted-bytes'

/** Stored BVH roots by mesh primitive (`<mesh>/<primitive>`), decoded and validated. */
export type StoredBvhs = Map<string, { triangleCount: number; roots: ArrayBuffer[] }>

/**
 * Decodes the stored BVHs of a model from a copy of its file's tail, posted by the downloading
 * thread as it arrives (bvh-chunk-tap.ts), each entry as soon as its bytes are in (issue 23.2:
 * on the picking worker's core, beside the decode worker). A tree that is not sound rejects
 * (SbmError: the file is refused, as the decode worker refused it before), as does a download
 * that fails or stops short. A tail that is not a BVH chunk gives none.
 */
export async function decodePostedBvhChunk(
  source: PostedModelSource,
  timer: LapTimer,
): Promise<StoredBvhs> {
  const arriving = receivePostedModel(source)
  await MeshoptDecoder.ready
  const stored: StoredBvhs = new Map()
  await decodeArrivingBvhChunk(arriving, 0, MeshoptDecoder, timer, (entry, roots) => {
    stored.set(`${entry.meshIndex}/${entry.primitiveIndex}`, {
      triangleCount: entry.triangleCount,
      roots,
    })
  })
  await arriving.whenReceived(arriving.bytes.byteLength)
  timer.lap('waitForBytes')
  return stored
}

/**
 * Gives each primitive of a picking copy whose stored BVH was left to this thread
 * (`storedBvhsElsewhere`) its decoded roots. The decode worker matched every stored entry to its
 * primitive on the whole file; a primitive whose roots are not here anyway (its file's BVH chunk
 * was not where the tap looked) gets a BVH built over its triangles, so it is still pickable.
 */
export function attachStoredBvhs(copy: DecodedSbm, stored: StoredBvhs): void {
  for (const primitive of copy.primitives) {
    if (!needsStoredBvh(primitive)) continue
    const found = stored.get(`${primitive.meshIndex}/${primitive.primitiveIndex}`)
    const roots =
      found && found.triangleCount === primitive.indexCount / 3 && found.roots.length > 0
        ? found.roots
        : buildBvhRoots(copy.positions, copy.indices, primitive)
    primitive.bvhRootIndices = roots.map((root) => copy.bvhRoots.push(root) - 1)
  }
}
