import { BufferAttribute, BufferGeometry } from 'three'
import { MeshBVH } from 'three-mesh-bvh'
import type { SbmFloor, SbmRole } from '../../../workers/sbm/sbm-header'
import { writeSbm } from '../../../workers/sbm/write-sbm'

/** One named box of a test model: its size and where its centre sits, in metres. */
export interface TestBox {
  name: string
  size: [number, number, number]
  centre: [number, number, number]
  /** Linear RGB base colour. */
  color?: [number, number, number]
}

/**
 * Builds a real SBM file (GLB + marker + stored BVH chunk) of named boxes, one glTF mesh and
 * node per box, the way the converter lays them out. Tests use it to make buildings whose
 * surfaces are known exactly, so a pick can be checked to the centimetre.
 */
export function boxSbm(
  boxes: TestBox[],
  header: { role: SbmRole; floors?: SbmFloor[]; withStoredBvh?: boolean },
): Uint8Array<ArrayBuffer> {
  const binParts: Uint8Array[] = []
  let binLength = 0
  const bufferViews: Record<string, unknown>[] = []
  const accessors: Record<string, unknown>[] = []
  const append = (bytes: Uint8Array, target: number) => {
    const padding = (4 - (binLength % 4)) % 4
    if (padding) {
      binParts.push(new Uint8Array(padding))
      binLength += padding
    }
    bufferViews.push({ buffer: 0, byteOffset: binLength, byteLength: bytes.byteLength, target })
    binParts.push(bytes)
    binLength += bytes.byteLength
    return bufferViews.length - 1
  }
  const bvhEntries: {
    meshIndex: number
    primitiveIndex: number
    triangleCount: number
    roots: ArrayBuffer[]
  }[] = []
  const meshes: Record<string, unknown>[] = []
  const nodes: Record<string, unknown>[] = []
  const materials: Record<string, unknown>[] = []
  boxes.forEach((box, boxIndex) => {
    const { positions, normals, indices } = boxGeometry(box.size)
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(positions, 3))
    geometry.setIndex(new BufferAttribute(indices, 1))
    // MeshBVH reorders the index array in place: the file stores that order, as SBM requires.
    const bvh = new MeshBVH(geometry)
    if (header.withStoredBvh !== false) {
      bvhEntries.push({
        meshIndex: boxIndex,
        primitiveIndex: 0,
        triangleCount: indices.length / 3,
        roots: MeshBVH.serialize(bvh).roots,
      })
    }
    const positionView = append(new Uint8Array(positions.buffer), 34962)
    const normalView = append(new Uint8Array(normals.buffer), 34962)
    const indexView = append(new Uint8Array(indices.buffer), 34963)
    const half = box.size.map((value) => value / 2)
    accessors.push(
      {
        bufferView: positionView,
        componentType: 5126,
        count: positions.length / 3,
        type: 'VEC3',
        min: half.map((value) => -value),
        max: half,
      },
      { bufferView: normalView, componentType: 5126, count: normals.length / 3, type: 'VEC3' },
      { bufferView: indexView, componentType: 5125, count: indices.length, type: 'SCALAR' },
    )
    materials.push({
      name: `${box.name} material`,
      pbrMetallicRoughness: {
        baseColorFactor: [...(box.color ?? [0.8, 0.8, 0.75]), 1],
        metallicFactor: 0,
        roughnessFactor: 1,
      },
    })
    meshes.push({
      name: box.name,
      primitives: [
        {
          attributes: { POSITION: boxIndex * 3, NORMAL: boxIndex * 3 + 1 },
          indices: boxIndex * 3 + 2,
          material: boxIndex,
          mode: 4,
        },
      ],
    })
    nodes.push({ name: box.name, mesh: boxIndex, translation: box.centre })
  })
  const bin = new Uint8Array(binLength)
  let offset = 0
  for (const part of binParts) {
    bin.set(part, offset)
    offset += part.byteLength
  }
  const json = {
    asset: { version: '2.0', generator: 'twinscape box-sbm test builder' },
    buffers: [{ byteLength: binLength }],
    bufferViews,
    accessors,
    materials,
    meshes,
    nodes,
    scenes: [{ nodes: nodes.map((_, index) => index) }],
    scene: 0,
  }
  return writeSbm({
    json,
    bin,
    header: { role: header.role, ...(header.floors ? { floors: header.floors } : {}) },
    bvhEntries,
  })
}

/**
 * An axis-aligned box as 24 vertices (flat normals) and 36 indices, centred on the origin,
 * counter-clockwise seen from outside. Also used by tools/make-sbm-fixtures.ts.
 */
export function boxGeometry([sizeX, sizeY, sizeZ]: [number, number, number]) {
  const positions: number[] = []
  const normals: number[] = []
  const indices: number[] = []
  const half = [sizeX / 2, sizeY / 2, sizeZ / 2]
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const u = (axis + 1) % 3
      const v = (axis + 2) % 3
      const base = positions.length / 3
      for (const [du, dv] of [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ] as const) {
        const corner = [0, 0, 0]
        corner[axis] = sign * half[axis]!
        corner[u] = du * half[u]!
        corner[v] = dv * half[v]!
        positions.push(...corner)
        const normal = [0, 0, 0]
        normal[axis] = sign
        normals.push(...normal)
      }
      if (sign > 0) indices.push(base, base + 1, base + 2, base, base + 2, base + 3)
      else indices.push(base, base + 2, base + 1, base, base + 3, base + 2)
    }
  }
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    indices: new Uint32Array(indices),
  }
}
