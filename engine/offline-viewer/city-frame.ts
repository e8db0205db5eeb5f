import { WGS84_ELLIPSOID } from '3d-tiles-renderer'
import { MathUtils, Matrix4, Vector3 } from 'three'

/** The ellipsoid's mean radius: the basemap's flat ground is a few kilometres wide at most. */
const earthRadiusMeters = 6_371_008.8

/** A point on the ground in the frame's east and north metres. */
export interface GroundPoint {
  east: number
  north: number
}

/**
 * The offline viewer's world for a city project: metres in the east-north-up frame of one
 * point on the ellipsoid (the scene's centre), turned so three.js's +Y is up (+X east, −Z
 * north). Earth-centred (ECEF) tilesets are brought into it by one matrix, so vertices stay
 * small numbers near the camera; around the centre the ground is flat enough for the basemap
 * to be one textured square.
 */
export class CityFrame {
  /** Earth-centred metres → the viewer's world. */
  readonly worldFromEcef: Matrix4

  constructor(readonly centre: { lng: number; lat: number }) {
    const eastNorthUp = eastNorthUpAt(centre.lng, centre.lat, 0)
    // ENU (x east, y north, z up) → three.js (x east, y up, z south)
    this.worldFromEcef = new Matrix4().makeRotationX(-Math.PI / 2).multiply(eastNorthUp.invert())
  }

  /** A geographic point (degrees, metres above the ellipsoid) in the viewer's world. */
  toWorld(lng: number, lat: number, height: number): Vector3 {
    return ecefOf(lng, lat, height).applyMatrix4(this.worldFromEcef)
  }

  /**
   * Where a library model stands: model metres (glTF: +Y up, front +Z) at a geographic point,
   * upright on the ground there, turned clockwise seen from above by `headingDegrees` (0: the
   * front faces south, as on the online map) and scaled.
   */
  modelMatrix(
    [lng, lat, height]: readonly [number, number, number],
    headingDegrees: number,
    scale: number,
  ): Matrix4 {
    return (
      new Matrix4()
        .multiplyMatrices(this.worldFromEcef, eastNorthUpAt(lng, lat, height))
        // model x east, y up, z south → east, north, up
        .multiply(new Matrix4().makeRotationX(Math.PI / 2))
        .multiply(new Matrix4().makeRotationY((-headingDegrees * Math.PI) / 180))
        .multiply(new Matrix4().makeScale(scale, scale, scale))
    )
  }

  /** Where a geographic point is on the flat ground around the centre. */
  groundOf(lng: number, lat: number): GroundPoint {
    const radians = MathUtils.DEG2RAD * earthRadiusMeters
    return {
      east: (lng - this.centre.lng) * radians * Math.cos(this.centre.lat * MathUtils.DEG2RAD),
      north: (lat - this.centre.lat) * radians,
    }
  }

  /** The geographic point of a ground point (the inverse of {@link groundOf}). */
  lngLatOf(point: GroundPoint): { lng: number; lat: number } {
    const radians = MathUtils.DEG2RAD * earthRadiusMeters
    return {
      lng: this.centre.lng + point.east / (radians * Math.cos(this.centre.lat * MathUtils.DEG2RAD)),
      lat: this.centre.lat + point.north / radians,
    }
  }
}

/** Earth-centred metres of a geographic point. */
export function ecefOf(lng: number, lat: number, height: number): Vector3 {
  return WGS84_ELLIPSOID.getCartographicToPosition(
    lat * MathUtils.DEG2RAD,
    lng * MathUtils.DEG2RAD,
    height,
    new Vector3(),
  )
}

/** Degrees of an Earth-centred point. */
export function lngLatOf(ecef: Vector3): { lng: number; lat: number } {
  const { lat, lon } = WGS84_ELLIPSOID.getPositionToCartographic(ecef, {}) as {
    lat: number
    lon: number
  }
  return { lng: lon * MathUtils.RAD2DEG, lat: lat * MathUtils.RAD2DEG }
}

/** The east-north-up frame at a point: local metres (x east, y north, z up) → ECEF. */
export function eastNorthUpAt(lng: number, lat: number, height: number): Matrix4 {
  return WGS84_ELLIPSOID.getEastNorthUpFrame(
    lat * MathUtils.DEG2RAD,
    lng * MathUtils.DEG2RAD,
    height,
    new Matrix4(),
  )
}
