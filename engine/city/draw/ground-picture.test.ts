import { describe, expect, it } from 'vitest'
import {
  type GroundDrawings,
  lngLatOfWorld,
  worldOf,
} from '../../../workers/ground-picture/ground-picture-paint'
import { type GroundView, largestPictureSide, servesView, splitDrawings } from './ground-picture'

/**
 * The ground picture the saved drawings are painted into (issue 18's drawing frames): which
 * drawings it shows, which stay triangles, and when it must be painted again. The pixels it
 * paints are seen in city-draw.browser.test.ts.
 */

const seoul = [126.978, 37.5665] as const

/** A view of zoom 16 around Seoul at 960 px, half a pixel a texel. */
function viewAt(lngLat: readonly number[], zoom = 16): GroundView {
  const pixel = 1 / (512 * 2 ** zoom)
  return { center: worldOf(lngLat), reach: 480 * pixel, texel: pixel / 2, pixel }
}

const blue = [30, 136, 229, 255]

/** A square area of `meters` about (roughly) `lngLat`, outlined 2 px. */
function square(lngLat: readonly number[], degrees: number): GroundDrawings {
  const [lng, lat] = lngLat as [number, number]
  const ring = [
    [lng - degrees, lat - degrees],
    [lng + degrees, lat - degrees],
    [lng + degrees, lat + degrees],
    [lng - degrees, lat + degrees],
  ]
  return {
    fills: [{ ring, color: blue }],
    lines: [{ path: ring, color: blue, widthPixels: 2, isClosed: true }],
    dots: [
      {
        position: lngLat,
        fillColor: blue,
        lineColor: [255, 255, 255, 255],
        radiusPixels: 5,
        lineWidthPixels: 1.5,
      },
    ],
  }
}

function merge(...parts: GroundDrawings[]): GroundDrawings {
  return {
    fills: parts.flatMap((part) => part.fills),
    lines: parts.flatMap((part) => part.lines),
    dots: parts.flatMap((part) => part.dots),
  }
}

describe('the ground picture of the saved drawings', () => {
  it('maps longitude and latitude to Web Mercator and back', () => {
    expect(worldOf([0, 0])).toEqual([0.5, 0.5])
    const [lng, lat] = lngLatOfWorld(worldOf(seoul))
    expect(lng).toBeCloseTo(seoul[0], 9)
    expect(lat).toBeCloseTo(seoul[1], 9)
    // North is up: a place further north has a smaller y.
    expect(worldOf([0, 10])[1]).toBeLessThan(worldOf([0, 0])[1])
  })

  it('paints what is near the view and keeps far drawings as triangles', () => {
    const near = square(seoul, 0.0005)
    const far = square([seoul[0] + 1, seoul[1]], 0.0005)
    const view = viewAt(seoul)
    const { region, inPicture, outside } = splitDrawings(merge(near, far), view)
    expect(inPicture).toEqual(near)
    expect(outside).toEqual(far)
    // The region is the near drawings' reach (their line widths included) on the texel grid.
    const [x0, y0, x1, y1] = region!
    const [west, north] = worldOf([seoul[0] - 0.0005, seoul[1] + 0.0005])
    expect(x0).toBeLessThan(west)
    expect(y0).toBeLessThan(north)
    expect(Number.isInteger(x0 / view.texel)).toBe(true)
    expect((x1 - x0) / view.texel).toBeLessThanOrEqual(largestPictureSide)
    expect((y1 - y0) / view.texel).toBeLessThanOrEqual(largestPictureSide)
  })

  it('is not made when no drawing is near the view', () => {
    const { region, inPicture, outside } = splitDrawings(
      square([seoul[0] + 1, seoul[1]], 0.0005),
      viewAt(seoul),
    )
    expect(region).toBeNull()
    expect(inPicture.fills).toHaveLength(0)
    expect(outside.fills).toHaveLength(1)
  })

  it('keeps a drawing larger than the largest picture as triangles', () => {
    // ≈ 220 km across at zoom 16: far more than 4,096 texels.
    const huge = square(seoul, 1)
    const { inPicture, outside } = splitDrawings(huge, viewAt(seoul))
    expect(inPicture.fills).toHaveLength(0)
    expect(outside.fills).toHaveLength(1)
    // Its node in the middle still fits.
    expect(inPicture.dots).toHaveLength(1)
  })

  it('serves an orbit and a small pan, and is painted again after a zoom or a long pan', () => {
    const drawings = merge(
      square(seoul, 0.0005),
      square([seoul[0] + 0.02, seoul[1]], 0.0005),
      square([seoul[0] - 0.02, seoul[1]], 0.0005),
    )
    const view = viewAt(seoul)
    const { region, drawingsBox } = splitDrawings(drawings, view)
    const painted = { view, region, drawingsBox }
    // Orbiting: the same centre and scale, the texel wobbling by rounding.
    expect(servesView(painted, { ...view, texel: view.texel * 1.000_001 })).toBe(true)
    // A pan of a fifth of the screen stays inside the margin.
    const panned = viewAt([seoul[0] + 0.0008, seoul[1]])
    expect(servesView(painted, panned)).toBe(true)
    // Zoomed: the pixel widths and the texel change.
    expect(servesView(painted, viewAt(seoul, 16.5))).toBe(false)
    // Tilted so the nearest ground needs finer texels.
    expect(servesView(painted, { ...view, texel: view.texel / 1.5 })).toBe(false)
    // Panned to the drawings 1.8 km east, out of the painted region.
    expect(servesView(painted, viewAt([seoul[0] + 0.02, seoul[1]]))).toBe(false)
    // Panned to where there are no drawings at all: nothing to paint.
    expect(servesView(painted, viewAt([seoul[0], seoul[1] + 0.2]))).toBe(true)
  })
})
