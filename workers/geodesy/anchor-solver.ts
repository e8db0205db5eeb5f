import { isLngLatInRange, type LngLat } from './draw-geometry'
import { createTangentPlane, meanPosition } from './local-tangent-plane'
import { GeodesicMask, wgs84 } from './wgs84'

/**
 * One anchor point (SPEC §3): a point of the building model or tileset in its own horizontal
 * coordinates (metres; x and y right-handed seen from above, so three.js' x and −z), paired
 * with where it is on the earth.
 */
export interface Anchor {
  x: number
  y: number
  lng: number
  lat: number
}

/** The fewest anchors a location takes (SPEC §5, §9): 2 fix the distance, 3 the orientation. */
export const minAnchors = 3

/**
 * The smallest spread across the anchors' best-fit line, as a fraction of the spread along it,
 * below which they count as collinear: the rotation would hang on centimetres of noise.
 */
export const collinearSpreadRatio = 0.01

/** Why anchors cannot locate a model. */
export type AnchorIssue =
  | { code: 'tooFewAnchors'; params: { min: number; count: number } }
  | { code: 'anchorCoordinateOutOfRange'; params: { index: number } }
  | { code: 'anchorsCollinear'; params: Record<string, never> }

/**
 * A similarity transform from model coordinates to the earth: model (x, y) lands at
 * `scale · R(rotation) · (x, y) + (east, north)` in the tangent plane at `tangentOrigin`.
 */
export interface AnchorFit {
  scale: number
  /**
   * Counter-clockwise turn from the model's x axis to east in the tangent plane, degrees in
   * (−180, 180]. East there is east at `tangentOrigin`; see `rotationAtOriginDegrees`.
   */
  rotationDegrees: number
  /**
   * The same turn measured from east at `originLngLat` (meridians converge: they differ by about
   * Δlongitude · sin latitude). The one to place a model with its origin at `originLngLat`.
   */
  rotationAtOriginDegrees: number
  tangentOrigin: LngLat
  /** Where model (0, 0) lands in the tangent plane, metres. */
  eastMeters: number
  northMeters: number
  /** Where model (0, 0) lands on the earth. */
  originLngLat: LngLat
  /** Per anchor, in input order: how far the fitted position lies from its longitude/latitude. */
  residualsMeters: number[]
  /** Root mean square of the residuals, metres. */
  rmsMeters: number
}

/**
 * Fits the similarity transform (scale, rotation, translation) that carries the anchors' model
 * coordinates onto their longitudes/latitudes, by least squares in the local tangent plane at the
 * anchors' mean position (closed form: the plane is treated as the complex numbers, where a
 * similarity is w = a·z + b). Refuses fewer than {@link minAnchors}, coordinates out of range,
 * and anchors on (nearly) one line on either side, where the orientation is undetermined.
 */
export function solveAnchors(
  anchors: readonly Anchor[],
): { ok: true; fit: AnchorFit } | { ok: false; issue: AnchorIssue } {
  if (anchors.length < minAnchors)
    return {
      ok: false,
      issue: { code: 'tooFewAnchors', params: { min: minAnchors, count: anchors.length } },
    }
  const badIndex = anchors.findIndex(
    (anchor) =>
      !isLngLatInRange([anchor.lng, anchor.lat]) ||
      !Number.isFinite(anchor.x) ||
      !Number.isFinite(anchor.y),
  )
  if (badIndex >= 0)
    return { ok: false, issue: { code: 'anchorCoordinateOutOfRange', params: { index: badIndex } } }

  const tangentOrigin = meanPosition(anchors.map((anchor): LngLat => [anchor.lng, anchor.lat]))
  const plane = createTangentPlane(tangentOrigin)
  const model = anchors.map((anchor) => [anchor.x, anchor.y] as const)
  const earth = anchors.map((anchor) => {
    const [east, north] = plane.toEnu([anchor.lng, anchor.lat])
    return [east, north] as const
  })
  if (isCollinear(model) || isCollinear(earth))
    return { ok: false, issue: { code: 'anchorsCollinear', params: {} } }

  const count = anchors.length
  const mean = (points: readonly (readonly [number, number])[]) => [
    points.reduce((sum, point) => sum + point[0], 0) / count,
    points.reduce((sum, point) => sum + point[1], 0) / count,
  ]
  const [mx, my] = mean(model) as [number, number]
  const [me, mn] = mean(earth) as [number, number]
  let real = 0
  let imaginary = 0
  let norm = 0
  for (let index = 0; index < count; index++) {
    const x = model[index]![0] - mx
    const y = model[index]![1] - my
    const e = earth[index]![0] - me
    const n = earth[index]![1] - mn
    real += e * x + n * y
    imaginary += n * x - e * y
    norm += x * x + y * y
  }
  const ar = real / norm
  const ai = imaginary / norm
  const eastMeters = me - (ar * mx - ai * my)
  const northMeters = mn - (ai * mx + ar * my)
  const residualsMeters = model.map(([x, y], index) =>
    Math.hypot(
      ar * x - ai * y + eastMeters - earth[index]![0],
      ai * x + ar * y + northMeters - earth[index]![1],
    ),
  )
  const scale = Math.hypot(ar, ai)
  const originLngLat = plane.fromEnu(eastMeters, northMeters)
  // The model's x axis 100 m out, and the geodesic's azimuth to it from the origin.
  const xAxis = plane.fromEnu(eastMeters + (ar / scale) * 100, northMeters + (ai / scale) * 100)
  const azimuth = wgs84.Inverse(
    originLngLat[1],
    originLngLat[0],
    xAxis[1],
    xAxis[0],
    GeodesicMask.AZIMUTH,
  ).azi1
  return {
    ok: true,
    fit: {
      scale,
      rotationDegrees: (Math.atan2(ai, ar) * 180) / Math.PI,
      rotationAtOriginDegrees: normalizeDegrees(90 - (azimuth ?? 90)),
      tangentOrigin,
      eastMeters,
      northMeters,
      originLngLat,
      residualsMeters,
      rmsMeters: Math.sqrt(
        residualsMeters.reduce((sum, residual) => sum + residual * residual, 0) / count,
      ),
    },
  }
}

/** An angle in degrees brought into (−180, 180]. */
function normalizeDegrees(degrees: number): number {
  const wrapped = ((((degrees + 180) % 360) + 360) % 360) - 180
  return wrapped === -180 ? 180 : wrapped
}

/** Where model point (x, y) lands on the earth under `fit`. */
export function anchorModelToLngLat(fit: AnchorFit, x: number, y: number): LngLat {
  const radians = (fit.rotationDegrees * Math.PI) / 180
  const cos = fit.scale * Math.cos(radians)
  const sin = fit.scale * Math.sin(radians)
  return createTangentPlane(fit.tangentOrigin).fromEnu(
    cos * x - sin * y + fit.eastMeters,
    sin * x + cos * y + fit.northMeters,
  )
}

/** Whether the points' spread across their best-fit line is tiny next to the spread along it. */
function isCollinear(points: readonly (readonly [number, number])[]): boolean {
  const count = points.length
  const mx = points.reduce((sum, point) => sum + point[0], 0) / count
  const my = points.reduce((sum, point) => sum + point[1], 0) / count
  let sxx = 0
  let syy = 0
  let sxy = 0
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2
    syy += (y - my) ** 2
    sxy += (x - mx) * (y - my)
  }
  // Eigenvalues of the 2×2 scatter matrix: the spreads along and across the best-fit line.
  const halfTrace = (sxx + syy) / 2
  const offset = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy)
  const along = halfTrace + offset
  const across = Math.max(0, halfTrace - offset)
  if (!(along > 1e-12)) return true
  return Math.sqrt(across / along) < collinearSpreadRatio
}
