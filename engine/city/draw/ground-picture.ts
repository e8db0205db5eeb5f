/**
 * The saved drawings of the city as one picture on the ground (issue 18's drawing frames).
 *
 * A software GPU (SwiftShader: CI, machines without a GPU) pays for every small triangle every
 * frame: 1,000 saved areas and 1,000 paths are ~80,000 of them, 3.5× the frame time of the map
 * without them. Painted once into a picture of the ground around the view (Web Mercator, as the
 * map is), they are one textured quad a frame, painted again only when the drawings change, the
 * zoom settles at another scale or the view leaves the painted region. Whatever does not fit in
 * the region stays plain triangles, so nothing is ever missing while the picture catches up.
 *
 * This module plans the picture on the page's thread (which drawings it shows, at what texel,
 * and when it must be painted again); the ground-picture worker paints it
 * (workers/ground-picture), so the page never waits for the painting.
 *
 * Coordinates here are Web Mercator "world" units: the world is 1 × 1, x east from the
 * antimeridian, y south from the north edge (MapLibre's MercatorCoordinate).
 */

import {
  type GroundDrawings,
  type WorldBox,
  worldOf,
} from '../../../workers/ground-picture/ground-picture-paint'

/** What of the view the picture is planned for. */
export interface GroundView {
  /** The view's centre, world units. */
  center: readonly [number, number]
  /** How far from the centre the ground on the screen reaches, world units (any bearing). */
  reach: number
  /** One texel of the picture, world units: finer than a screen pixel where the ground is nearest. */
  texel: number
  /** One CSS pixel of the map's zoom in world units: what a drawing's pixel widths mean. */
  pixel: number
}

/** Texels of the picture on a side at most: 64 MB of texture. */
export const largestPictureSide = 4096

/**
 * How much further than the screen's ground the picture reaches: orbiting, panning a little
 * and small camera flights stay inside it without painting again.
 */
const reachMargin = 1.5

function boxOfPoints(points: readonly (readonly number[])[], margin: number): WorldBox {
  let x0 = Number.POSITIVE_INFINITY
  let y0 = Number.POSITIVE_INFINITY
  let x1 = Number.NEGATIVE_INFINITY
  let y1 = Number.NEGATIVE_INFINITY
  for (const point of points) {
    const [x, y] = worldOf(point)
    x0 = Math.min(x0, x)
    y0 = Math.min(y0, y)
    x1 = Math.max(x1, x)
    y1 = Math.max(y1, y)
  }
  return [x0 - margin, y0 - margin, x1 + margin, y1 + margin]
}

function intersect(a: WorldBox, b: WorldBox): WorldBox | null {
  const box: WorldBox = [
    Math.max(a[0], b[0]),
    Math.max(a[1], b[1]),
    Math.min(a[2], b[2]),
    Math.min(a[3], b[3]),
  ]
  return box[0] < box[2] && box[1] < box[3] ? box : null
}

function union(a: WorldBox | null, b: WorldBox): WorldBox {
  if (!a) return b
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]
}

export function contains(outer: WorldBox, inner: WorldBox): boolean {
  return (
    inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3]
  )
}

/**
 * Where each drawing reaches on the ground, its pixel widths included (a line's square caps,
 * a dot's ring), world units; a drawing crossing the antimeridian gets no box (stays triangles).
 */
export function boxesOf(drawings: GroundDrawings, pixel: number) {
  const boxOf = (points: readonly (readonly number[])[], marginPixels: number) => {
    const box = boxOfPoints(points, marginPixels * pixel)
    return box[2] - box[0] > 0.5 ? null : box
  }
  return {
    fills: drawings.fills.map((fill) => boxOf(fill.ring, 0)),
    lines: drawings.lines.map((line) => boxOf(line.path, (line.widthPixels / 2) * Math.SQRT2)),
    dots: drawings.dots.map((dot) => boxOf([dot.position], dot.radiusPixels + dot.lineWidthPixels)),
  }
}

/**
 * The region the picture covers: the ground around the view (any bearing, with a margin) where
 * there are drawings, on the texel grid, at most {@link largestPictureSide} texels a side.
 * Null when no drawing is near the view.
 */
export function planRegion(
  view: GroundView,
  drawingsBox: WorldBox | null,
  texel = view.texel,
): WorldBox | null {
  if (!drawingsBox) return null
  const half = Math.min(view.reach * reachMargin, ((largestPictureSide - 2) * view.texel) / 2)
  const [cx, cy] = view.center
  const near = intersect([cx - half, cy - half, cx + half, cy + half], drawingsBox)
  if (!near) return null
  return [
    Math.floor(near[0] / texel) * texel,
    Math.floor(near[1] / texel) * texel,
    Math.ceil(near[2] / texel) * texel,
    Math.ceil(near[3] / texel) * texel,
  ]
}

/**
 * True while a picture painted for `painted` still serves `view`: the same scale, and the
 * ground on the screen that has drawings inside the painted region.
 */
export function servesView(
  painted: { view: GroundView; region: WorldBox | null; drawingsBox: WorldBox | null },
  view: GroundView,
): boolean {
  if (painted.view.pixel !== view.pixel) return false
  // As fine as the view needs, and not needlessly finer (a tilt went back); the small
  // tolerance keeps an orbit, whose texel only wobbles by rounding, from painting each frame.
  if (painted.view.texel > view.texel * 1.01 || painted.view.texel < view.texel / 2) return false
  if (!painted.drawingsBox) return true
  const half = Math.min(view.reach, ((largestPictureSide - 2) * view.texel) / 2 / reachMargin)
  const [cx, cy] = view.center
  const seen = intersect([cx - half, cy - half, cx + half, cy + half], painted.drawingsBox)
  if (!seen) return true
  return painted.region !== null && contains(painted.region, seen)
}

/**
 * Texels a picture has at most at the view's texel; a larger one is painted at twice the texel
 * (a quarter of the texels: painting and uploading it stays a fraction of a second).
 */
export const finePictureTexels = 2048 * 2048

/**
 * Drawings split into what the picture shows and what stays plain triangles, and the texel the
 * picture is painted at.
 */
export function splitDrawings(
  drawings: GroundDrawings,
  view: GroundView,
): {
  texel: number
  region: WorldBox | null
  drawingsBox: WorldBox | null
  inPicture: GroundDrawings
  outside: GroundDrawings
} {
  const boxes = boxesOf(drawings, view.pixel)
  let drawingsBox: WorldBox | null = null
  for (const box of [...boxes.fills, ...boxes.lines, ...boxes.dots])
    if (box) drawingsBox = union(drawingsBox, box)
  let texel = view.texel
  let region = planRegion(view, drawingsBox, texel)
  if (
    region &&
    ((region[2] - region[0]) * (region[3] - region[1])) / texel ** 2 > finePictureTexels
  ) {
    texel *= 2
    region = planRegion(view, drawingsBox, texel)
  }
  const isIn = (box: WorldBox | null) => region !== null && box !== null && contains(region, box)
  const part = <Item>(items: readonly Item[], itemBoxes: (WorldBox | null)[], inside: boolean) =>
    items.filter((_, index) => isIn(itemBoxes[index]!) === inside)
  const partOf = (inside: boolean): GroundDrawings => ({
    fills: part(drawings.fills, boxes.fills, inside),
    lines: part(drawings.lines, boxes.lines, inside),
    dots: part(drawings.dots, boxes.dots, inside),
  })
  return { texel, region, drawingsBox, inPicture: partOf(true), outside: partOf(false) }
}
