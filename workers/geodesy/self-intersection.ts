/** A position: longitude then latitude, degrees. */
type LngLat = readonly [lng: number, lat: number]

const degree = Math.PI / 180

/**
 * The first pair of edges (edge i runs from vertex i to vertex i+1, the last back to 0) of a
 * closed ring that cross or touch, undefined when the ring is simple, or 'tooWide' when a vertex
 * lies more than `maxSpanDegrees` from the ring's centre.
 *
 * The ring is projected gnomonically about its centre (the normalized mean of its unit vectors):
 * that projection maps great circles to straight lines, so the test is exact on the sphere,
 * holds across the antimeridian and near a pole alike, and on the ellipsoid differs from the
 * geodesic edges by far less than a drawn shape's vertices are apart. Edges are then swept in
 * order of their left end, each tested only against edges still overlapping it in x: about
 * O(n log n) for drawn shapes, so a 100,000-vertex ring is checked in well under a second.
 */
export function findSelfIntersection(
  ring: readonly LngLat[],
  maxSpanDegrees: number,
): readonly [number, number] | 'tooWide' | undefined {
  const count = ring.length
  const unit = ring.map(([lng, lat]) => {
    const cosLat = Math.cos(lat * degree)
    return [
      cosLat * Math.cos(lng * degree),
      cosLat * Math.sin(lng * degree),
      Math.sin(lat * degree),
    ]
  })
  let cx = 0
  let cy = 0
  let cz = 0
  for (const [x, y, z] of unit as [number, number, number][]) {
    cx += x
    cy += y
    cz += z
  }
  const norm = Math.hypot(cx, cy, cz)
  if (norm < 1e-12) return 'tooWide'
  cx /= norm
  cy /= norm
  cz /= norm
  // An east/north basis at the centre (any basis perpendicular to it would do; this one keeps
  // the projection upright when looked at).
  const eastNorm = Math.hypot(cx, cy)
  const east = eastNorm > 1e-12 ? [-cy / eastNorm, cx / eastNorm, 0] : [0, 1, 0]
  const north = [
    cy * east[2]! - cz * east[1]!,
    cz * east[0]! - cx * east[2]!,
    cx * east[1]! - cy * east[0]!,
  ]
  const minCos = Math.cos(maxSpanDegrees * degree)
  const xs = new Float64Array(count)
  const ys = new Float64Array(count)
  for (let index = 0; index < count; index++) {
    const [x, y, z] = unit[index] as [number, number, number]
    const cosAngle = x * cx + y * cy + z * cz
    if (cosAngle < minCos) return 'tooWide'
    // Scaled to metres on a 6371 km sphere so the orientation products stay well inside the
    // range of doubles for a 1 m square as for a 500 km one.
    const scale = 6_371_000 / cosAngle
    xs[index] = (x * east[0]! + y * east[1]! + z * east[2]!) * scale
    ys[index] = (x * north[0]! + y * north[1]! + z * north[2]!) * scale
  }

  const order = Array.from({ length: count }, (_, index) => index)
  const minX = (edge: number) => Math.min(xs[edge]!, xs[(edge + 1) % count]!)
  const maxX = (edge: number) => Math.max(xs[edge]!, xs[(edge + 1) % count]!)
  order.sort((a, b) => minX(a) - minX(b))
  let active: number[] = []
  for (const edge of order) {
    const left = minX(edge)
    active = active.filter((other) => maxX(other) >= left)
    for (const other of active) {
      if (edgesMeet(edge, other, count, xs, ys)) return edge < other ? [edge, other] : [other, edge]
    }
    active.push(edge)
  }
  return undefined
}

function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number) {
  const value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
  return value > 0 ? 1 : value < 0 ? -1 : 0
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number) {
  return (
    Math.min(ax, bx) <= px &&
    px <= Math.max(ax, bx) &&
    Math.min(ay, by) <= py &&
    py <= Math.max(ay, by)
  )
}

/**
 * Whether two edges of the ring share a point they should not: any common point for edges
 * that are not neighbours; for neighbours (which share a vertex), running back over each other.
 */
function edgesMeet(
  first: number,
  second: number,
  count: number,
  xs: Float64Array,
  ys: Float64Array,
): boolean {
  const a = first
  const b = (first + 1) % count
  const c = second
  const d = (second + 1) % count
  const ax = xs[a]!
  const ay = ys[a]!
  const bx = xs[b]!
  const by = ys[b]!
  const cx = xs[c]!
  const cy = ys[c]!
  const dx = xs[d]!
  const dy = ys[d]!
  if (b === c || d === a) {
    // Neighbours: the shared vertex is expected; a fold back along the same line is not.
    const [sx, sy, px, py, qx, qy] = b === c ? [bx, by, ax, ay, dx, dy] : [ax, ay, bx, by, cx, cy]
    if (orientation(sx, sy, px, py, qx, qy) !== 0) return false
    return (px - sx) * (qx - sx) + (py - sy) * (qy - sy) > 0
  }
  const o1 = orientation(ax, ay, bx, by, cx, cy)
  const o2 = orientation(ax, ay, bx, by, dx, dy)
  const o3 = orientation(cx, cy, dx, dy, ax, ay)
  const o4 = orientation(cx, cy, dx, dy, bx, by)
  if (o1 !== o2 && o3 !== o4) return true
  return (
    (o1 === 0 && onSegment(ax, ay, bx, by, cx, cy)) ||
    (o2 === 0 && onSegment(ax, ay, bx, by, dx, dy)) ||
    (o3 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) ||
    (o4 === 0 && onSegment(cx, cy, dx, dy, bx, by))
  )
}
