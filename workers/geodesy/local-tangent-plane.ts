import type { LngLat } from './draw-geometry'
import { wgs84Flattening, wgs84SemiMajorMeters } from './wgs84'

const degree = Math.PI / 180
const a = wgs84SemiMajorMeters
const e2 = wgs84Flattening * (2 - wgs84Flattening)

/** Earth-centred, earth-fixed coordinates, metres. */
export type Ecef = readonly [x: number, y: number, z: number]

/** WGS84 longitude, latitude (degrees) and ellipsoidal height (metres) → ECEF. */
export function geodeticToEcef(lng: number, lat: number, heightMeters = 0): Ecef {
  const sinLat = Math.sin(lat * degree)
  const cosLat = Math.cos(lat * degree)
  const n = a / Math.sqrt(1 - e2 * sinLat * sinLat)
  return [
    (n + heightMeters) * cosLat * Math.cos(lng * degree),
    (n + heightMeters) * cosLat * Math.sin(lng * degree),
    (n * (1 - e2) + heightMeters) * sinLat,
  ]
}

/**
 * ECEF → WGS84 longitude, latitude (degrees) and height (metres), by fixed-point iteration on
 * the latitude (converges to well under a nanometre in a few rounds near the surface).
 */
export function ecefToGeodetic([x, y, z]: Ecef): [lng: number, lat: number, heightMeters: number] {
  const p = Math.hypot(x, y)
  const lng = Math.atan2(y, x) / degree
  let lat = Math.atan2(z, p * (1 - e2))
  let height = 0
  for (let round = 0; round < 8; round++) {
    const sinLat = Math.sin(lat)
    const n = a / Math.sqrt(1 - e2 * sinLat * sinLat)
    height = Math.abs(Math.cos(lat)) > 1e-12 ? p / Math.cos(lat) - n : Math.abs(z) - n * (1 - e2)
    lat = Math.atan2(z, p * (1 - (e2 * n) / (n + height)))
  }
  return [lng, lat / degree, height]
}

/**
 * A local east-north-up frame tangent to the ellipsoid at `origin`: positions nearby become
 * plane coordinates in metres (east, north), where a building's own coordinates can be fitted.
 */
export interface TangentPlane {
  origin: LngLat
  /** A position on the ellipsoid (height 0) → east, north, up, metres. */
  toEnu(point: LngLat): [east: number, north: number, up: number]
  /** East, north (metres, up 0) → the position on the ellipsoid below that plane point. */
  fromEnu(east: number, north: number): LngLat
}

/** The tangent plane at `origin` (see {@link TangentPlane}). */
export function createTangentPlane(origin: LngLat): TangentPlane {
  const sinLat = Math.sin(origin[1] * degree)
  const cosLat = Math.cos(origin[1] * degree)
  const sinLng = Math.sin(origin[0] * degree)
  const cosLng = Math.cos(origin[0] * degree)
  const [ox, oy, oz] = geodeticToEcef(origin[0], origin[1])
  const east = [-sinLng, cosLng, 0] as const
  const north = [-sinLat * cosLng, -sinLat * sinLng, cosLat] as const
  const up = [cosLat * cosLng, cosLat * sinLng, sinLat] as const
  return {
    origin,
    toEnu(point) {
      const [x, y, z] = geodeticToEcef(point[0], point[1])
      const dx = x - ox
      const dy = y - oy
      const dz = z - oz
      return [
        east[0] * dx + east[1] * dy,
        north[0] * dx + north[1] * dy + north[2] * dz,
        up[0] * dx + up[1] * dy + up[2] * dz,
      ]
    },
    fromEnu(eastMeters, northMeters) {
      const [lng, lat] = ecefToGeodetic([
        ox + east[0] * eastMeters + north[0] * northMeters,
        oy + east[1] * eastMeters + north[1] * northMeters,
        oz + north[2] * northMeters,
      ])
      return [lng, lat]
    },
  }
}

/** The point of the ellipsoid under the mean of these positions' ECEF vectors (antimeridian-safe). */
export function meanPosition(points: readonly LngLat[]): LngLat {
  let sx = 0
  let sy = 0
  let sz = 0
  for (const [lng, lat] of points) {
    const [x, y, z] = geodeticToEcef(lng, lat)
    sx += x
    sy += y
    sz += z
  }
  const [lng, lat] = ecefToGeodetic([sx / points.length, sy / points.length, sz / points.length])
  return [lng, lat]
}
