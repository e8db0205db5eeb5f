import type { LoadTimings } from './load-timings'
import type { SbmHeader } from './sbm-header'

/**
 * One mesh primitive of a decoded SBM: where its vertices and indices sit in the shared buffers
 * of {@link DecodedSbm}. Vertex ranges index `positions` (×3), `normals` (×3) and `uvs` (×2).
 */
export interface DecodedPrimitive {
  meshIndex: number
  primitiveIndex: number
  materialIndex: number | null
  vertexOffset: number
  vertexCount: number
  indexOffset: number
  indexCount: number
  hasUvs: boolean
  /** Which entries of `bvhRoots` form this primitive's BVH (three-mesh-bvh `roots`). */
  bvhRootIndices: number[]
  /** True when the BVH came from the file; false when the decoder had to build it. */
  isBvhStored: boolean
  /** min x, y, z, max x, y, z in the primitive's local space, in metres. */
  boundingBox: [number, number, number, number, number, number]
  /** centre x, y, z and radius in local space, as three.js would compute it. */
  boundingSphere: [number, number, number, number]
}

/** One glTF mesh: a name and its primitives (indices into `primitives`). */
export interface DecodedMesh {
  name: string
  primitiveIds: number[]
}

/** One placement of a mesh in the scene (a glTF node with a mesh). */
export interface DecodedInstance {
  nodeIndex: number
  name: string
  meshIndex: number
  /** Column-major world matrix, as three.js `Matrix4.elements`. */
  matrixWorld: number[]
}

/** A texture slot of a material. */
export interface DecodedTextureReference {
  textureIndex: number
  /** KHR_texture_transform, when present. */
  transform?: { offset: [number, number]; scale: [number, number]; rotation: number }
}

/** A glTF metallic-roughness material as plain data. */
export interface DecodedMaterial {
  name: string
  baseColorFactor: [number, number, number, number]
  baseColorTexture: DecodedTextureReference | null
  metallicFactor: number
  roughnessFactor: number
  metallicRoughnessTexture: DecodedTextureReference | null
  normalTexture: DecodedTextureReference | null
  normalScale: number
  occlusionTexture: DecodedTextureReference | null
  emissiveFactor: [number, number, number]
  emissiveTexture: DecodedTextureReference | null
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND'
  alphaCutoff: number
  isDoubleSided: boolean
  isUnlit: boolean
}

/** A texture: which image, and the glTF sampler's WebGL enums. */
export interface DecodedTexture {
  imageIndex: number | null
  magFilter: number | null
  minFilter: number | null
  wrapS: number
  wrapT: number
}

/** An embedded image: its bytes are `imageBytes[byteOffset, byteOffset + byteLength)`. */
export interface DecodedImage {
  mimeType: string
  byteOffset: number
  byteLength: number
}

/** Counts that describe a decode, for the UI and the benchmarks. */
export interface DecodeStats {
  triangleCount: number
  vertexCount: number
  storedBvhCount: number
  builtBvhCount: number
  /** Points, lines and strips are not part of a building's pickable surface; they are left out. */
  skippedPrimitiveCount: number
}

/**
 * An SBM decoded for three.js and picking: all geometry in a few large typed arrays (cheap to
 * transfer between threads) plus plain-data tables describing meshes, materials and textures.
 */
export interface DecodedSbm {
  header: SbmHeader
  positions: Float32Array<ArrayBuffer>
  /** Null when decoded for picking only. */
  normals: Float32Array<ArrayBuffer> | null
  /** Null when no primitive has texture coordinates, or when decoded for picking only. */
  uvs: Float32Array<ArrayBuffer> | null
  /** Per-primitive local vertex indices, already in the order their BVH expects. */
  indices: Uint32Array<ArrayBuffer>
  /** One buffer per BVH root, because three-mesh-bvh views each root from its byte 0. */
  bvhRoots: ArrayBuffer[]
  primitives: DecodedPrimitive[]
  meshes: DecodedMesh[]
  instances: DecodedInstance[]
  materials: DecodedMaterial[]
  textures: DecodedTexture[]
  images: DecodedImage[]
  imageBytes: Uint8Array<ArrayBuffer> | null
  stats: DecodeStats
  /**
   * Copies of `positions` and `indices` for the picking worker, when the decode was asked for
   * them (`copyGeometryForPicking`); takeForPicking moves them into its copy.
   */
  pickingGeometry?: { positions: Float32Array<ArrayBuffer>; indices: Uint32Array<ArrayBuffer> }
  /**
   * Set by a `positionsAndBvhs` share decode (DecodeSbmOptions.share): `indices`, `normals` and
   * `uvs` come from an `indicesNormalsAndUvs` decode of the same file on another worker, put in
   * with {@link joinSplitDecode} before the model is drawn or picked; `rebuiltIndices` are the
   * ranges this share built BVHs over (reordered), which replace that decode's.
   */
  secondShare?: { rebuiltIndices: RebuiltIndices[] }
  /** Where the decode's time went, in ms per phase (see load-timings.ts); the worker adds its own. */
  timings: LoadTimings
}

/** The buffers to list in `postMessage`/`Comlink.transfer` so a decode moves without copies. */
export function transferablesOf(decoded: DecodedSbm): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [decoded.positions.buffer, decoded.indices.buffer]
  if (decoded.normals) buffers.push(decoded.normals.buffer)
  if (decoded.uvs) buffers.push(decoded.uvs.buffer)
  if (decoded.imageBytes) buffers.push(decoded.imageBytes.buffer)
  for (const { indices } of decoded.secondShare?.rebuiltIndices ?? []) buffers.push(indices.buffer)
  if (decoded.pickingGeometry) {
    buffers.push(decoded.pickingGeometry.positions.buffer, decoded.pickingGeometry.indices.buffer)
  }
  buffers.push(...decoded.bvhRoots)
  return buffers
}

/**
 * What picking needs (positions, indices, BVH roots and the tables), made where the decode ran.
 * The decode worker sends it along so the main thread can hand it to the picking worker by
 * transfer: one fetch and one decode feed both threads, and the main thread never copies
 * geometry. Positions and indices are copied (both threads keep them: the GPU upload needs
 * them too); the BVH roots **move** to the copy and `decoded` keeps none, since picking is the
 * picking worker's alone (the main thread never raycasts) — 16 MB less to copy and to hold for
 * a 2 M-triangle building (issue 23.2).
 */
export function takeForPicking(decoded: DecodedSbm): DecodedSbm {
  // Copied during the decode when it was asked to (much of it while the file arrived).
  // The rebuilt ranges of a split decode's first share go to the join once, with `decoded`.
  const { pickingGeometry, secondShare: _secondShare, ...rest } = decoded
  delete decoded.pickingGeometry
  const copy: DecodedSbm = {
    ...rest,
    positions: pickingGeometry?.positions ?? decoded.positions.slice(),
    normals: null,
    uvs: null,
    indices: pickingGeometry?.indices ?? decoded.indices.slice(),
    // Own placements: the scene bakes a floor's lift into these, which must not move the model
    // drawn from the same decode (one message carries both, so shared objects stay shared).
    instances: decoded.instances.map((instance) => ({
      ...instance,
      matrixWorld: instance.matrixWorld.slice(),
    })),
    bvhRoots: decoded.bvhRoots,
    materials: [],
    textures: [],
    images: [],
    imageBytes: null,
  }
  decoded.bvhRoots = []
  return copy
}

/** One primitive's indices as a split decode's first share reordered them (built BVH). */
export interface RebuiltIndices {
  indexOffset: number
  indices: Uint32Array<ArrayBuffer>
}

/** A decode's model and, when asked for, its picking copy (DecodedModel's two parts). */
export interface SplitDecodePart {
  model: DecodedSbm
  pickingCopy: DecodedSbm | null
}

/**
 * The two shares of a split decode (DecodeSbmOptions.share) as one: the first share's model
 * and picking copy with the second's indices, normals and uvs moved in (no copy of the arrays;
 * ranges the first share rebuilt are written over them). A first share that did not split is
 * returned as it is. Throws when the two do not fit together (another file, or not the second
 * share), so one file's triangles are never drawn over another's vertices.
 */
export function joinSplitDecode(first: SplitDecodePart, second: SplitDecodePart): SplitDecodePart {
  const { secondShare, ...model } = first.model
  if (!secondShare) return first
  const vertexCount = model.stats.vertexCount
  const hasAnyUvs = model.primitives.some((primitive) => primitive.hasUvs)
  const indexEnd = Math.max(
    0,
    ...model.primitives.map((primitive) => primitive.indexOffset + primitive.indexCount),
  )
  const other = second.model
  const isSameFile =
    other.stats.vertexCount === vertexCount &&
    other.stats.triangleCount === model.stats.triangleCount &&
    other.positions.length === 0 &&
    other.normals?.length === vertexCount * 3 &&
    (hasAnyUvs ? other.uvs?.length === vertexCount * 2 : other.uvs === null) &&
    other.indices.length >= indexEnd &&
    other.primitives.every(
      (primitive, index) => primitive.indexOffset === model.primitives[index]?.indexOffset,
    ) &&
    (first.pickingCopy === null || second.pickingCopy?.indices.length === other.indices.length)
  if (!isSameFile) throw new Error('the shares of a split decode do not fit together')
  const pickingIndices = first.pickingCopy ? second.pickingCopy!.indices : null
  for (const { indexOffset, indices } of secondShare.rebuiltIndices) {
    other.indices.set(indices, indexOffset)
    pickingIndices?.set(indices, indexOffset)
  }
  return {
    model: { ...model, indices: other.indices, normals: other.normals, uvs: other.uvs },
    pickingCopy:
      first.pickingCopy && pickingIndices
        ? { ...first.pickingCopy, indices: pickingIndices }
        : null,
  }
}
