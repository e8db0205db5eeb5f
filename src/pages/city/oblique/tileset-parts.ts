/**
 * The second layer of the oblique-photography tree: a tileset's top-level parts (the root's
 * children, or the root itself when it has none), each named after its content and located on
 * the globe so a click can fly there. Pure, so the geometry is tested without a map.
 */

/** Where a tileset without its own georeference is put (the placement of the tileset record). */
export interface TilesetPlacement {
  lng: number
  lat: number
  heightOffsetMeters: number
  headingDegrees: number
}

/** A point on the globe in degrees and metres above the ellipsoid. */
export interface GeoPoint {
  lng: number
  lat: number
  heightMeters: number
}

/** One clickable part of a tileset. */
export interface TilesetPart {
  /** Its position among the root's children (0 for a childless root). */
  index: number
  /** From the content: `city/tileset.json` → `city`, `building.b3dm` → `building`. */
  name: string | null
  /** Null when it cannot be located (no georeference and no placement). */
  center: GeoPoint | null
  /** Half the size of its bounding volume, to choose a zoom that shows it whole. */
  radiusMeters: number
}

/** The parts of a 3D Tiles tileset.json that locating needs (1.0 and 1.1). */
interface TileJson {
  transform?: readonly number[]
  boundingVolume?: {
    region?: readonly number[]
    box?: readonly number[]
    sphere?: readonly number[]
  }
  content?: { uri?: string; url?: string }
  contents?: readonly { uri?: string; url?: string }[]
  children?: readonly TileJson[]
}

const wgs84 = {
  semiMajorAxisMeters: 6_378_137,
  flattening: 1 / 298.257_223_563,
}
const eccentricitySquared = wgs84.flattening * (2 - wgs84.flattening)

/** Column-major 4×4, as 3D Tiles stores `transform`. */
type Matrix4 = readonly number[]

const identity: Matrix4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

function multiply(a: Matrix4, b: Matrix4): Matrix4 {
  const out = new Array<number>(16).fill(0)
  for (let column = 0; column < 4; column += 1) {
    for (let row = 0; row < 4; row += 1) {
      let sum = 0
      for (let k = 0; k < 4; k += 1) sum += (a[k * 4 + row] ?? 0) * (b[column * 4 + k] ?? 0)
      out[column * 4 + row] = sum
    }
  }
  return out
}

function transformPoint(matrix: Matrix4, [x, y, z]: readonly number[]): [number, number, number] {
  const px = x ?? 0
  const py = y ?? 0
  const pz = z ?? 0
  const m = (index: number) => matrix[index] ?? 0
  return [
    m(0) * px + m(4) * py + m(8) * pz + m(12),
    m(1) * px + m(5) * py + m(9) * pz + m(13),
    m(2) * px + m(6) * py + m(10) * pz + m(14),
  ]
}

function transformDirectionLength(matrix: Matrix4, [x, y, z]: readonly number[]): number {
  const m = (index: number) => matrix[index] ?? 0
  const dx = m(0) * (x ?? 0) + m(4) * (y ?? 0) + m(8) * (z ?? 0)
  const dy = m(1) * (x ?? 0) + m(5) * (y ?? 0) + m(9) * (z ?? 0)
  const dz = m(2) * (x ?? 0) + m(6) * (y ?? 0) + m(10) * (z ?? 0)
  return Math.hypot(dx, dy, dz)
}

const degreesPerRadian = 180 / Math.PI

/** Earth-centred, earth-fixed metres → WGS84 longitude, latitude (degrees) and height. */
export function ecefToGeodetic([x, y, z]: readonly [number, number, number]): GeoPoint {
  const a = wgs84.semiMajorAxisMeters
  const lng = Math.atan2(y, x)
  const p = Math.hypot(x, y)
  // Iterating the latitude converges to well under a millimetre in a few rounds for points
  // near the surface, which is all a tileset holds.
  let lat = Math.atan2(z, p * (1 - eccentricitySquared))
  let heightMeters = 0
  for (let round = 0; round < 6; round += 1) {
    const sinLat = Math.sin(lat)
    const primeVerticalRadius = a / Math.sqrt(1 - eccentricitySquared * sinLat * sinLat)
    heightMeters = p / Math.cos(lat) - primeVerticalRadius
    lat = Math.atan2(
      z,
      p * (1 - (eccentricitySquared * primeVerticalRadius) / (primeVerticalRadius + heightMeters)),
    )
  }
  return { lng: lng * degreesPerRadian, lat: lat * degreesPerRadian, heightMeters }
}

/** Below this distance from the earth's centre a point is in a local frame, not ECEF. */
const minimumEcefRadiusMeters = 6_000_000

/**
 * Local metres of a tileset without georeference, placed east/north/up at `placement` and
 * turned by its heading (clockwise from north), as the engine places such tilesets.
 */
function placeLocalPoint(
  [x, y, z]: readonly [number, number, number],
  placement: TilesetPlacement,
): GeoPoint {
  const heading = (placement.headingDegrees * Math.PI) / 180
  const east = x * Math.cos(heading) + y * Math.sin(heading)
  const north = -x * Math.sin(heading) + y * Math.cos(heading)
  const metersPerDegreeLat = 111_320
  const metersPerDegreeLng = metersPerDegreeLat * Math.cos((placement.lat * Math.PI) / 180)
  return {
    lng: placement.lng + east / metersPerDegreeLng,
    lat: placement.lat + north / metersPerDegreeLat,
    heightMeters: z + placement.heightOffsetMeters,
  }
}

function locate(
  tile: TileJson,
  parentTransform: Matrix4,
  placement: TilesetPlacement | null,
): { center: GeoPoint | null; radiusMeters: number } {
  const transform =
    tile.transform?.length === 16 ? multiply(parentTransform, tile.transform) : parentTransform
  const volume = tile.boundingVolume
  if (volume?.region && volume.region.length >= 6) {
    const [west = 0, south = 0, east = 0, north = 0, minimumHeight = 0, maximumHeight = 0] =
      volume.region
    const lat = ((south + north) / 2) * degreesPerRadian
    const widthMeters = (east - west) * wgs84.semiMajorAxisMeters * Math.cos((lat * Math.PI) / 180)
    const depthMeters = (north - south) * wgs84.semiMajorAxisMeters
    return {
      center: {
        lng: ((west + east) / 2) * degreesPerRadian,
        lat,
        heightMeters: (minimumHeight + maximumHeight) / 2,
      },
      radiusMeters: Math.hypot(widthMeters, depthMeters, maximumHeight - minimumHeight) / 2,
    }
  }
  let localCenter: [number, number, number] | null = null
  let radiusMeters = 0
  if (volume?.box && volume.box.length >= 12) {
    const box = volume.box
    localCenter = [box[0] ?? 0, box[1] ?? 0, box[2] ?? 0]
    const axisLengths = [3, 6, 9].map((start) =>
      transformDirectionLength(transform, box.slice(start, start + 3)),
    )
    radiusMeters = Math.hypot(...axisLengths)
  } else if (volume?.sphere && volume.sphere.length >= 4) {
    const sphere = volume.sphere
    localCenter = [sphere[0] ?? 0, sphere[1] ?? 0, sphere[2] ?? 0]
    // A uniform scale is the norm; the longest axis keeps the sphere inside otherwise.
    const scale = Math.max(
      transformDirectionLength(transform, [1, 0, 0]),
      transformDirectionLength(transform, [0, 1, 0]),
      transformDirectionLength(transform, [0, 0, 1]),
    )
    radiusMeters = (sphere[3] ?? 0) * scale
  }
  if (!localCenter) return { center: null, radiusMeters: 0 }
  const world = transformPoint(transform, localCenter)
  if (Math.hypot(...world) > minimumEcefRadiusMeters) {
    return { center: ecefToGeodetic(world), radiusMeters }
  }
  return { center: placement ? placeLocalPoint(world, placement) : null, radiusMeters }
}

function contentName(tile: TileJson): string | null {
  const uri =
    tile.content?.uri ?? tile.content?.url ?? tile.contents?.[0]?.uri ?? tile.contents?.[0]?.url
  return partNameFromUri(uri ?? null)
}

/**
 * A readable name for a tile content: `city/tileset.json` → `city` (an external tileset is
 * named by its folder), `building.b3dm` → `building`; null without a URI.
 */
export function partNameFromUri(uri: string | null): string | null {
  if (!uri) return null
  const path = uri.split(/[?#]/)[0] ?? ''
  const segments = path.split('/').filter(Boolean)
  const fileName = segments.at(-1) ?? ''
  // An external tileset is named by its folder: `city/tileset.json` is the city.
  if (/^tileset\.json$/i.test(fileName) && segments.length > 1) return segments.at(-2) ?? null
  const stem = fileName.replace(/\.[^.]+$/, '')
  return stem === '' ? null : decodeURIComponent(stem)
}

/**
 * The parts of a parsed tileset.json: the root's children (the root itself if it has none).
 * Answers an empty list for anything that is not a tileset, so a bad file never breaks the tree.
 */
export function tilesetParts(tileset: unknown, placement: TilesetPlacement | null): TilesetPart[] {
  if (tileset === null || typeof tileset !== 'object') return []
  const root = (tileset as { root?: TileJson }).root
  if (!root || typeof root !== 'object') return []
  const rootTransform = root.transform?.length === 16 ? root.transform : identity
  const children = Array.isArray(root.children) && root.children.length > 0 ? root.children : null
  if (!children) {
    return [{ index: 0, name: contentName(root), ...locate(root, identity, placement) }]
  }
  return children.map((child, index) => ({
    index,
    name: contentName(child),
    ...locate(child, rootTransform, placement),
  }))
}

/** The centre and size of the whole tileset (its root volume), or null when it cannot be located. */
export function tilesetCenter(
  tileset: unknown,
  placement: TilesetPlacement | null,
): { center: GeoPoint; radiusMeters: number } | null {
  if (tileset === null || typeof tileset !== 'object') return null
  const root = (tileset as { root?: TileJson }).root
  if (!root || typeof root !== 'object') return null
  const located = locate(root, identity, placement)
  return located.center ? { center: located.center, radiusMeters: located.radiusMeters } : null
}

/**
 * A map zoom that shows something of this radius whole in a view about `viewPixels` wide
 * (web-mercator metres per pixel shrink with the cosine of the latitude).
 */
export function zoomToFit(radiusMeters: number, latDegrees: number, viewPixels = 480): number {
  const metersPerPixelAtZoomZero = 156_543.033_92 * Math.cos((latDegrees * Math.PI) / 180)
  const wantedMetersPerPixel = Math.max(1, radiusMeters * 2.5) / viewPixels
  const zoom = Math.log2(metersPerPixelAtZoomZero / wantedMetersPerPixel)
  return Math.min(20, Math.max(3, zoom))
}
