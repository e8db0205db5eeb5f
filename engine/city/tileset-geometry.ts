import { createBoundingVolume, type Tile3D } from '@loaders.gl/tiles'
import { Matrix4, Vector3 } from '@math.gl/core'
import { Ellipsoid } from '@math.gl/geospatial'
import type { CityTilesetPlacement } from '../api/city-snapshot'
import { moveRegionVolumesWith } from './library-internals'
import { placementModelMatrix } from './tileset-placement'

/**
 * Where a tileset is on the globe, from its root as tileset.json describes it: whether it is
 * georeferenced, the model matrix a placement gives it, and where a tile's bounding volume is.
 * The engine is the one owner of this geometry; the UI sends intent (fly to tileset X, part N).
 */

/** The root of a tileset.json as far as placing it needs (a parsed header or a RootTile). */
export interface RootHeader {
  boundingVolume: unknown
  transform?: unknown
}

/** Below this distance from the Earth's centre a point is in local metres, not Earth-fixed. */
const minimumEarthFixedRadiusMeters = 6_000_000

/** A located tile: its centre in degrees and metres, and half its size. */
export interface LocatedVolume {
  lng: number
  lat: number
  heightMeters: number
  radiusMeters: number
}

function rootTransform(root: RootHeader): Matrix4 {
  const transform = root.transform
  return Array.isArray(transform) && transform.length === 16
    ? new Matrix4(transform as number[])
    : new Matrix4()
}

/** The root volume's centre in Earth-fixed metres, or null when it cannot be read. */
function rootCenter(root: RootHeader): Vector3 | null {
  try {
    const volume = createBoundingVolume(root.boundingVolume as never, rootTransform(root)) as {
      center: number[]
    }
    return new Vector3(volume.center)
  } catch {
    return null
  }
}

/**
 * True when the root sits on the globe (a `region`, or a transform into Earth-fixed metres);
 * false for a tileset in local metres that must be placed (many 3D Tiles 1.1 exports).
 */
export function isGeoreferencedRoot(root: RootHeader): boolean {
  const center = rootCenter(root)
  return center !== null && center.len() > minimumEarthFixedRadiusMeters
}

/** Where the root's own georeference puts it, as a placement (heading 0, no offset). */
export function ownPlacement(root: RootHeader): CityTilesetPlacement | null {
  const center = rootCenter(root)
  if (!center || center.len() <= minimumEarthFixedRadiusMeters) return null
  const [lng, lat] = Ellipsoid.WGS84.cartesianToCartographic(center)
  return { lng: lng!, lat: lat!, heightOffset: 0, heading: 0 }
}

/**
 * loaders.gl's tileset `modelMatrix` for a placement. A tileset in local metres gets its origin
 * put at the place (placementModelMatrix). A georeferenced tileset is moved: the ground under
 * its own centre goes to the place, turned by the heading, `heightOffset` metres up — and its
 * region volumes are moved along (loaders.gl leaves regions where they were).
 */
export function tilesetModelMatrix(
  placement: CityTilesetPlacement | null,
  root: RootHeader,
): Matrix4 | undefined {
  if (!placement) return undefined
  const center = rootCenter(root)
  if (!center || center.len() <= minimumEarthFixedRadiusMeters) {
    return placementModelMatrix(placement)
  }
  const [lng, lat] = Ellipsoid.WGS84.cartesianToCartographic(center)
  const ownGround = Ellipsoid.WGS84.eastNorthUpToFixedFrame(
    Ellipsoid.WGS84.cartographicToCartesian([lng!, lat!, 0]),
  )
  const moved = placementModelMatrix(placement).multiplyRight(new Matrix4(ownGround).invert())
  return moveRegionVolumesWith(moved)
}

/**
 * Where a loaders.gl bounding volume (an oriented box or a sphere, already transformed) is on
 * the globe; null for one in local metres (a tileset nobody placed).
 */
export function locateVolume(volume: unknown): LocatedVolume | null {
  const { center, radius, halfAxes } = (volume ?? {}) as {
    center?: number[]
    radius?: number
    halfAxes?: number[]
  }
  if (!center || new Vector3(center).len() <= minimumEarthFixedRadiusMeters) return null
  const [lng, lat, heightMeters] = Ellipsoid.WGS84.cartesianToCartographic(center)
  let radiusMeters = radius ?? 0
  if (halfAxes && halfAxes.length >= 9) {
    // Column-major 3×3: each column is one half axis.
    radiusMeters = Math.hypot(
      Math.hypot(halfAxes[0]!, halfAxes[1]!, halfAxes[2]!),
      Math.hypot(halfAxes[3]!, halfAxes[4]!, halfAxes[5]!),
      Math.hypot(halfAxes[6]!, halfAxes[7]!, halfAxes[8]!),
    )
  }
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) return null
  return { lng: lng!, lat: lat!, heightMeters: heightMeters ?? 0, radiusMeters }
}

/** Tilesets whose centres lie within this distance are framed together. */
export const frameTogetherMeters = 20_000

/** Distance along the ground between two points, in metres (haversine on a sphere). */
export function groundDistanceMeters(
  a: { lng: number; lat: number },
  b: { lng: number; lat: number },
): number {
  const radians = Math.PI / 180
  const dLat = (b.lat - a.lat) * radians
  const dLng = (b.lng - a.lng) * radians
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * radians) * Math.cos(b.lat * radians) * Math.sin(dLng / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * The volumes to frame together when they are spread over the globe: the one nearest `from`
 * (where the user looks, the project's location on entry) and those within
 * {@link frameTogetherMeters} of it. Framing a tileset in Shanghai together with one in Ohio
 * would show an ocean from 5,000 km up, where no tile is detailed enough to load.
 */
export function nearbyVolumes<Volume extends LocatedVolume>(
  volumes: readonly Volume[],
  from: { lng: number; lat: number },
): Volume[] {
  let nearest: Volume | undefined
  let nearestMeters = Infinity
  for (const volume of volumes) {
    const meters = groundDistanceMeters(from, volume)
    if (meters < nearestMeters) [nearest, nearestMeters] = [volume, meters]
  }
  if (!nearest) return []
  const anchor = nearest
  return volumes.filter((volume) => groundDistanceMeters(anchor, volume) <= frameTogetherMeters)
}

/**
 * The root (no part, or part 0 of a root without children) or one of its top-level parts, in
 * the tileset.json's order; undefined when there is no such part.
 */
export function topLevelTile(root: Tile3D | null, partIndex?: number): Tile3D | undefined {
  if (!root) return undefined
  // loaders.gl sorts `children` by distance as it traverses; the header keeps file order.
  const headers = ((root.header as { children?: unknown[] } | null)?.children ?? []) as object[]
  if (partIndex === undefined || (headers.length === 0 && partIndex === 0)) return root
  return ((root.children ?? []) as Tile3D[]).find((child) => child.header === headers[partIndex])
}
