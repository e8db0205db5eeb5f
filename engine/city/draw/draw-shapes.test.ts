import { describe, expect, it } from 'vitest'
import {
  geodesicCirclePoints,
  geodesicDistanceMeters,
} from '../../../workers/geodesy/draw-geometry'
import type { DrawShape } from '../../api/draw-commands'
import {
  cachedCircleRingCount,
  circleCorners,
  circleCornersAt,
  circleRingCacheSize,
  pendingOf,
  pointsOfFeature,
  rgbaOf,
  shapeLayerData,
} from './draw-shapes'

const shape = (overrides: Partial<DrawShape>): DrawShape => ({
  id: 'a',
  type: 3,
  points: [
    [126.97, 37.56],
    [126.98, 37.57],
  ],
  fillColor: '#ffffff80',
  outlineColor: '#ff000080',
  outlineWidthPx: 2,
  displayMode: 1,
  isVisible: true,
  ...overrides,
})

describe('draw shapes', () => {
  it('turns a drawn circle outline into its centre and a rim point at its radius', () => {
    const outline = geodesicCirclePoints([126.97, 37.56], 250, 64)
    const points = pointsOfFeature(1, {
      type: 'Polygon',
      coordinates: [[...outline, outline[0]!].map(([lng, lat]) => [lng, lat])],
    })
    expect(points).toHaveLength(2)
    expect(geodesicDistanceMeters(points[0]!, [126.97, 37.56])).toBeLessThan(0.05)
    expect(geodesicDistanceMeters(points[0]!, points[1]!)).toBeCloseTo(250, 1)
    const pending = pendingOf(1, points)
    expect(pending.issue).toBeNull()
    expect(pending.areaSquareMeters).toBeCloseTo(Math.PI * 250 ** 2, -2)
  })

  it('drops a polygon ring’s closing point and names why a crossing polygon cannot be saved', () => {
    const ring = [
      [0, 0],
      [0.001, 0.001],
      [0.001, 0],
      [0, 0.001],
      [0, 0],
    ]
    const points = pointsOfFeature(4, { type: 'Polygon', coordinates: [ring] })
    expect(points).toHaveLength(4)
    expect(pendingOf(4, points).issue).toBe('polygonSelfIntersecting')
  })

  it('draws paths by their display mode and hides hidden shapes', () => {
    const count = (mode: 0 | 1 | 2 | 3) => {
      const data = shapeLayerData([shape({ displayMode: mode })])
      return [data.lines.length, data.nodes.length]
    }
    expect(count(0)).toEqual([0, 0])
    expect(count(1)).toEqual([1, 2])
    expect(count(2)).toEqual([0, 2])
    expect(count(3)).toEqual([1, 0])
    expect(shapeLayerData([shape({ isVisible: false })]).lines).toHaveLength(0)
    const circle = shapeLayerData([shape({ type: 1 })])
    expect(circle.areas[0]!.ring).toHaveLength(circleCorners)
    expect(circle.areas[0]!.outline).toEqual([255, 0, 0, 128])
    expect(rgbaOf('#102030', [0, 0, 0, 0])).toEqual([16, 32, 48, 255])
    expect(rgbaOf('red', [1, 2, 3, 4])).toEqual([1, 2, 3, 4])
  })

  it('gives a circle the corners its size on screen needs, its sides within a quarter pixel', () => {
    // 1 m a pixel: 5 m across 5 px, 200 m across 200 px; a huge one keeps the 64 of before.
    for (const radius of [0.1, 2, 5, 15, 40, 100, 200, 100_000]) {
      const corners = circleCornersAt(radius, 1)
      expect([8, 16, 32, 64]).toContain(corners)
      const inside = radius * (1 - Math.cos(Math.PI / corners))
      if (corners < circleCorners) expect(inside).toBeLessThanOrEqual(0.25)
    }
    expect(circleCornersAt(5, 1)).toBe(16)
    expect(circleCornersAt(100_000, 1)).toBe(circleCorners)
    // The same circle zoomed out 16×: fewer corners.
    expect(circleCornersAt(200, 16)).toBeLessThan(circleCornersAt(200, 1))
    const circle = shape({
      type: 1,
      points: [
        [126.97, 37.56],
        [126.9701, 37.56],
      ],
    })
    // ≈ 8.8 m of radius at 4 m a pixel: 8 corners; without a scale, 64.
    expect(shapeLayerData([circle], 4).areas[0]!.ring).toHaveLength(8)
    expect(shapeLayerData([circle]).areas[0]!.ring).toHaveLength(circleCorners)
  })

  it("reuses a circle's outline while it is unchanged, never after it moved or was resized", () => {
    const circle = shape({
      type: 1,
      points: [
        [126.97, 37.56],
        [126.971, 37.56],
      ],
    })
    const first = shapeLayerData([circle]).areas[0]!.ring
    // The drawings given again (another saved elsewhere): the same outline, not computed again.
    expect(shapeLayerData([{ ...circle, id: 'b' }, shape({ id: 'c' })]).areas[0]!.ring).toBe(first)
    // Resized: a new outline through the new rim point, at its geodesic radius.
    const rim: [number, number] = [126.972, 37.56]
    const resized = shapeLayerData([{ ...circle, points: [circle.points[0]!, rim] }]).areas[0]!.ring
    expect(resized).not.toBe(first)
    const radius = geodesicDistanceMeters([126.97, 37.56], rim)
    for (const corner of resized)
      expect(geodesicDistanceMeters([126.97, 37.56], corner as [number, number])).toBeCloseTo(
        radius,
        6,
      )
    // Moved: around the new centre.
    const moved = shapeLayerData([
      {
        ...circle,
        points: [
          [126.98, 37.56],
          [126.981, 37.56],
        ],
      },
    ]).areas[0]!.ring
    expect(moved[0]![0]).toBeGreaterThan(126.979)
  })

  it('keeps a bounded number of circle outlines', () => {
    const circles = Array.from({ length: circleRingCacheSize + 500 }, (_, index) =>
      shape({
        id: `circle-${index}`,
        type: 1,
        points: [
          [126 + index * 1e-4, 37.56],
          [126 + index * 1e-4 + 1e-5, 37.56],
        ],
      }),
    )
    shapeLayerData(circles, 1)
    expect(cachedCircleRingCount()).toBeLessThanOrEqual(circleRingCacheSize)
  })
})
