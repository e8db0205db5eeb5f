import { findSelfIntersection } from './self-intersection'
import { createGeodesicPolygon, GeodesicMask, wgs84 } from './wgs84'

/** A position on WGS84: longitude then latitude, degrees (GeoJSON order). */
export type LngLat = readonly [lng: number, lat: number]

/**
 * The draw types of SPEC §3/§9, by their stored numbers. A circle is stored as two points, its
 * centre and one point on its rim (so the radius is the geodesic distance between them); an
 * inflection point drawing is the ordered turning points of a route, measured like a polyline
 * but shown as nodes.
 */
export const DrawType = {
  circle: 1,
  point: 2,
  polyline: 3,
  polygon: 4,
  inflectionPoint: 5,
} as const

/** One of {@link DrawType}'s numbers. */
export type DrawTypeNumber = (typeof DrawType)[keyof typeof DrawType]

/** Every draw type number, in order. */
export const drawTypeNumbers: readonly DrawTypeNumber[] = [1, 2, 3, 4, 5]

/** The fewest points each draw type takes (after consecutive duplicates are dropped). */
export const minPointsByDrawType: Readonly<Record<DrawTypeNumber, number>> = {
  1: 2,
  2: 1,
  3: 2,
  4: 3,
  5: 2,
}

/** The most points each draw type takes: a circle and a point are fixed, the rest capped. */
export const maxPointsByDrawType: Readonly<Record<DrawTypeNumber, number>> = {
  1: 2,
  2: 1,
  3: 100_000,
  4: 100_000,
  5: 100_000,
}

/** The vertex cap of one drawing (a named limit, SPEC's bad-input rules): 100,000 points. */
export const maxDrawVertices = 100_000

/**
 * The largest circle radius, metres. Well past the 500 km the product measures to, and short
 * of the size where a geodesic circle stops being a simple loop around its centre.
 */
export const maxCircleRadiusMeters = 2_000_000

/**
 * How far from its centre (angle at the earth's centre, degrees) a polygon's vertex may be: the
 * self-intersection check projects the polygon gnomonically about its centre, where great
 * circles are straight lines, and that projection only holds inside a hemisphere.
 */
export const maxPolygonSpanDegrees = 80

/** Why a drawing's points were refused; `params` fill in the message. */
export type GeometryIssue =
  | { code: 'drawTypeUnknown'; params: { type: number } }
  | { code: 'tooFewPoints'; params: { type: DrawTypeNumber; min: number; count: number } }
  | { code: 'tooManyPoints'; params: { type: DrawTypeNumber; max: number; count: number } }
  | { code: 'coordinateOutOfRange'; params: { index: number } }
  | { code: 'circleRadiusOutOfRange'; params: { radiusMeters: number; maxMeters: number } }
  | { code: 'polygonTooWide'; params: { maxDegrees: number } }
  | { code: 'polygonSelfIntersecting'; params: { edgeA: number; edgeB: number } }
  | { code: 'polygonWithoutArea'; params: Record<string, never> }

/** A refused drawing as an exception (for callers that measure without checking first). */
export class GeometryError extends Error {
  constructor(readonly issue: GeometryIssue) {
    super(`Drawing refused: ${issue.code} ${JSON.stringify(issue.params)}`)
    this.name = 'GeometryError'
  }
}

/** What a drawing measures on the WGS84 ellipsoid. */
export interface DrawMeasure {
  /** Geodesic area, m² (circles and polygons; 0 for the rest). */
  areaSquareMeters: number
  /**
   * Geodesic length, metres: the perimeter of a circle or polygon, the length of a polyline
   * or inflection-point route, 0 for a point.
   */
  lengthMeters: number
  /** The circle's geodesic radius, metres (0 for other types). */
  radiusMeters: number
}

/** True when `type` is one of the five draw types. */
export function isDrawType(type: number): type is DrawTypeNumber {
  return (drawTypeNumbers as readonly number[]).includes(type)
}

/** True when a position is finite, longitude in [-180, 180] and latitude in [-90, 90]. */
export function isLngLatInRange(point: readonly number[]): boolean {
  const [lng, lat] = point
  return (
    point.length >= 2 &&
    typeof lng === 'number' &&
    typeof lat === 'number' &&
    Number.isFinite(lng) &&
    Number.isFinite(lat) &&
    Math.abs(lng) <= 180 &&
    Math.abs(lat) <= 90
  )
}

/**
 * The points as measured: consecutive duplicates dropped, and a polygon's closing point (equal
 * to its first) dropped, since rings are closed implicitly.
 */
export function normalizeDrawPoints(type: DrawTypeNumber, points: readonly LngLat[]): LngLat[] {
  const kept: LngLat[] = []
  for (const point of points) {
    const last = kept[kept.length - 1]
    if (type !== DrawType.circle && last && last[0] === point[0] && last[1] === point[1]) continue
    kept.push(point)
  }
  if (type === DrawType.polygon && kept.length > 1) {
    const first = kept[0]!
    const last = kept[kept.length - 1]!
    if (first[0] === last[0] && first[1] === last[1]) kept.pop()
  }
  return kept
}

/** Geodesic distance between two positions, metres. */
export function geodesicDistanceMeters(from: LngLat, to: LngLat): number {
  return wgs84.Inverse(from[1], from[0], to[1], to[0], GeodesicMask.DISTANCE).s12 ?? 0
}

/** The position `distanceMeters` from `from` along the geodesic leaving at `azimuthDegrees`. */
export function geodesicDestination(
  from: LngLat,
  azimuthDegrees: number,
  distanceMeters: number,
): LngLat {
  const result = wgs84.Direct(
    from[1],
    from[0],
    azimuthDegrees,
    distanceMeters,
    GeodesicMask.LATITUDE | GeodesicMask.LONGITUDE,
  )
  return [result.lon2 ?? from[0], result.lat2 ?? from[1]]
}

/**
 * Why these points cannot be a drawing of this type, or undefined when they can. Refuses:
 * an unknown type; too few or too many points (per type, {@link maxDrawVertices} at most);
 * coordinates out of range; a circle of zero radius or wider than {@link maxCircleRadiusMeters};
 * a polygon that crosses itself (refused, never repaired: a repaired shape would not be the one
 * the user drew), that has no area, or that reaches more than {@link maxPolygonSpanDegrees} from
 * its centre.
 */
export function checkDrawing(type: number, points: readonly LngLat[]): GeometryIssue | undefined {
  if (!isDrawType(type)) return { code: 'drawTypeUnknown', params: { type } }
  if (points.length > maxDrawVertices)
    return {
      code: 'tooManyPoints',
      params: { type, max: maxPointsByDrawType[type], count: points.length },
    }
  const badIndex = points.findIndex((point) => !isLngLatInRange(point))
  if (badIndex >= 0) return { code: 'coordinateOutOfRange', params: { index: badIndex } }
  const kept = normalizeDrawPoints(type, points)
  const min = minPointsByDrawType[type]
  const max = maxPointsByDrawType[type]
  if (kept.length < min) return { code: 'tooFewPoints', params: { type, min, count: kept.length } }
  if (kept.length > max) return { code: 'tooManyPoints', params: { type, max, count: kept.length } }
  if (type === DrawType.circle) {
    const radiusMeters = geodesicDistanceMeters(kept[0]!, kept[1]!)
    if (!(radiusMeters > 0) || radiusMeters > maxCircleRadiusMeters)
      return {
        code: 'circleRadiusOutOfRange',
        params: { radiusMeters, maxMeters: maxCircleRadiusMeters },
      }
  }
  if (type === DrawType.polygon) {
    const crossing = findSelfIntersection(kept, maxPolygonSpanDegrees)
    if (crossing === 'tooWide')
      return { code: 'polygonTooWide', params: { maxDegrees: maxPolygonSpanDegrees } }
    if (crossing)
      return {
        code: 'polygonSelfIntersecting',
        params: { edgeA: crossing[0], edgeB: crossing[1] },
      }
    if (!(polygonAreaSquareMeters(kept) > 0)) return { code: 'polygonWithoutArea', params: {} }
  }
  return undefined
}

/**
 * Measures a drawing on the WGS84 ellipsoid (area in m², length in metres), after
 * {@link checkDrawing}; throws {@link GeometryError} with the issue when the points are refused.
 */
export function measureDrawing(type: number, points: readonly LngLat[]): DrawMeasure {
  const issue = checkDrawing(type, points)
  if (issue) throw new GeometryError(issue)
  const kept = normalizeDrawPoints(type as DrawTypeNumber, points)
  switch (type as DrawTypeNumber) {
    case DrawType.circle: {
      const radiusMeters = geodesicDistanceMeters(kept[0]!, kept[1]!)
      return { ...geodesicCircleMeasure(kept[0]!, radiusMeters), radiusMeters }
    }
    case DrawType.point:
      return { areaSquareMeters: 0, lengthMeters: 0, radiusMeters: 0 }
    case DrawType.polygon: {
      const polygon = createGeodesicPolygon(false)
      for (const [lng, lat] of kept) polygon.AddPoint(lat, lng)
      const result = polygon.Compute(false, true)
      return {
        areaSquareMeters: Math.abs(result.area ?? 0),
        lengthMeters: result.perimeter,
        radiusMeters: 0,
      }
    }
    default:
      return { areaSquareMeters: 0, lengthMeters: polylineLengthMeters(kept), radiusMeters: 0 }
  }
}

/** Geodesic length of a polyline through `points`, metres. */
export function polylineLengthMeters(points: readonly LngLat[]): number {
  const line = createGeodesicPolygon(true)
  for (const [lng, lat] of points) line.AddPoint(lat, lng)
  return line.Compute(false, false).perimeter
}

/**
 * Geodesic area of the simple polygon with these vertices (either orientation), m². Edges are
 * geodesics. The signed area is asked for (`sign` true) and its size taken: unsigned, a
 * clockwise ring would answer the area of the rest of the earth.
 */
export function polygonAreaSquareMeters(points: readonly LngLat[]): number {
  const polygon = createGeodesicPolygon(false)
  for (const [lng, lat] of points) polygon.AddPoint(lat, lng)
  return Math.abs(polygon.Compute(false, true).area ?? 0)
}

/** Gauss–Legendre nodes and weights on [-1, 1], 8 points (exact for degree 15). */
const gaussNodes = [
  [0.1834346424956498, 0.362683783378362],
  [0.525532409916329, 0.3137066458778873],
  [0.7966664774136267, 0.2223810344533745],
  [0.9602898564975363, 0.1012285362903763],
] as const

/** Azimuths the circle is integrated over; the integrand is smooth and periodic in azimuth. */
const circleAzimuths = 96

/**
 * Area and perimeter of a geodesic circle (the points at geodesic distance `radiusMeters` from
 * `center`), which has no closed form on the ellipsoid. In geodesic polar coordinates about the
 * centre the area element is m(s, α) ds dα, m the reduced length GeographicLib computes, and the
 * circumference element m(r, α) dα; both are integrated (Gauss–Legendre in s, the periodic
 * trapezoid rule in α, which converges geometrically). Unlike a dense inscribed polygon this
 * sums no large terms that cancel, so a 1 m circle is as exact as a 500 km one.
 */
export function geodesicCircleMeasure(
  center: LngLat,
  radiusMeters: number,
): { areaSquareMeters: number; lengthMeters: number } {
  const half = radiusMeters / 2
  let area = 0
  let perimeter = 0
  for (let index = 0; index < circleAzimuths; index++) {
    const line = wgs84.DirectLine(
      center[1],
      center[0],
      (360 * index) / circleAzimuths,
      radiusMeters,
      GeodesicMask.REDUCEDLENGTH,
    )
    let radial = 0
    for (const [node, weight] of gaussNodes) {
      for (const s of [half - half * node, half + half * node])
        radial += weight * (line.Position(s, GeodesicMask.REDUCEDLENGTH).m12 ?? s)
    }
    area += radial * half
    perimeter += line.Position(radiusMeters, GeodesicMask.REDUCEDLENGTH).m12 ?? radiusMeters
  }
  const step = (2 * Math.PI) / circleAzimuths
  return { areaSquareMeters: area * step, lengthMeters: perimeter * step }
}

/** The vertices of a geodesic circle, `count` of them, from north clockwise. */
export function geodesicCirclePoints(center: LngLat, radiusMeters: number, count = 128): LngLat[] {
  return Array.from({ length: count }, (_, index) =>
    geodesicDestination(center, (360 * index) / count, radiusMeters),
  )
}
