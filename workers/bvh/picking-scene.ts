import { BufferAttribute, BufferGeometry, DoubleSide, Matrix3, Matrix4, Ray, Vector3 } from 'three'
import type { MeshBVH } from 'three-mesh-bvh'
import { deserializeStoredBvh } from '../sbm/deserialize-bvh'

/** A ray in world space, in metres. `direction` need not be normalised. */
export interface PickRay {
  origin: [number, number, number]
  direction: [number, number, number]
  /** Hits closer than this are ignored (world units along the ray). Default 0. */
  near?: number
  /** Hits farther than this are ignored. Default Infinity. */
  far?: number
}

/** The closest surface a ray hits. */
export interface PickHit {
  meshId: string
  /** World-space hit point. */
  point: [number, number, number]
  /** World-space unit face normal, turned to face the ray's origin (what a POI should stand on). */
  normal: [number, number, number]
  /** Triangle index in the mesh's index buffer (as stored, i.e. in BVH order). */
  faceIndex: number
  /** World distance from the ray's origin. */
  distance: number
}

/** Geometry and stored BVH for a pickable mesh; the buffers become the scene's (no copy). */
export interface PickableMeshInput {
  /** xyz per vertex. */
  ownedPositions: Float32Array
  /** Triangle indices in the order the BVH was built over. */
  ownedIndices: Uint32Array | Uint16Array
  /** three-mesh-bvh roots (`MeshBVH.serialize(bvh).roots`), each its own ArrayBuffer. */
  ownedBvhRoots: ArrayBuffer[]
  /** Column-major world matrix; identity when omitted. */
  matrixWorld?: ArrayLike<number>
}

/** Another placement of geometry already added under `geometryOf` (instancing, no copy). */
export interface PickableInstanceInput {
  geometryOf: string
  matrixWorld?: ArrayLike<number>
}

interface SharedGeometry {
  bvh: MeshBVH
  /** Local-space bounds of the whole BVH, from its root nodes. */
  localBounds: [number, number, number, number, number, number]
  triangleCount: number
  userCount: number
}

interface Entry {
  geometry: SharedGeometry
  matrixWorld: Matrix4
  inverseMatrix: Matrix4
  normalMatrix: Matrix3
  /** World-space axis-aligned bounds: min xyz, max xyz. */
  worldBounds: Float64Array
}

const scratchRay = new Ray()
const scratchPoint = new Vector3()
const scratchNormal = new Vector3()
const scratchOrigin = new Vector3()
const scratchDirection = new Vector3()

/**
 * The pickable surfaces of an open scene: one three-mesh-bvh per geometry, deserialized from the
 * SBM's stored BVH (never rebuilt), placed by world matrices. A raycast tests each mesh's world
 * box first and visits candidates nearest-first, so it stops as soon as no box can beat the best
 * hit. Pure: used by the picking worker, by tests in Node, and as a main-thread fallback.
 */
export class PickingScene {
  private readonly entries = new Map<string, Entry>()
  private candidates: { entry: Entry; meshId: string; entryDistance: number }[] = []

  /** Number of placed meshes. */
  get meshCount(): number {
    return this.entries.size
  }

  /** Triangles over all placed meshes (instances count each time they are placed). */
  get triangleCount(): number {
    let total = 0
    for (const entry of this.entries.values()) total += entry.geometry.triangleCount
    return total
  }

  /** Adds (or replaces) a mesh. The typed arrays of a {@link PickableMeshInput} are kept, not copied. */
  add(meshId: string, input: PickableMeshInput | PickableInstanceInput): void {
    let geometry: SharedGeometry
    if ('geometryOf' in input) {
      const source = this.entries.get(input.geometryOf)
      if (!source) throw new Error(`no pickable mesh '${input.geometryOf}' to share geometry with`)
      geometry = source.geometry
    } else {
      geometry = createSharedGeometry(input)
    }
    this.remove(meshId)
    geometry.userCount++
    const matrixWorld = new Matrix4()
    if (input.matrixWorld) matrixWorld.fromArray(Array.from(input.matrixWorld))
    this.entries.set(meshId, {
      geometry,
      matrixWorld,
      inverseMatrix: matrixWorld.clone().invert(),
      normalMatrix: new Matrix3().getNormalMatrix(matrixWorld),
      worldBounds: worldBoundsOf(geometry.localBounds, matrixWorld),
    })
  }

  /** Removes a mesh; returns false when there was none by that id. */
  remove(meshId: string): boolean {
    const entry = this.entries.get(meshId)
    if (!entry) return false
    this.entries.delete(meshId)
    entry.geometry.userCount--
    return true
  }

  /** Removes every mesh whose id starts with `prefix` (e.g. all meshes of one model). */
  removeByPrefix(prefix: string): number {
    let removed = 0
    for (const meshId of [...this.entries.keys()]) {
      if (meshId.startsWith(prefix) && this.remove(meshId)) removed++
    }
    return removed
  }

  /** The closest hit along the ray over all meshes, or null. */
  raycast(pickRay: PickRay): PickHit | null {
    const origin = scratchOrigin.fromArray(pickRay.origin)
    const direction = scratchDirection.fromArray(pickRay.direction)
    const length = direction.length()
    if (!(length > 0) || !Number.isFinite(length)) return null
    direction.divideScalar(length)
    const near = pickRay.near ?? 0
    const far = pickRay.far ?? Number.POSITIVE_INFINITY

    const candidates = this.candidates
    candidates.length = 0
    for (const [meshId, entry] of this.entries) {
      const entryDistance = rayBoxEntry(origin, direction, entry.worldBounds)
      if (entryDistance !== null && entryDistance <= far) {
        candidates.push({ entry, meshId, entryDistance })
      }
    }
    candidates.sort((a, b) => a.entryDistance - b.entryDistance)

    let best: PickHit | null = null
    for (const { entry, meshId, entryDistance } of candidates) {
      if (best && entryDistance > best.distance) break
      // three-mesh-bvh measures near/far in local space: a world distance w along the ray is
      // w × |M⁻¹·d| there.
      scratchRay.origin.copy(origin).applyMatrix4(entry.inverseMatrix)
      scratchRay.direction.copy(direction).transformDirection(entry.inverseMatrix)
      const localScale = localDirectionLength(direction, entry.inverseMatrix)
      const hit = entry.geometry.bvh.raycastFirst(
        scratchRay,
        DoubleSide,
        near * localScale,
        (best ? Math.min(best.distance, far) : far) * localScale,
      )
      if (!hit) continue
      const point = scratchPoint.copy(hit.point).applyMatrix4(entry.matrixWorld)
      const distance = point.distanceTo(origin)
      if (distance < near || distance > far || (best && distance >= best.distance)) continue
      const normal = scratchNormal
        .copy(hit.face!.normal)
        .applyMatrix3(entry.normalMatrix)
        .normalize()
      if (normal.dot(direction) > 0) normal.negate()
      best = {
        meshId,
        point: [point.x, point.y, point.z],
        normal: [normal.x, normal.y, normal.z],
        faceIndex: hit.faceIndex ?? -1,
        distance,
      }
    }
    candidates.length = 0
    return best
  }

  /** Drops every mesh. The scene stays usable (empty). */
  dispose(): void {
    for (const meshId of [...this.entries.keys()]) this.remove(meshId)
  }
}

function createSharedGeometry(input: PickableMeshInput): SharedGeometry {
  if (input.ownedBvhRoots.length === 0) throw new Error('a pickable mesh needs its BVH roots')
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new BufferAttribute(input.ownedPositions, 3))
  geometry.setIndex(new BufferAttribute(input.ownedIndices, 1))
  const bvh = deserializeStoredBvh(input.ownedBvhRoots, input.ownedIndices, geometry)
  const localBounds: SharedGeometry['localBounds'] = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ]
  for (const root of input.ownedBvhRoots) {
    const bounds = new Float32Array(root, 0, 6)
    for (let axis = 0; axis < 3; axis++) {
      localBounds[axis] = Math.min(localBounds[axis]!, bounds[axis]!)
      localBounds[axis + 3] = Math.max(localBounds[axis + 3]!, bounds[axis + 3]!)
    }
  }
  return { bvh, localBounds, triangleCount: input.ownedIndices.length / 3, userCount: 0 }
}

function worldBoundsOf(local: SharedGeometry['localBounds'], matrix: Matrix4): Float64Array {
  const bounds = new Float64Array([
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ])
  const corner = new Vector3()
  for (let index = 0; index < 8; index++) {
    corner
      .set(
        index & 1 ? local[3] : local[0],
        index & 2 ? local[4] : local[1],
        index & 4 ? local[5] : local[2],
      )
      .applyMatrix4(matrix)
    bounds[0] = Math.min(bounds[0]!, corner.x)
    bounds[1] = Math.min(bounds[1]!, corner.y)
    bounds[2] = Math.min(bounds[2]!, corner.z)
    bounds[3] = Math.max(bounds[3]!, corner.x)
    bounds[4] = Math.max(bounds[4]!, corner.y)
    bounds[5] = Math.max(bounds[5]!, corner.z)
  }
  // float32 rounding in the stored bounds must not make a grazing ray miss the box.
  const margin = 1e-6 * Math.max(1, ...Array.from(bounds, Math.abs))
  for (let axis = 0; axis < 3; axis++) {
    bounds[axis] = bounds[axis]! - margin
    bounds[axis + 3] = bounds[axis + 3]! + margin
  }
  return bounds
}

/** Slab test: distance along the (unit) ray to where it enters the box, 0 if inside, or null. */
function rayBoxEntry(origin: Vector3, direction: Vector3, bounds: Float64Array): number | null {
  let entry = 0
  let exit = Number.POSITIVE_INFINITY
  for (let axis = 0; axis < 3; axis++) {
    const start = axis === 0 ? origin.x : axis === 1 ? origin.y : origin.z
    const step = axis === 0 ? direction.x : axis === 1 ? direction.y : direction.z
    const low = bounds[axis]!
    const high = bounds[axis + 3]!
    if (step === 0) {
      if (start < low || start > high) return null
      continue
    }
    const toLow = (low - start) / step
    const toHigh = (high - start) / step
    entry = Math.max(entry, Math.min(toLow, toHigh))
    exit = Math.min(exit, Math.max(toLow, toHigh))
    if (entry > exit) return null
  }
  return entry
}

const scratchLocalDirection = new Vector3()
/** Length of a world unit vector once mapped into a mesh's local space. */
function localDirectionLength(direction: Vector3, inverseMatrix: Matrix4): number {
  const elements = inverseMatrix.elements
  const x = direction.x
  const y = direction.y
  const z = direction.z
  scratchLocalDirection.set(
    elements[0]! * x + elements[4]! * y + elements[8]! * z,
    elements[1]! * x + elements[5]! * y + elements[9]! * z,
    elements[2]! * x + elements[6]! * y + elements[10]! * z,
  )
  return scratchLocalDirection.length()
}
