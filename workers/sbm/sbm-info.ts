import { readSbm } from './read-sbm'
import type { SbmFloor, SbmRole, SbmSource } from './sbm-header'

/** One mesh as `sbm:info` reports it. */
export interface SbmMeshInfo {
  index: number
  name: string
  primitiveCount: number
  triangleCount: number
  /** True when every triangle primitive of the mesh has a BVH in the file. */
  hasStoredBvh: boolean
}

/** A one-look description of an SBM file, without decoding its geometry. */
export interface SbmInfo {
  role: SbmRole
  floors: SbmFloor[]
  source: SbmSource | null
  sizeBytes: number
  meshCount: number
  triangleCount: number
  /** Meshes whose triangle primitives all have stored BVHs. */
  meshesWithStoredBvh: number
  isMeshoptCompressed: boolean
  meshes: SbmMeshInfo[]
}

type Json = Record<string, unknown>

/**
 * Describes an SBM file from its validated container and JSON alone (see {@link readSbm}):
 * meshes, triangle counts from the index accessors, which meshes have stored BVHs, role and
 * floors. Throws {@link SbmError} for a file that is not a valid SBM.
 */
export function describeSbm(input: Uint8Array): SbmInfo {
  const file = readSbm(input)
  const accessors = (Array.isArray(file.json.accessors) ? file.json.accessors : []) as Json[]
  const countOf = (accessor: unknown) =>
    typeof accessor === 'number' ? Number(accessors[accessor]?.count ?? 0) : 0
  const stored = new Set(
    file.bvhEntries.map((entry) => `${entry.meshIndex}/${entry.primitiveIndex}`),
  )
  const meshes = (Array.isArray(file.json.meshes) ? file.json.meshes : []).map(
    (value, index): SbmMeshInfo => {
      const mesh = (value ?? {}) as Json
      const primitives = (Array.isArray(mesh.primitives) ? mesh.primitives : []) as Json[]
      let triangleCount = 0
      let hasStoredBvh = true
      primitives.forEach((primitive, primitiveIndex) => {
        if ((primitive.mode ?? 4) !== 4) return
        const attributes = (primitive.attributes ?? {}) as Json
        const elementCount =
          primitive.indices === undefined
            ? countOf(attributes.POSITION)
            : countOf(primitive.indices)
        triangleCount += Math.floor(elementCount / 3)
        if (elementCount >= 3 && !stored.has(`${index}/${primitiveIndex}`)) hasStoredBvh = false
      })
      return {
        index,
        name: typeof mesh.name === 'string' ? mesh.name : '',
        primitiveCount: primitives.length,
        triangleCount,
        hasStoredBvh,
      }
    },
  )
  const extensionsUsed = Array.isArray(file.json.extensionsUsed) ? file.json.extensionsUsed : []
  return {
    role: file.header.role,
    floors: file.header.floors ?? [],
    source: file.header.source ?? null,
    sizeBytes: input.byteLength,
    meshCount: meshes.length,
    triangleCount: meshes.reduce((sum, mesh) => sum + mesh.triangleCount, 0),
    meshesWithStoredBvh: meshes.filter((mesh) => mesh.hasStoredBvh).length,
    isMeshoptCompressed: extensionsUsed.includes('EXT_meshopt_compression'),
    meshes,
  }
}
