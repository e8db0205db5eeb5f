import { Matrix4 } from '@math.gl/core'
import { Ellipsoid } from '@math.gl/geospatial'
import type { CityTilesetPlacement } from '../api/city-snapshot'

/**
 * The tileset-level model matrix (local metres → Earth-centred, Earth-fixed) that puts a tileset
 * without georeference at `placement`: its local +X east and +Y north at the anchor, turned
 * clockwise by the heading, its origin `heightOffset` metres above the ellipsoid. loaders.gl
 * multiplies it in front of the root transform, so every tile and bounding volume follows.
 */
export function placementModelMatrix(placement: CityTilesetPlacement): Matrix4 {
  const anchor = Ellipsoid.WGS84.cartographicToCartesian([
    placement.lng,
    placement.lat,
    placement.heightOffset,
  ])
  const eastNorthUp = Ellipsoid.WGS84.eastNorthUpToFixedFrame(anchor)
  // Clockwise from north seen from above is a negative turn about the local up axis.
  return new Matrix4(eastNorthUp).rotateZ((-placement.heading * Math.PI) / 180)
}

/**
 * A point on the globe in a placed tileset's own coordinates (metres: x east, y north, z up of
 * its local origin before the heading turned it): the inverse of {@link placementModelMatrix},
 * so a point picked on the drawn tiles gives the relative coordinates an anchor pairs.
 */
export function tilesetLocalPoint(
  placement: CityTilesetPlacement,
  position: { lng: number; lat: number; heightMeters: number },
): { x: number; y: number; z: number } {
  const fixed = Ellipsoid.WGS84.cartographicToCartesian([
    position.lng,
    position.lat,
    position.heightMeters,
  ])
  const [x = 0, y = 0, z = 0] = placementModelMatrix(placement).invert().transformAsPoint(fixed)
  return { x, y, z }
}
