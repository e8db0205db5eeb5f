import {
  geodesicDestination,
  geodesicDistanceMeters,
  type LngLat,
} from '../../../workers/geodesy/draw-geometry'
import { wgs84 } from '../../../workers/geodesy/wgs84'

/**
 * Path navigation (issue 18, SPEC §9 point slider options): the camera flies along a saved path
 * at a speed (slow or fast) times a rate (×1 ×2 ×3 ×5), looking along it. This module is the
 * pure part: where on the path the camera is after some metres, and which way it looks.
 */

/** Metres per second of the two speeds. */
export const flightSpeedMetersPerSecond = { slow: 8, fast: 30 } as const
export type FlightSpeed = keyof typeof flightSpeedMetersPerSecond

/** SPEC §9 rates. */
export const flightRates = [1, 2, 3, 5] as const
export type FlightRate = (typeof flightRates)[number]

/** A path measured once: each segment's geodesic length and start azimuth. */
export interface MeasuredPath {
  points: readonly LngLat[]
  /** Cumulative metres at each point (0 at the first). */
  distances: number[]
  totalMeters: number
}

/** Measures a path for {@link positionAlong}. */
export function measurePath(points: readonly LngLat[]): MeasuredPath {
  const distances = [0]
  for (let index = 1; index < points.length; index++)
    distances.push(
      distances[index - 1]! + geodesicDistanceMeters(points[index - 1]!, points[index]!),
    )
  return { points, distances, totalMeters: distances[distances.length - 1] ?? 0 }
}

/**
 * The place `meters` along the path (clamped to its ends) and the bearing of the segment there
 * (degrees clockwise from north), on the geodesic of that segment.
 */
export function positionAlong(
  path: MeasuredPath,
  meters: number,
): { position: LngLat; bearing: number } {
  const { points, distances } = path
  if (points.length === 1) return { position: points[0]!, bearing: 0 }
  const along = Math.min(Math.max(meters, 0), path.totalMeters)
  let segment = 1
  while (segment < points.length - 1 && distances[segment]! < along) segment++
  const from = points[segment - 1]!
  const to = points[segment]!
  const inverse = wgs84.Inverse(from[1], from[0], to[1], to[0])
  const bearing = ((inverse.azi1 ?? 0) + 360) % 360
  const position = geodesicDestination(from, bearing, along - distances[segment - 1]!)
  return { position, bearing }
}
