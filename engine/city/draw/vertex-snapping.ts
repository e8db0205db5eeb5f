import type { DrawPosition, DrawShape } from '../../api/draw-commands'

/** How near (CSS pixels) a pointer must be to a saved drawing's vertex to land on it. */
export const snapRadiusPixels = 8

/** The map's conversions between places and pixels of its container. */
export interface ScreenProjection {
  project(lng: number, lat: number): { x: number; y: number }
  unproject(x: number, y: number): { lng: number; lat: number }
}

/**
 * The vertices a pointer snaps to while drawing or editing (issue 18 "vertex snapping"): every
 * corner and node of the saved drawings shown on the map, and a circle's centre (its rim point
 * is only a radius). They are one flat array of longitude/latitude pairs, so a pointer move
 * costs a box test per vertex and a projection only for the few near the pointer.
 */
export class VertexSnapping {
  private vertices = new Float64Array(0)

  /** The targets: the vertices of the visible `shapes`, except those of `exceptId` (the one in hand). */
  setShapes(shapes: readonly DrawShape[], exceptId?: string): void {
    const targets = shapes.filter((shape) => shape.isVisible && shape.id !== exceptId)
    const pointsOf = (shape: DrawShape) =>
      shape.type === 1 ? shape.points.slice(0, 1) : shape.points
    let count = 0
    for (const shape of targets) count += pointsOf(shape).length
    const vertices = new Float64Array(count * 2)
    let index = 0
    for (const shape of targets)
      for (const [lng, lat] of pointsOf(shape)) {
        vertices[index++] = lng
        vertices[index++] = lat
      }
    this.vertices = vertices
  }

  /**
   * The vertex drawn nearest the container pixel (`x`, `y`) and at most `radiusPixels` from it,
   * or undefined.
   */
  nearest(
    x: number,
    y: number,
    projection: ScreenProjection,
    radiusPixels = snapRadiusPixels,
  ): DrawPosition | undefined {
    const vertices = this.vertices
    if (vertices.length === 0) return undefined
    // The places under a square around the pointer, a bit larger than the radius (the map is
    // not quite linear over it when tilted): a vertex outside them cannot be near enough. Across
    // the antimeridian the box would wrap, so then every vertex is projected.
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
    const isBoxed = Number.isFinite(west + east + south + north) && east - west < 180
    let nearest: DrawPosition | undefined
    let nearestSquared = radiusPixels * radiusPixels
    for (let index = 0; index < vertices.length; index += 2) {
      const lng = vertices[index]!
      const lat = vertices[index + 1]!
      if (isBoxed && (lng < west || lng > east || lat < south || lat > north)) continue
      const pixel = projection.project(lng, lat)
      const squared = (pixel.x - x) ** 2 + (pixel.y - y) ** 2
      if (squared <= nearestSquared) {
        nearestSquared = squared
        nearest = [lng, lat]
      }
    }
    return nearest
  }
}
