import Flatbush from 'flatbush'
import { geodesicCirclePoints, geodesicDistanceMeters, type LngLat } from './draw-geometry'

/**
 * Electronic fences (issue 18): which fences a position is inside, over an R-tree of the
 * fences' bounding boxes (flatbush), then an exact test of the few candidates — a polygon by
 * ray casting on longitude/latitude (fences are at most tens of kilometres, where a geodesic
 * edge and its straight lng/lat line differ by far less than a position's own error), a circle
 * by its geodesic radius. Pure, so it runs in the server, a worker or a benchmark alike.
 */

/** A fence: a polygon ring (no closing point) or a circle (centre and radius). */
export type FenceShape =
  | { id: string; kind: 'polygon'; ring: readonly LngLat[] }
  | { id: string; kind: 'circle'; center: LngLat; radiusMeters: number }

/** Whether `point` is inside the ring (even–odd rule; the boundary may go either way). */
export function isInsideRing(point: LngLat, ring: readonly LngLat[]): boolean {
  const [x, y] = point
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!
    const [xj, yj] = ring[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/**
 * A ring crossing the antimeridian (spanning over 180° of longitude) with its western
 * longitudes moved past 180°, so it is one piece; other rings as they are.
 */
export function unwrapRing(ring: readonly LngLat[]): readonly LngLat[] {
  let west = 180
  let east = -180
  for (const [lng] of ring) {
    west = Math.min(west, lng)
    east = Math.max(east, lng)
  }
  if (east - west <= 180) return ring
  return ring.map(([lng, lat]) => [lng < 0 ? lng + 360 : lng, lat] as LngLat)
}

/** Whether `point` is inside one fence (a polygon ring given unwrapped, see {@link unwrapRing}). */
export function isInsideFence(point: LngLat, fence: FenceShape): boolean {
  if (fence.kind === 'circle')
    return geodesicDistanceMeters(fence.center, point) <= fence.radiusMeters
  return (
    isInsideRing(point, fence.ring) ||
    (point[0] < 0 && isInsideRing([point[0] + 360, point[1]], fence.ring))
  )
}

function boundsOf(fence: FenceShape): [number, number, number, number] {
  if (fence.kind === 'circle') {
    // A circle around a pole spans every longitude up to the pole.
    const { center, radiusMeters } = fence
    if (geodesicDistanceMeters(center, [0, 90]) <= radiusMeters) {
      const south = geodesicCirclePoints(center, radiusMeters, 32).reduce(
        (low, [, lat]) => Math.min(low, lat),
        90,
      )
      return [-180, south, 180, 90]
    }
    if (geodesicDistanceMeters(center, [0, -90]) <= radiusMeters) {
      const north = geodesicCirclePoints(center, radiusMeters, 32).reduce(
        (high, [, lat]) => Math.max(high, lat),
        -90,
      )
      return [-180, -90, 180, north]
    }
  }
  const points =
    fence.kind === 'circle'
      ? geodesicCirclePoints(fence.center, fence.radiusMeters, 32)
      : fence.ring
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
  // The 32-gon of a circle lies inside it: widen by a little so no inside point is missed.
  const pad = fence.kind === 'circle' ? (north - south) * 0.01 : 0
  return [west - pad, south - pad, east + pad, north + pad]
}

/** The fences of a project, indexed for "which fences contain this point". */
export class FenceIndex {
  private readonly tree: Flatbush | null

  readonly fences: readonly FenceShape[]

  constructor(fences: readonly FenceShape[]) {
    this.fences = fences.map((fence) =>
      fence.kind === 'polygon' ? { ...fence, ring: unwrapRing(fence.ring) } : fence,
    )
    if (fences.length === 0) {
      this.tree = null
      return
    }
    const tree = new Flatbush(fences.length)
    for (const fence of this.fences) tree.add(...boundsOf(fence))
    tree.finish()
    this.tree = tree
  }

  /** The ids of the fences containing `point`, in fence order. */
  containing(point: LngLat): string[] {
    if (!this.tree) return []
    const [lng, lat] = point
    // An unwrapped ring east of 180° is found by the point moved a turn east as well.
    const hits = this.tree.search(lng, lat, lng, lat)
    if (lng < 0) hits.push(...this.tree.search(lng + 360, lat, lng + 360, lat))
    return [...new Set(hits)]
      .sort((a, b) => a - b)
      .filter((index) => isInsideFence(point, this.fences[index]!))
      .map((index) => this.fences[index]!.id)
  }
}

/** The same answer as {@link FenceIndex.containing} by testing every fence (the benchmark's baseline). */
export function containingAllPairs(fences: readonly FenceShape[], point: LngLat): string[] {
  // (rings already unwrapped, as FenceIndex keeps them: `index.fences`)
  return fences.filter((fence) => isInsideFence(point, fence)).map((fence) => fence.id)
}

/** An enter or leave: what changed between the fences an object was in and is in now. */
export interface FenceCrossing {
  fenceId: string
  kind: 'enter' | 'leave'
}

/** The crossings from `before` to `after` (fence id lists): leaves first, then enters. */
export function fenceCrossings(
  before: readonly string[],
  after: readonly string[],
): FenceCrossing[] {
  const was = new Set(before)
  const is = new Set(after)
  return [
    ...before.filter((id) => !is.has(id)).map((fenceId) => ({ fenceId, kind: 'leave' as const })),
    ...after.filter((id) => !was.has(id)).map((fenceId) => ({ fenceId, kind: 'enter' as const })),
  ]
}
