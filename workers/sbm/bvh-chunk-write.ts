import {
  BVH_CHUNK_HEADER_BYTES,
  BVH_CHUNK_LAYOUT_VERSION,
  BVH_ENTRY_BYTES,
  BVH_NODE_BYTES,
  BVH_ROOT_RECORD_BYTES,
  BvhEncoding,
} from './bvh-chunk'

/** The BVH of one mesh primitive, as three-mesh-bvh's `MeshBVH.serialize(...).roots` gives it. */
export interface BvhChunkEntryInput {
  meshIndex: number
  primitiveIndex: number
  triangleCount: number
  roots: ArrayBuffer[]
}

/** The part of meshoptimizer's encoder the BVH chunk uses. */
export interface VertexCodecEncoder {
  encodeVertexBuffer(source: Uint8Array, count: number, size: number): Uint8Array
}

/**
 * Writes the BVH chunk (layout in docs/formats/sbm.md). With an encoder, each entry's roots are
 * compressed with meshoptimizer's vertex codec when that is smaller (typically ~0.55× of the raw
 * nodes), which keeps the file small while decoding at memory speed; otherwise stored raw.
 */
export function encodeBvhChunk(
  entries: BvhChunkEntryInput[],
  encoder?: VertexCodecEncoder,
): Uint8Array<ArrayBuffer> {
  const encoded = entries.map((entry) => {
    const raw = entry.roots.map((root) => new Uint8Array(root))
    if (encoder) {
      const compressed = raw.map((bytes) =>
        encoder.encodeVertexBuffer(bytes, bytes.byteLength / BVH_NODE_BYTES, BVH_NODE_BYTES),
      )
      const compressedBytes = compressed.reduce((sum, bytes) => sum + bytes.byteLength, 0)
      const rawBytes = raw.reduce((sum, bytes) => sum + bytes.byteLength, 0)
      if (compressedBytes < rawBytes) {
        return { entry, encoding: BvhEncoding.meshopt, stored: compressed }
      }
    }
    return { entry, encoding: BvhEncoding.raw, stored: raw }
  })

  const rootCount = encoded.reduce((sum, item) => sum + item.stored.length, 0)
  const tableBytes =
    BVH_CHUNK_HEADER_BYTES + entries.length * BVH_ENTRY_BYTES + rootCount * BVH_ROOT_RECORD_BYTES
  const dataBytes = encoded.reduce(
    (sum, item) =>
      sum + item.stored.reduce((inner, bytes) => inner + Math.ceil(bytes.byteLength / 4) * 4, 0),
    0,
  )
  const output = new Uint8Array(tableBytes + dataBytes)
  const view = new DataView(output.buffer)
  view.setUint32(0, BVH_CHUNK_LAYOUT_VERSION, true)
  view.setUint32(4, entries.length, true)
  let entryOffset = BVH_CHUNK_HEADER_BYTES
  let rootRecordOffset = BVH_CHUNK_HEADER_BYTES + entries.length * BVH_ENTRY_BYTES
  let dataOffset = tableBytes
  for (const { entry, encoding, stored } of encoded) {
    view.setUint32(entryOffset, entry.meshIndex, true)
    view.setUint32(entryOffset + 4, entry.primitiveIndex, true)
    view.setUint32(entryOffset + 8, entry.triangleCount, true)
    view.setUint32(entryOffset + 12, stored.length, true)
    view.setUint32(entryOffset + 16, encoding, true)
    view.setUint32(entryOffset + 20, 0, true)
    entryOffset += BVH_ENTRY_BYTES
    stored.forEach((bytes, rootIndex) => {
      view.setUint32(rootRecordOffset, entry.roots[rootIndex]!.byteLength / BVH_NODE_BYTES, true)
      view.setUint32(rootRecordOffset + 4, bytes.byteLength, true)
      rootRecordOffset += BVH_ROOT_RECORD_BYTES
      output.set(bytes, dataOffset)
      dataOffset += Math.ceil(bytes.byteLength / 4) * 4
    })
  }
  return output
}
