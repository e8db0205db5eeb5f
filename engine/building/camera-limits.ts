/**
 * Camera zoom limits of a building scene (SPEC §9). Pure math, shared by the view and its tests.
 */

/** Minimum-distance factors the UI offers (closer zoom as the factor falls). */
export const MIN_ZOOM_FACTOR_OPTIONS = [1, 0.9, 0.8, 0.65, 0.5, 0.3, 0.1] as const
/** Maximum-distance factors the UI offers. */
export const MAX_ZOOM_FACTOR_OPTIONS = [1, 1.5, 2, 3.5, 5, 7.5, 10] as const
/** Mouse wheel scale options the UI offers. */
export const WHEEL_SCALE_OPTIONS = [1, 1.1, 1.25, 1.5, 1.8, 2, 2.5] as const
/** Closest the camera may come to its target in a building scene at factor 1, metres. */
export const BUILDING_MIN_BASE_DISTANCE_METERS = 1
/** Farthest the camera may go from its target in a building scene at factor 1, metres. */
export const BUILDING_MAX_BASE_DISTANCE_METERS = 1e7
/** Every wheel scale option is multiplied by this to give the zoom speed. */
export const BASIC_WHEEL_SCALE = 0.5

/**
 * The orbit distance limits for the chosen factors; `bases` are the base distances (a style's
 * visual distance min/max), the building defaults when not given.
 */
export function zoomLimits(
  minFactor: number,
  maxFactor: number,
  bases: { min: number; max: number } = {
    min: BUILDING_MIN_BASE_DISTANCE_METERS,
    max: BUILDING_MAX_BASE_DISTANCE_METERS,
  },
): { minDistance: number; maxDistance: number } {
  if (!(minFactor > 0) || !(maxFactor > 0) || !Number.isFinite(minFactor + maxFactor)) {
    throw new RangeError('zoom factors must be positive finite numbers')
  }
  if (!(bases.min > 0) || !(bases.max >= bases.min) || !Number.isFinite(bases.max)) {
    throw new RangeError('base distances need 0 < min <= max')
  }
  return {
    minDistance: bases.min * minFactor,
    maxDistance: Math.max(bases.min * minFactor, bases.max * maxFactor),
  }
}

/** The orbit controls' zoom speed for a wheel scale option. */
export function wheelZoomSpeed(wheelScale: number): number {
  if (!(wheelScale > 0) || !Number.isFinite(wheelScale)) {
    throw new RangeError('the wheel scale must be a positive finite number')
  }
  return wheelScale * BASIC_WHEEL_SCALE
}

/** Keeps a distance inside the limits. */
export function clampDistance(
  distance: number,
  limits: { minDistance: number; maxDistance: number },
): number {
  return Math.min(limits.maxDistance, Math.max(limits.minDistance, distance))
}

/**
 * How far a perspective camera must stand from a sphere's centre for the whole sphere to fit in
 * view, in both directions, with a small margin.
 */
export function fitDistance(radius: number, verticalFovDeg: number, aspect: number): number {
  const halfVertical = (verticalFovDeg * Math.PI) / 360
  const halfHorizontal = Math.atan(Math.tan(halfVertical) * Math.max(aspect, 1e-6))
  const halfAngle = Math.min(halfVertical, halfHorizontal)
  return (Math.max(radius, 1e-6) / Math.sin(halfAngle)) * 1.05
}

/**
 * Near and far planes for a camera at `distance` from a scene of `sceneRadius` around its
 * target. Tight planes keep depth precision over the 1 m … 1e7 m zoom range; near never goes
 * below a thousandth of the distance, which a 24-bit depth buffer resolves.
 */
export function clipPlanes(distance: number, sceneRadius: number): { near: number; far: number } {
  const radius = Math.max(sceneRadius, 1)
  const near = Math.max(distance / 1000, Math.min(distance - radius * 2, distance / 10), 0.01)
  const far = Math.max(distance + radius * 4, near * 10)
  return { near, far }
}
