import type { Matrix4 } from 'three'

/**
 * Screen-space work over all POIs, on flat arrays: projecting them, the clustering grid and the
 * label declutter grid. Projecting 100,000 points is a few milliseconds of plain arithmetic, so
 * picking projects afresh with the current camera instead of keeping an index that every
 * camera move would invalidate.
 */

/** Where a scene point lands on the canvas (CSS pixels) and its clip w (≤ 0: behind). */
export function projectPoint(
  viewProjection: Matrix4,
  x: number,
  y: number,
  z: number,
  width: number,
  height: number,
): { x: number; y: number; w: number } {
  const e = viewProjection.elements
  const w = e[3]! * x + e[7]! * y + e[11]! * z + e[15]!
  const clipX = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!
  const clipY = e[1]! * x + e[5]! * y + e[9]! * z + e[13]!
  return { x: ((clipX / w + 1) / 2) * width, y: ((1 - clipY / w) / 2) * height, w }
}

/**
 * Projects the POIs whose `shown` flag is set into `out` (x, y in CSS pixels, w per POI; w is
 * 0 for POIs not shown or behind the camera). Returns how many landed in front of it.
 */
export function projectAll(
  viewProjection: Matrix4,
  positions: Float64Array,
  shown: Uint8Array,
  count: number,
  width: number,
  height: number,
  out: Float32Array,
): number {
  const e = viewProjection.elements
  const [e0, e1, e3, e4, e5, e7, e8, e9, e11, e12, e13, e15] = [
    e[0]!,
    e[1]!,
    e[3]!,
    e[4]!,
    e[5]!,
    e[7]!,
    e[8]!,
    e[9]!,
    e[11]!,
    e[12]!,
    e[13]!,
    e[15]!,
  ]
  const halfWidth = width / 2
  const halfHeight = height / 2
  let inFront = 0
  for (let index = 0; index < count; index++) {
    const at = index * 3
    if (shown[index] === 0) {
      out[at + 2] = 0
      continue
    }
    const x = positions[at]!
    const y = positions[at + 1]!
    const z = positions[at + 2]!
    const w = e3 * x + e7 * y + e11 * z + e15
    if (w <= 1e-6) {
      out[at + 2] = 0
      continue
    }
    out[at] = ((e0 * x + e4 * y + e8 * z + e12) / w + 1) * halfWidth
    out[at + 1] = (1 - (e1 * x + e5 * y + e9 * z + e13) / w) * halfHeight
    out[at + 2] = w
    inFront++
  }
  return inFront
}

/**
 * The projected POI nearest to a canvas point within its own hit radius (CSS pixels; markers
 * and models differ), or -1. Among POIs at the same spot the one nearest to the eye wins.
 */
export function nearestProjected(
  screen: Float32Array,
  count: number,
  x: number,
  y: number,
  radiusOf: (index: number, w: number) => number,
): number {
  let best = -1
  let bestScore = Number.POSITIVE_INFINITY
  for (let index = 0; index < count; index++) {
    const w = screen[index * 3 + 2]!
    if (w === 0) continue
    const dx = screen[index * 3]! - x
    const dy = screen[index * 3 + 1]! - y
    const distanceSq = dx * dx + dy * dy
    if (distanceSq > 2500) continue // beyond 50 px: no marker is that big
    const radius = radiusOf(index, w)
    if (distanceSq > radius * radius) continue
    const score = distanceSq + w * 1e-3
    if (score < bestScore) {
      bestScore = score
      best = index
    }
  }
  return best
}

/**
 * A grid over the canvas that groups markers falling in the same cell: one marker alone stays a
 * marker, two or more become a cluster drawn at their mean position with their count. A fixed
 * grid (not distance-based merging) keeps this linear in the number of POIs.
 */
export class ClusterGrid {
  private counts = new Int32Array(0)
  private first = new Int32Array(0)
  private sums = new Float64Array(0)
  private columns = 0
  private rows = 0
  readonly used: number[] = []

  constructor(readonly cellPixels: number) {}

  /** Starts a frame for a canvas of this size. */
  reset(width: number, height: number): void {
    this.columns = Math.max(1, Math.ceil(width / this.cellPixels))
    this.rows = Math.max(1, Math.ceil(height / this.cellPixels))
    const cells = this.columns * this.rows
    if (this.counts.length < cells) {
      this.counts = new Int32Array(cells)
      this.first = new Int32Array(cells)
      this.sums = new Float64Array(cells * 3)
    }
    for (const cell of this.used) this.counts[cell] = 0
    this.used.length = 0
  }

  /** Adds a marker (its index, screen point and scene point); false when off the canvas. */
  add(index: number, screenX: number, screenY: number, x: number, y: number, z: number): boolean {
    const column = Math.floor(screenX / this.cellPixels)
    const row = Math.floor(screenY / this.cellPixels)
    if (column < 0 || row < 0 || column >= this.columns || row >= this.rows) return false
    const cell = row * this.columns + column
    const count = this.counts[cell]!
    if (count === 0) {
      this.used.push(cell)
      this.first[cell] = index
      this.sums[cell * 3] = 0
      this.sums[cell * 3 + 1] = 0
      this.sums[cell * 3 + 2] = 0
    }
    this.counts[cell] = count + 1
    const sums = this.sums
    sums[cell * 3] = sums[cell * 3]! + x
    sums[cell * 3 + 1] = sums[cell * 3 + 1]! + y
    sums[cell * 3 + 2] = sums[cell * 3 + 2]! + z
    return true
  }

  /** How many markers fell in a used cell. */
  countOf(cell: number): number {
    return this.counts[cell]!
  }

  /** The first marker of a cell (the marker itself when alone). */
  firstOf(cell: number): number {
    return this.first[cell]!
  }

  /** The mean scene point of a cell's markers. */
  meanOf(cell: number): [number, number, number] {
    const count = this.counts[cell]!
    return [
      this.sums[cell * 3]! / count,
      this.sums[cell * 3 + 1]! / count,
      this.sums[cell * 3 + 2]! / count,
    ]
  }
}

/** Cells of 8 CSS pixels marking where labels went, so the next one goes elsewhere or not at all. */
export class DeclutterGrid {
  private static readonly CELL = 8
  private taken = new Uint8Array(0)
  private columns = 0
  private rows = 0

  /** Starts a frame for a canvas of this size. */
  reset(width: number, height: number): void {
    this.columns = Math.ceil(width / DeclutterGrid.CELL)
    this.rows = Math.ceil(height / DeclutterGrid.CELL)
    const cells = this.columns * this.rows
    if (this.taken.length < cells) this.taken = new Uint8Array(cells)
    else this.taken.fill(0, 0, cells)
  }

  /** Takes a rect (CSS pixels, top-left and size) when it is free and on the canvas. */
  tryTake(left: number, top: number, width: number, height: number): boolean {
    const cell = DeclutterGrid.CELL
    const column0 = Math.floor(left / cell)
    const row0 = Math.floor(top / cell)
    const column1 = Math.floor((left + width - 1) / cell)
    const row1 = Math.floor((top + height - 1) / cell)
    if (column0 < 0 || row0 < 0 || column1 >= this.columns || row1 >= this.rows) return false
    for (let row = row0; row <= row1; row++) {
      for (let column = column0; column <= column1; column++) {
        if (this.taken[row * this.columns + column]) return false
      }
    }
    for (let row = row0; row <= row1; row++) {
      this.taken.fill(1, row * this.columns + column0, row * this.columns + column1 + 1)
    }
    return true
  }
}
