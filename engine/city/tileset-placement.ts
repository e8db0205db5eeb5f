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
