import type { GmlDisplayMode, GmlPlacement } from '../api/building-snapshot'

/** A point as three numbers. */
export type Point3 = [number, number, number]

/**
 * Maps a point of the GML file (z-up) into the scene (y-up) by the placement: axes swapped
 * (file x → x, file z → up, file y → −z), scaled, turned about the vertical axis by
 * `rotationDeg`, then moved by `offset`.
 */
export function networkToScene(point: readonly number[], placement: GmlPlacement): Point3 {
  const [fileX = 0, fileY = 0, fileZ = 0] = point
  const x = fileX * placement.scale
  const y = fileZ * placement.scale
  const z = -fileY * placement.scale
  const angle = (placement.rotationDeg * Math.PI) / 180
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  // A counter-clockwise turn seen from above (+y) is a rotation about +y.
  return [
    x * cos + z * sin + placement.offset[0],
    y + placement.offset[1],
    -x * sin + z * cos + placement.offset[2],
  ]
}

/** The inverse of {@link networkToScene}: a picked scene point in the file's coordinates. */
export function sceneToNetwork(point: readonly number[], placement: GmlPlacement): Point3 {
  const [sceneX = 0, sceneY = 0, sceneZ = 0] = point
  const x0 = sceneX - placement.offset[0]
  const y = sceneY - placement.offset[1]
  const z0 = sceneZ - placement.offset[2]
  const angle = (placement.rotationDeg * Math.PI) / 180
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  const x = x0 * cos - z0 * sin
  const z = x0 * sin + z0 * cos
  return [x / placement.scale, -z / placement.scale, y / placement.scale]
}

/**
 * The same transform as a column-major 4×4 matrix (three.js `Matrix4.elements` order), so the
 * drawn network and the snapping agree by construction.
 */
export function placementMatrix(placement: GmlPlacement): number[] {
  const origin = networkToScene([0, 0, 0], placement)
  const xAxis = networkToScene([1, 0, 0], placement)
  const yAxis = networkToScene([0, 1, 0], placement)
  const zAxis = networkToScene([0, 0, 1], placement)
  const column = (axis: Point3) => [
    axis[0] - origin[0],
    axis[1] - origin[1],
    axis[2] - origin[2],
    0,
  ]
  return [...column(xAxis), ...column(yAxis), ...column(zAxis), origin[0], origin[1], origin[2], 1]
}

/** Checks a placement from the UI; returns why it is unusable, or null. */
export function placementProblem(placement: GmlPlacement): string | null {
  if (!Array.isArray(placement.offset) || placement.offset.length !== 3) {
    return 'offset must be three numbers'
  }
  if (!placement.offset.every(Number.isFinite)) return 'offset must be finite'
  if (!Number.isFinite(placement.rotationDeg)) return 'rotationDeg must be finite'
  if (!(placement.scale > 0) || !Number.isFinite(placement.scale)) {
    return 'scale must be a positive finite number'
  }
  return null
}

/** What each display mode draws (SPEC §9: 0 hide all, 1 node and path, 2 node only, 3 path only). */
export function displayModeParts(mode: GmlDisplayMode): {
  areStatesShown: boolean
  arePathsShown: boolean
} {
  return { areStatesShown: mode === 1 || mode === 2, arePathsShown: mode === 1 || mode === 3 }
}

/**
 * The placement a network gets before anyone placed it: unturned and unscaled, its middle in
 * plan over the middle of `modelBounds` and its lowest State on their base, or around the
 * scene's origin when no model is loaded. IndoorGML files are often in projected coordinates
 * (FJK-Haus sits at 445536, 5444906), which would put the network kilometres from the model.
 */
export function fitPlacement(
  positions: Float64Array,
  modelBounds: {
    isEmpty(): boolean
    min: { x: number; y: number; z: number }
    max: { x: number; y: number; z: number }
  },
): GmlPlacement {
  const identity: GmlPlacement = { offset: [0, 0, 0], rotationDeg: 0, scale: 1 }
  const min = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
  const max = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY]
  for (let index = 0; index + 2 < positions.length; index += 3) {
    const point = [positions[index]!, positions[index + 1]!, positions[index + 2]!]
    if (!point.every(Number.isFinite)) continue
    for (let axis = 0; axis < 3; axis++) {
      min[axis] = Math.min(min[axis]!, point[axis]!)
      max[axis] = Math.max(max[axis]!, point[axis]!)
    }
  }
  if (!Number.isFinite(min[0]!)) return identity
  const base = networkToScene([(min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, min[2]!], identity)
  const target = modelBounds.isEmpty()
    ? [0, 0, 0]
    : [
        (modelBounds.min.x + modelBounds.max.x) / 2,
        modelBounds.min.y,
        (modelBounds.min.z + modelBounds.max.z) / 2,
      ]
  return {
    offset: [target[0]! - base[0], target[1]! - base[1], target[2]! - base[2]],
    rotationDeg: 0,
    scale: 1,
  }
}
