import {
  checkDrawing,
  geodesicCirclePoints,
  geodesicDestination,
  geodesicDistanceMeters,
  type LngLat,
  measureDrawing,
} from '../../../workers/geodesy/draw-geometry'
import { meanPosition } from '../../../workers/geodesy/local-tangent-plane'
import type { DrawPending, DrawPosition, DrawShape, DrawTypeNumber } from '../../api/draw-commands'

/** RGBA 0–255 from `#rrggbbaa` (or `#rrggbb`); unreadable colours fall back to `fallback`. */
export function rgbaOf(
  hex: string,
  fallback: [number, number, number, number],
): [number, number, number, number] {
  const match = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex)
  if (!match) return fallback
  const value = Number.parseInt(match[1]!, 16)
  const alpha = match[2] === undefined ? 255 : Number.parseInt(match[2], 16)
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff, alpha]
}

/**
 * A finished terra-draw feature as the points a drawing stores: a polygon's ring without its
 * closing point; a circle (terra-draw gives its outline) as its centre and a point on its rim
 * at the outline's mean distance, so the saved circle is the geodesic circle the user drew.
 */
export function pointsOfFeature(
  type: DrawTypeNumber,
  geometry: { type: string; coordinates: unknown },
): DrawPosition[] {
  const pairs = (list: unknown): DrawPosition[] =>
    (list as number[][]).map((position): DrawPosition => [position[0]!, position[1]!])
  if (geometry.type === 'Point') return pairs([geometry.coordinates])
  if (geometry.type === 'LineString') return pairs(geometry.coordinates)
  if (geometry.type !== 'Polygon') return []
  const ring = pairs((geometry.coordinates as unknown[])[0])
  const last = ring[ring.length - 1]
  const first = ring[0]
  if (first && last && ring.length > 1 && first[0] === last[0] && first[1] === last[1]) ring.pop()
  if (type !== 1) return ring
  const center = meanPosition(ring as LngLat[])
  const radius =
    ring.reduce((sum, point) => sum + geodesicDistanceMeters(center, point as LngLat), 0) /
    Math.max(1, ring.length)
  return [center, geodesicDestination(center, 0, radius)]
}

/** The pending shape the UI reads: points measured, or the reason they cannot be saved. */
export function pendingOf(type: DrawTypeNumber, points: readonly DrawPosition[]): DrawPending {
  const issue = checkDrawing(type, points as LngLat[])
  if (issue) return { type, points, areaSquareMeters: 0, lengthMeters: 0, issue: issue.code }
  const measure = measureDrawing(type, points as LngLat[])
  return {
    type,
    points,
    areaSquareMeters: measure.areaSquareMeters,
    lengthMeters: measure.lengthMeters,
    issue: null,
  }
}

/** What deck.gl draws of the saved shapes: filled areas, lines, and points or nodes. */
export interface ShapeLayerData {
  areas: { id: string; ring: DrawPosition[]; fill: number[]; outline: number[]; width: number }[]
  lines: { id: string; path: DrawPosition[]; color: number[]; width: number }[]
  nodes: { id: string; position: DrawPosition; color: number[] }[]
}

/** Corners of a drawn circle at most (and of a circle's rim snapped to). */
export const circleCorners = 64

/** Circle outlines kept at most by {@link circleRing}: a few scales of a few thousand circles. */
export const circleRingCacheSize = 4096

/** Outlines by centre, rim point and corners, least recently used first. */
const circleRings = new Map<string, readonly DrawPosition[]>()

/**
 * The geodesic outline of the circle through `rim` around `center`, `corners` points (shared:
 * never changed by its users). Each corner is a direct geodesic problem on WGS84, ~13,000 of
 * them for 200 circles: computed once, not again each time the drawings change elsewhere (a
 * save, a delete, showing or hiding one) or the snapping index or bounds ask for the same
 * outline. A moved or resized circle has another key, so an outline is never stale.
 */
export function circleRing(
  center: DrawPosition,
  rim: DrawPosition,
  corners: number,
): readonly DrawPosition[] {
  const key = `${center[0]},${center[1]},${rim[0]},${rim[1]},${corners}`
  const cached = circleRings.get(key)
  if (cached) {
    // Most recently used last: the first key is the one to drop.
    circleRings.delete(key)
    circleRings.set(key, cached)
    return cached
  }
  const centre: LngLat = [center[0]!, center[1]!]
  const ring = geodesicCirclePoints(
    centre,
    geodesicDistanceMeters(centre, [rim[0]!, rim[1]!]),
    corners,
  )
  circleRings.set(key, ring)
  if (circleRings.size > circleRingCacheSize)
    circleRings.delete(circleRings.keys().next().value as string)
  return ring
}

/** How many circle outlines {@link circleRing} holds (tests: it stays bounded). */
export function cachedCircleRingCount(): number {
  return circleRings.size
}

/** Fewest corners of a drawn circle. */
const fewestCircleCorners = 8

/** How far (pixels) a drawn circle's straight sides may fall inside the true circle. */
const circleErrorPixels = 0.25

/**
 * Corners a circle of `radiusMeters` needs at `metersPerPixel` (the finest scale on the screen)
 * so its sides fall at most {@link circleErrorPixels} inside the true circle: a power of two
 * from 8 to 64. A side of angle a falls r·(1 − cos(a/2)) inside; every corner costs vertices
 * and triangles each frame on a software GPU (issue 18's drawing frames), so a circle a few
 * pixels wide is not drawn with the 64 corners a large one needs.
 */
export function circleCornersAt(radiusMeters: number, metersPerPixel: number): number {
  const radiusPixels = radiusMeters / metersPerPixel
  if (!(radiusPixels > circleErrorPixels)) return fewestCircleCorners
  const needed = Math.PI / Math.acos(1 - circleErrorPixels / radiusPixels)
  const corners = 2 ** Math.ceil(Math.log2(needed))
  return Math.min(circleCorners, Math.max(fewestCircleCorners, corners))
}

const defaultFill: [number, number, number, number] = [255, 255, 255, 128]
const defaultOutline: [number, number, number, number] = [30, 136, 229, 255]

/**
 * Splits visible shapes into deck.gl layer data. A circle is drawn as points of its geodesic
 * outline, as many as it needs at `metersPerPixel`, the finest scale on the screen (64 when it
 * is not known; see {@link circleCornersAt}); polylines and inflection points follow their
 * display mode (0 nothing, 1 nodes and path, 2 nodes, 3 path); a point is a node.
 */
export function shapeLayerData(
  shapes: readonly DrawShape[],
  metersPerPixel?: number,
): ShapeLayerData {
  const data: ShapeLayerData = { areas: [], lines: [], nodes: [] }
  for (const shape of shapes) {
    if (!shape.isVisible || shape.points.length === 0) continue
    const fill = rgbaOf(shape.fillColor, defaultFill)
    const outline = rgbaOf(shape.outlineColor, defaultOutline)
    const width = shape.outlineWidthPx
    if (shape.type === 1 && shape.points.length === 2) {
      const [center, rim] = shape.points as [LngLat, LngLat]
      const corners =
        metersPerPixel === undefined
          ? circleCorners
          : circleCornersAt(geodesicDistanceMeters(center, rim), metersPerPixel)
      const ring = circleRing(center, rim, corners) as DrawPosition[]
      data.areas.push({ id: shape.id, ring, fill, outline, width })
    } else if (shape.type === 4) {
      data.areas.push({ id: shape.id, ring: [...shape.points], fill, outline, width })
    } else if (shape.type === 2) {
      data.nodes.push({ id: shape.id, position: shape.points[0]!, color: outline })
    } else {
      const mode = shape.displayMode
      if (mode === 1 || mode === 3)
        data.lines.push({ id: shape.id, path: [...shape.points], color: outline, width })
      if (mode === 1 || mode === 2)
        for (const position of shape.points)
          data.nodes.push({ id: shape.id, position, color: outline })
    }
  }
  return data
}

/** The west, south, east, north bounds of a shape (a circle's outline included). */
export function shapeBounds(shape: DrawShape): [number, number, number, number] {
  const points =
    shape.type === 1 && shape.points.length === 2
      ? circleRing(shape.points[0]!, shape.points[1]!, 32)
      : shape.points
  let west = 180
  let south = 90
  let east = -180
  let north = -90
  for (const [lng, lat] of points) {
    west = Math.min(west, lng)
    east = Math.max(east, lng)
    south = Math.min(south, lat)
    north = Math.max(north, lat)
  }
  return [west, south, east, north]
}
