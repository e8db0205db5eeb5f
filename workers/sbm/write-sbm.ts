import { BVH_CHUNK_TYPE } from './bvh-chunk'
import { type BvhChunkEntryInput, encodeBvhChunk, type VertexCodecEncoder } from './bvh-chunk-write'
import { writeGlb } from './glb'
import { type SbmHeader, sbmHeaderToJson } from './sbm-header'

/** Everything an SBM file is made of, before assembly. */
export interface SbmParts {
  /** glTF 2.0 JSON whose buffer 0 is `bin` (as a GLB writer produced it). */
  json: Record<string, unknown>
  bin: Uint8Array | null
  header: Omit<SbmHeader, 'version' | 'units' | 'upAxis'>
  /** BVHs keyed by the mesh/primitive indices of `json`. */
  bvhEntries: BvhChunkEntryInput[]
  /** meshoptimizer's encoder to compress BVH nodes; without it they are stored raw. */
  bvhEncoder?: VertexCodecEncoder
}

/**
 * Assembles an SBM file: the glTF JSON with the `asset.extras.sbm` marker, the BIN chunk, and the
 * BVH chunk. The JSON is not otherwise touched, so the result stays a valid GLB for any viewer.
 */
export function writeSbm(parts: SbmParts): Uint8Array<ArrayBuffer> {
  const asset = { ...((parts.json.asset as Record<string, unknown> | undefined) ?? {}) }
  asset.version = '2.0'
  asset.extras = {
    ...((asset.extras as Record<string, unknown> | undefined) ?? {}),
    sbm: sbmHeaderToJson(parts.header),
  }
  const json = { ...parts.json, asset }
  const extraChunks =
    parts.bvhEntries.length > 0
      ? [{ type: BVH_CHUNK_TYPE, data: encodeBvhChunk(parts.bvhEntries, parts.bvhEncoder) }]
      : []
  return writeGlb({ json, bin: parts.bin, extraChunks })
}
