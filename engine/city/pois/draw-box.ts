import type { LngLatBox } from './poi-clusters'

/**
 * How much the box of drawn markers extends past the view, as a share of its size per side
 * (orbiting over 100,000 POIs at zoom 16.5: 0.5 drew a frame in 83–100 ms, 0.1 in 66–83, when
 * markers were still deck instances).
 */
export const drawBoxMargin = 0.1
/**
 * The box that holds the view at every bearing is used while it is at most this many times the
 * area of the view's own grown box: at a street-block zoom and 55° of pitch it is ≈ 2.3 times,
 * and near the horizon it grows without bound (the markers of a whole zoom level).
 */
const turnBoxAreaAtMost = 3

/** The view grown by `share` of its size on each side (the whole world when that covers it). */
export function grownBox([west, south, east, north]: LngLatBox, share: number): LngLatBox {
  const width = east - west
  if (width * (1 + 2 * share) >= 360) return [-180, -85, 180, 85]
  const height = north - south
  return [
    west - width * share,
    Math.max(-85, south - height * share),
    east + width * share,
    Math.min(85, north + height * share),
  ]
}

export function boxContains(outer: LngLatBox | null, inner: LngLatBox): boolean {
  return (
    outer !== null &&
    inner[0] >= outer[0] &&
    inner[1] >= outer[1] &&
    inner[2] <= outer[2] &&
    inner[3] <= outer[3]
  )
}

function area([west, south, east, north]: LngLatBox): number {
  return Math.max(0, east - west) * Math.max(0, north - south)
}

/**
 * The box around `centre` that holds the view at any bearing: the map turns about its centre, so
 * the view's corners (`corners`, [lng, lat] on the ground) stay as far from it whatever the
 * bearing. Grown by `share` of that distance.
 */
export function turnBox(
  [lng, lat]: readonly [number, number],
  corners: ReadonlyArray<readonly [number, number]>,
  share: number,
): LngLatBox {
  const cosine = Math.cos((lat * Math.PI) / 180)
  let farthest = 0
  for (const [cornerLng, cornerLat] of corners) {
    const east = (cornerLng - lng) * cosine
    const north = cornerLat - lat
    farthest = Math.max(farthest, Math.hypot(east, north))
  }
  const reach = farthest * (1 + share)
  const south = Math.max(-85, lat - reach)
  const north = Math.min(85, lat + reach)
  // A degree of longitude is shortest at the box's edge furthest from the equator.
  const edgeCosine = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180)
  const across = reach / Math.max(edgeCosine, 1e-6)
  if (across >= 180) return [-180, south, 180, north]
  return [lng - across, south, lng + across, north]
}

/**
 * The box whose markers go to deck for this view: the box that holds the view at every bearing
 * (`turn`), so turning the map around its centre never leaves it and its markers are not made
 * and uploaded again while the camera orbits (issue 16, P9), unless that box is much larger than
 * the view's (a view near the horizon); then the view grown by {@link drawBoxMargin}.
 */
export function drawBoxFor(view: LngLatBox, turn: LngLatBox | null): LngLatBox {
  const grown = grownBox(view, drawBoxMargin)
  if (turn && boxContains(turn, view) && area(turn) <= turnBoxAreaAtMost * area(grown)) return turn
  return grown
}
