import { chunkTypeFromText } from './glb'
import { SbmError } from './sbm-error'

/**
 * The SBM chunk that stores BVHs ('BVH\0'). GLB readers skip chunk types they do not know, so
 * any glTF viewer still opens the file. Layout: docs/formats/sbm.md.
 */
export const BVH_CHUNK_TYPE = chunkTypeFromText('BVH\0')
/** Layout version of the BVH chunk (independent of the SBM marker version). */
export const BVH_CHUNK_LAYOUT_VERSION = 1
/** Bytes of one three-mesh-bvh node: 6 float bounds, one uint32 offset, one uint32 count/axis. */
export const BVH_NODE_BYTES = 32
/** Bytes of the chunk header: layout version, entry count. */
export const BVH_CHUNK_HEADER_BYTES = 8
/** Bytes of one entry: mesh, primitive, triangle count, root count, encoding, flags. */
export const BVH_ENTRY_BYTES = 24
/** Bytes of one root record: node count, stored byte length. */
export const BVH_ROOT_RECORD_BYTES = 8
/**
 * Deepest tree accepted. three-mesh-bvh builds at most 40 levels by default and raycasts
 * recursively, so a deeper stored tree can only come from a damaged or hostile file.
 */
export const BVH_MAX_DEPTH = 128

/** How a root's node bytes are stored. */
export const BvhEncoding = {
  /** The node bytes as three-mesh-bvh holds them in memory. */
  raw: 0,
  /** meshoptimizer's lossless vertex codec over 32-byte nodes (decodes at GB/s). */
  meshopt: 1,
} as const
export type BvhEncoding = (typeof BvhEncoding)[keyof typeof BvhEncoding]

/** One stored root, still encoded; `data` is a view into the chunk. */
export interface StoredBvhRoot {
  nodeCount: number
  data: Uint8Array
}

/** The stored BVH of one mesh primitive. */
export interface StoredBvhEntry {
  meshIndex: number
  primitiveIndex: number
  /** Must equal the primitive's index count ÷ 3, else the entry belongs to other geometry. */
  triangleCount: number
  encoding: BvhEncoding
  roots: StoredBvhRoot[]
}

/**
 * Splits a BVH chunk into entries without decoding them, checking that every count and length
 * fits inside the chunk and that no primitive has two entries. Throws {@link SbmError}.
 */
export function parseBvhChunk(chunk: Uint8Array): StoredBvhEntry[] {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  if (chunk.byteLength < BVH_CHUNK_HEADER_BYTES) throw new SbmError('the BVH chunk is too short')
  const layoutVersion = view.getUint32(0, true)
  if (layoutVersion !== BVH_CHUNK_LAYOUT_VERSION) {
    throw new SbmError(`BVH chunk layout ${layoutVersion} is unknown`)
  }
  const entryCount = view.getUint32(4, true)
  let recordOffset = BVH_CHUNK_HEADER_BYTES
  if (entryCount > (chunk.byteLength - recordOffset) / BVH_ENTRY_BYTES) {
    throw new SbmError(`the BVH chunk declares ${entryCount} entries, more than it can hold`)
  }
  const headers: { entry: Omit<StoredBvhEntry, 'roots'>; rootCount: number }[] = []
  const seen = new Set<string>()
  let totalRoots = 0
  for (let index = 0; index < entryCount; index++) {
    const base = recordOffset + index * BVH_ENTRY_BYTES
    const encoding = view.getUint32(base + 16, true)
    if (encoding !== BvhEncoding.raw && encoding !== BvhEncoding.meshopt) {
      throw new SbmError(`BVH entry ${index} has unknown encoding ${encoding}`)
    }
    const entry = {
      meshIndex: view.getUint32(base, true),
      primitiveIndex: view.getUint32(base + 4, true),
      triangleCount: view.getUint32(base + 8, true),
      encoding: encoding as BvhEncoding,
    }
    const rootCount = view.getUint32(base + 12, true)
    const key = `${entry.meshIndex}/${entry.primitiveIndex}`
    if (seen.has(key)) throw new SbmError(`two BVH entries for mesh primitive ${key}`)
    seen.add(key)
    headers.push({ entry, rootCount })
    totalRoots += rootCount
  }
  recordOffset += entryCount * BVH_ENTRY_BYTES
  if (totalRoots > (chunk.byteLength - recordOffset) / BVH_ROOT_RECORD_BYTES) {
    throw new SbmError('the BVH chunk declares more roots than it can hold')
  }
  let dataOffset = recordOffset + totalRoots * BVH_ROOT_RECORD_BYTES
  const entries: StoredBvhEntry[] = []
  for (const { entry, rootCount } of headers) {
    const roots: StoredBvhRoot[] = []
    for (let root = 0; root < rootCount; root++) {
      const nodeCount = view.getUint32(recordOffset, true)
      const storedByteLength = view.getUint32(recordOffset + 4, true)
      recordOffset += BVH_ROOT_RECORD_BYTES
      if (nodeCount === 0) throw new SbmError('a stored BVH root has no nodes')
      if (entry.encoding === BvhEncoding.raw && storedByteLength !== nodeCount * BVH_NODE_BYTES) {
        throw new SbmError('a raw BVH root length does not match its node count')
      }
      if (storedByteLength > chunk.byteLength - dataOffset) {
        throw new SbmError('a BVH root runs past the end of its chunk')
      }
      roots.push({ nodeCount, data: chunk.subarray(dataOffset, dataOffset + storedByteLength) })
      dataOffset += Math.ceil(storedByteLength / 4) * 4
    }
    entries.push({ ...entry, roots })
  }
  return entries
}

/** The part of meshoptimizer's decoder that BVH decoding needs (so tests can pass the real one). */
export interface VertexCodecDecoder {
  decodeVertexBuffer(target: Uint8Array, count: number, size: number, source: Uint8Array): void
}

/**
 * Decodes one entry's roots into the standalone ArrayBuffers three-mesh-bvh needs (it views each
 * root from byte 0), then validates each tree so a hostile file cannot make a raycast loop or
 * read outside the geometry. Throws {@link SbmError}.
 */
export function decodeBvhRoots(entry: StoredBvhEntry, decoder: VertexCodecDecoder): ArrayBuffer[] {
  return entry.roots.map((root) => {
    const output = new ArrayBuffer(root.nodeCount * BVH_NODE_BYTES)
    const target = new Uint8Array(output)
    if (entry.encoding === BvhEncoding.raw) {
      target.set(root.data)
    } else {
      try {
        decoder.decodeVertexBuffer(target, root.nodeCount, BVH_NODE_BYTES, root.data)
      } catch (error) {
        throw new SbmError(`a BVH root does not decode: ${(error as Error).message}`)
      }
    }
    validateBvhRoot(output, entry.triangleCount)
    return output
  })
}

/**
 * Checks that a root is a well-formed three-mesh-bvh tree over `triangleCount` triangles: nodes
 * packed in depth-first order (left child right after its parent, right child forward of it and
 * inside the parent's span), split axis 0–2, leaves addressing only existing triangles, no node
 * left unvisited, depth within {@link BVH_MAX_DEPTH}. Runs in O(nodes). Throws {@link SbmError}.
 */
export function validateBvhRoot(root: ArrayBuffer, triangleCount: number): void {
  const nodeCount = root.byteLength / BVH_NODE_BYTES
  if (!Number.isInteger(nodeCount) || nodeCount === 0) {
    throw new SbmError('a BVH root is not a whole number of nodes')
  }
  const uint32 = new Uint32Array(root)
  const uint16 = new Uint16Array(root)
  // Each stack frame: node index, end of its span (exclusive), depth.
  const stack: number[] = [0, nodeCount, 1]
  let visited = 0
  while (stack.length > 0) {
    const depth = stack.pop()!
    const end = stack.pop()!
    const node = stack.pop()!
    visited++
    if (depth > BVH_MAX_DEPTH) throw new SbmError('a BVH is deeper than any valid build')
    const isLeaf = uint16[node * 16 + 15] === 0xffff
    if (isLeaf) {
      if (end !== node + 1) throw new SbmError('a BVH leaf claims a span of several nodes')
      const offset = uint32[node * 8 + 6]!
      const count = uint16[node * 16 + 14]!
      if (count === 0 || offset + count > triangleCount) {
        throw new SbmError('a BVH leaf addresses triangles the geometry does not have')
      }
    } else {
      const right = node + uint32[node * 8 + 6]!
      const splitAxis = uint32[node * 8 + 7]!
      if (splitAxis > 2) throw new SbmError('a BVH node has a split axis other than x, y or z')
      if (right <= node + 1 || right >= end) {
        throw new SbmError('a BVH node points at a child outside its span')
      }
      stack.push(node + 1, right, depth + 1, right, end, depth + 1)
    }
  }
  if (visited !== nodeCount) throw new SbmError('a BVH root holds nodes outside its tree')
}
