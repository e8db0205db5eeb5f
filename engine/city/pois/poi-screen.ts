import type { WebMercatorViewport } from '@deck.gl/core'
import type { Vector3Tuple } from '../../api/building-snapshot'
import type { LngLatBox } from './poi-clusters'

/** Where a geographic point is drawn, CSS pixels, and whether it is in front and in the view. */
export function screenPointOf(
  viewport: WebMercatorViewport,
  position: Vector3Tuple,
): { x: number; y: number; isVisible: boolean } {
  const common = viewport.projectPosition(position as unknown as number[])
  const m = viewport.pixelProjectionMatrix
  // The clip-space w: a point behind the camera has w ≤ 0 (deck's project would mirror it).
  const w = m[3]! * common[0] + m[7]! * common[1] + m[11]! * common[2] + m[15]!
  const [x = Number.NaN, y = Number.NaN] = viewport.project(position as unknown as number[])
  const isVisible =
    w > 0 &&
    Number.isFinite(x) &&
    Number.isFinite(y) &&
    x >= 0 &&
    y >= 0 &&
    x <= viewport.width &&
    y <= viewport.height
  return { x, y, isVisible }
}

/**
 * The box in degrees that holds every point drawn inside a screen rectangle at heights between
 * `lowMeters` and `highMeters`: the rectangle's corners unprojected at both heights.
 */
export function boxUnderScreenRect(
  viewport: WebMercatorViewport,
  rect: { left: number; top: number; right: number; bottom: number },
  lowMeters: number,
  highMeters: number,
): LngLatBox {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const targetZ of [lowMeters, highMeters]) {
    for (const [x, y] of [
      [rect.left, rect.top],
      [rect.right, rect.top],
      [rect.left, rect.bottom],
      [rect.right, rect.bottom],
    ] as const) {
      const [lng = Number.NaN, lat = Number.NaN] = viewport.unproject([x, y], { targetZ })
      if (!Number.isFinite(lng) || !Number.isFinite(lat)) continue
      west = Math.min(west, lng)
      east = Math.max(east, lng)
      south = Math.min(south, lat)
      north = Math.max(north, lat)
    }
  }
  if (!(west <= east)) return [0, 0, 0, 0]
  return [west, Math.max(-85, south), east, Math.min(85, north)]
}

/** Squared distance from a point to a screen segment (a 3D model's base-to-top line). */
export function distanceToSegmentSquared(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax
  const dy = by - ay
  const lengthSquared = dx * dx + dy * dy
  const t =
    lengthSquared === 0
      ? 0
      : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared))
  const cx = ax + t * dx - px
  const cy = ay + t * dy - py
  return cx * cx + cy * cy
}

/** Metres east and north between two nearby points (equirectangular, fine within a few km). */
export function eastNorthMeters(from: Vector3Tuple, to: Vector3Tuple): [number, number, number] {
  const metersPerDegree = 111_320
  const cosLat = Math.cos((from[1] * Math.PI) / 180)
  return [
    (to[0] - from[0]) * metersPerDegree * cosLat,
    (to[1] - from[1]) * metersPerDegree,
    to[2] - from[2],
  ]
}
