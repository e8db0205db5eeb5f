import type { DrawPosition, DrawShape } from '../../api/draw-commands'
import { circleCorners, circleRing } from './draw-shapes'

/** How near (CSS pixels) a pointer must be to a saved drawing's vertex or edge to land on it. */
export const snapRadiusPixels = 8

/** The map's conversions between places and pixels of its container. */
export interface ScreenProjection {
  project(lng: number, lat: number): { x: number; y: number }
  unproject(x: number, y: number): { lng: number; lat: number }
}

/** The places under a square around a pointer, west, south, east, north; null across the antimeridian. */
type PointerBox = [number, number, number, number] | null

/**
 * What a pointer snaps to while drawing or editing (issue 18 "vertex snapping", then edges):
 * every corner and node of the saved drawings shown on the map and a circle's centre (its rim
 * point is only a radius) first; when no vertex is near, the nearest point on an edge drawn on
 * the map — a polygon's sides, a circle's rim as drawn, a path's segments where its display mode
 * draws them. Vertices and edges are flat arrays of longitude/latitude numbers, so a pointer
 * move costs a box test each and a projection only for the few near the pointer.
 */
export class ShapeSnapping {
  private vertices = new Float64Array(0)
  /** Four numbers an edge: its start's and its end's longitude and latitude. */
  private edges = new Float64Array(0)
  /**
   * The targets given last and not yet indexed. The index (a circle's rim is its geodesic
   * corners) is built only when a pointer asks for it or a tool that snaps starts: saving,
   * deleting or showing drawings with no tool open (1,000 areas and 1,000 paths) does not pay
   * for an index nobody uses, each time.
   */
  private unindexed: { shapes: readonly DrawShape[]; exceptId: string | undefined } | null = null

  /** The targets: the visible `shapes`, except `exceptId` (the one in hand); indexed lazily. */
  setShapes(shapes: readonly DrawShape[], exceptId?: string): void {
    this.unindexed = { shapes, exceptId }
  }

  /** True while targets were given that are not indexed yet (see {@link prepare}). */
  get isIndexPending(): boolean {
    return this.unindexed !== null
  }

  /** Builds the index of the targets given last, if not built yet (a snapping tool starts). */
  prepare(): void {
    if (!this.unindexed) return
    const { shapes, exceptId } = this.unindexed
    this.unindexed = null
    const targets = shapes.filter((shape) => shape.isVisible && shape.id !== exceptId)
    const vertices: number[] = []
    const edges: number[] = []
    for (const shape of targets) {
      for (const [lng, lat] of shape.type === 1 ? shape.points.slice(0, 1) : shape.points)
        vertices.push(lng, lat)
      for (const [start, end] of edgesOf(shape)) edges.push(start[0], start[1], end[0], end[1])
    }
    this.vertices = Float64Array.from(vertices)
    this.edges = Float64Array.from(edges)
  }

  /**
   * Where a pointer at the container pixel (`x`, `y`) lands: the vertex drawn nearest it within
   * `radiusPixels`, else the nearest point of an edge within it, else undefined.
   */
  nearest(
    x: number,
    y: number,
    projection: ScreenProjection,
    radiusPixels = snapRadiusPixels,
  ): DrawPosition | undefined {
    this.prepare()
    if (this.vertices.length === 0 && this.edges.length === 0) return undefined
    const box = pointerBox(x, y, projection, radiusPixels)
    return (
      this.nearestVertex(x, y, projection, radiusPixels, box) ??
      this.nearestOnEdge(x, y, projection, radiusPixels, box)
    )
  }

  private nearestVertex(
    x: number,
    y: number,
    projection: ScreenProjection,
    radiusPixels: number,
    box: PointerBox,
  ): DrawPosition | undefined {
    const vertices = this.vertices
    let nearest: DrawPosition | undefined
    let nearestSquared = radiusPixels * radiusPixels
    for (let index = 0; index < vertices.length; index += 2) {
      const lng = vertices[index]!
      const lat = vertices[index + 1]!
      if (box && (lng < box[0] || lat < box[1] || lng > box[2] || lat > box[3])) continue
      const pixel = projection.project(lng, lat)
      const squared = (pixel.x - x) ** 2 + (pixel.y - y) ** 2
      if (squared <= nearestSquared) {
        nearestSquared = squared
        nearest = [lng, lat]
      }
    }
    return nearest
  }

  /**
   * The nearest point of an edge, found on the screen: the map draws an edge as a straight line
   * between its ends' pixels (a tilted view maps the ground's lines to lines), so the point of
   * that line nearest the pointer, taken back to the ground, lies on the edge as drawn.
   */
  private nearestOnEdge(
    x: number,
    y: number,
    projection: ScreenProjection,
    radiusPixels: number,
    box: PointerBox,
  ): DrawPosition | undefined {
    const edges = this.edges
    let nearest: { x: number; y: number } | undefined
    let nearestSquared = radiusPixels * radiusPixels
    for (let index = 0; index < edges.length; index += 4) {
      const startLng = edges[index]!
      const startLat = edges[index + 1]!
      const endLng = edges[index + 2]!
      const endLat = edges[index + 3]!
      // An edge across the antimeridian spans more than half the world: always measured.
      if (box && Math.abs(endLng - startLng) < 180) {
        if (Math.max(startLng, endLng) < box[0] || Math.min(startLng, endLng) > box[2]) continue
        if (Math.max(startLat, endLat) < box[1] || Math.min(startLat, endLat) > box[3]) continue
      }
      const start = projection.project(startLng, startLat)
      const end = projection.project(endLng, endLat)
      const alongX = end.x - start.x
      const alongY = end.y - start.y
      const lengthSquared = alongX * alongX + alongY * alongY
      const share =
        lengthSquared === 0
          ? 0
          : Math.min(
              1,
              Math.max(0, ((x - start.x) * alongX + (y - start.y) * alongY) / lengthSquared),
            )
      const pointX = start.x + share * alongX
      const pointY = start.y + share * alongY
      const squared = (pointX - x) ** 2 + (pointY - y) ** 2
      if (squared <= nearestSquared) {
        nearestSquared = squared
        nearest = { x: pointX, y: pointY }
      }
    }
    if (!nearest) return undefined
    const place = projection.unproject(nearest.x, nearest.y)
    return [place.lng, place.lat]
  }
}

/**
 * The square around the pointer, a bit larger than the radius (the map is not quite linear
 * over it when tilted), as places: nothing outside it can be near enough. Across the
 * antimeridian it would wrap, so then there is none and everything is measured.
 */
function pointerBox(
  x: number,
  y: number,
  projection: ScreenProjection,
  radiusPixels: number,
): PointerBox {
  let west = Number.POSITIVE_INFINITY
  let east = Number.NEGATIVE_INFINITY
  let south = Number.POSITIVE_INFINITY
  let north = Number.NEGATIVE_INFINITY
  const half = radiusPixels * 1.5
  for (const [dx, dy] of [
    [-half, -half],
    [half, -half],
    [half, half],
    [-half, half],
  ] as const) {
    const corner = projection.unproject(x + dx, y + dy)
    west = Math.min(west, corner.lng)
    east = Math.max(east, corner.lng)
    south = Math.min(south, corner.lat)
    north = Math.max(north, corner.lat)
  }
  return Number.isFinite(west + east + south + north) && east - west < 180
    ? [west, south, east, north]
    : null
}

/** The edges a shape draws on the map (see {@link ShapeSnapping}). */
function edgesOf(shape: DrawShape): [DrawPosition, DrawPosition][] {
  const { points } = shape
  const closed = (ring: readonly DrawPosition[]) =>
    ring.map((point, index): [DrawPosition, DrawPosition] => [
      point,
      ring[(index + 1) % ring.length]!,
    ])
  if (shape.type === 1 && points.length === 2) {
    return closed(circleRing(points[0]!, points[1]!, circleCorners))
  }
  if (shape.type === 4 && points.length >= 3) return closed(points)
  const isPathDrawn = shape.displayMode === 1 || shape.displayMode === 3
  if ((shape.type === 3 || shape.type === 5) && isPathDrawn)
    return points.slice(1).map((end, index): [DrawPosition, DrawPosition] => [points[index]!, end])
  return []
}
