import { describe, expect, it } from 'vitest'
import type { DrawShape } from '../../api/draw-commands'
import { type ScreenProjection, ShapeSnapping } from './shape-snapping'

/** A flat map: 10,000 pixels a degree, (0, 0) at `origin`, y growing south. */
function flatMap(origin: { lng: number; lat: number }): ScreenProjection {
  const scale = 10_000
  const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180
  return {
    project: (lng, lat) => ({
      x: wrap(lng - origin.lng) * scale,
      y: (origin.lat - lat) * scale,
    }),
    unproject: (x, y) => ({ lng: wrap(origin.lng + x / scale), lat: origin.lat - y / scale }),
  }
}

function shape(
  id: string,
  type: DrawShape['type'],
  points: DrawShape['points'],
  isVisible = true,
  displayMode: DrawShape['displayMode'] = 1,
) {
  return {
    id,
    type,
    points,
    fillColor: '#ffffff80',
    outlineColor: '#1e88e5ff',
    outlineWidthPx: 2,
    displayMode,
    isVisible,
  } satisfies DrawShape
}

/** `place` is `expected` to `digits` decimals of a degree (9: 0.1 mm). */
function expectPlace(place: readonly number[] | undefined, expected: [number, number], digits = 9) {
  expect(place).toBeDefined()
  expect(place![0]).toBeCloseTo(expected[0], digits)
  expect(place![1]).toBeCloseTo(expected[1], digits)
}

describe('snapping to saved drawings', () => {
  const map = flatMap({ lng: 127, lat: 37 })
  const square = shape('square', 4, [
    [127, 37],
    [127.01, 37],
    [127.01, 37.01],
    [127, 37.01],
  ])

  it('lands on the nearest vertex within the radius, and nowhere beyond it', () => {
    const snapping = new ShapeSnapping()
    snapping.setShapes([square, shape('post', 2, [[127.0005, 37]])])
    // 4 px west and 3 px south of the corner at (127, 37): the corner.
    expect(snapping.nearest(-4, 3, map)).toEqual([127, 37])
    // Between the corner (0 px) and the post (5 px east): the nearer one.
    expect(snapping.nearest(3.5, 0, map)).toEqual([127.0005, 37])
    // The corner at (127.01, 37.01) is at x 100, y -100.
    expect(snapping.nearest(104, -97, map)).toEqual([127.01, 37.01])
    // Inside the square, 40 px from every side; and 14 px south of its south-west corner.
    expect(snapping.nearest(60, -40, map)).toBeUndefined()
    expect(snapping.nearest(0, 14, map)).toBeUndefined()
  })

  it('skips hidden shapes and the shape in hand; a circle offers its centre as a vertex', () => {
    const snapping = new ShapeSnapping()
    const circle = shape('circle', 1, [
      [127.02, 37],
      [127.03, 37],
    ])
    const hidden = shape('hidden', 3, [[127.04, 37]], false)
    snapping.setShapes([square, circle, hidden], 'square')
    expect(snapping.nearest(1, 1, map)).toBeUndefined()
    expect(snapping.nearest(201, 0, map)).toEqual([127.02, 37])
    // The rim point 300 px east is only a radius, not a vertex: 3 px north of it the pointer
    // lands on the rim beside it (an edge), not on it.
    expectPlace(snapping.nearest(300, -3, map), [127.03, 37.0003], 4)
    expect(snapping.nearest(400, 0, map)).toBeUndefined()
    snapping.setShapes([])
    expect(snapping.nearest(201, 0, map)).toBeUndefined()
  })

  it('finds a vertex across the antimeridian', () => {
    const nearDateLine = flatMap({ lng: 179.9999, lat: 0 })
    const snapping = new ShapeSnapping()
    snapping.setShapes([shape('east', 2, [[-179.9999, 0]])])
    // 2 px east of the date line's far side is where that vertex is drawn.
    expect(snapping.nearest(4, 0, nearDateLine)).toEqual([-179.9999, 0])
  })

  it('lands on the nearest point of an edge when no vertex is near', () => {
    const snapping = new ShapeSnapping()
    const walk = shape('walk', 3, [
      [127.02, 37],
      [127.03, 37],
    ])
    const nodesOnly = shape(
      'nodes',
      3,
      [
        [127.04, 37],
        [127.05, 37],
      ],
      true,
      2,
    )
    const circle = shape('circle', 1, [
      [127, 36.98],
      [127.001, 36.98],
    ])
    snapping.setShapes([square, walk, nodesOnly, circle])
    // 5 px south of the middle of the square's south side (x 0–100 at y 0): onto the side.
    expectPlace(snapping.nearest(50, 5, map), [127.005, 37])
    // 3 px inside the square's east side.
    expectPlace(snapping.nearest(97, -30, map), [127.01, 37.003])
    // A vertex within the radius wins over an edge nearer still: 6 px along the side from the
    // corner and 1 px off it, the corner.
    expect(snapping.nearest(6, 1, map)).toEqual([127, 37])
    // A path's segment; a path drawn as nodes only offers no segments.
    expectPlace(snapping.nearest(250, -7, map), [127.025, 37])
    expect(snapping.nearest(450, -4, map)).toBeUndefined()
    // Beyond the radius of every edge.
    expect(snapping.nearest(50, 9, map)).toBeUndefined()
    // A circle's rim: 100 m east of its centre is about 11.2 px on this map (1 px ≈ 8.9 m
    // east–west at 37°); a pointer 2 px outside it lands on the rim, 0.1 m accuracy.
    const rimPixel = map.project(127.001, 36.98)
    expectPlace(snapping.nearest(rimPixel.x + 2, rimPixel.y, map), [127.001, 36.98], 6)
  })

  it('builds its index only when asked, always from the shapes given last', () => {
    const snapping = new ShapeSnapping()
    const post = shape('post', 2, [[127.0005, 37]])
    snapping.setShapes([square, post])
    // Showing or saving drawings with no snapping tool open leaves the index unbuilt.
    expect(snapping.isIndexPending).toBe(true)
    snapping.prepare()
    expect(snapping.isIndexPending).toBe(false)
    expect(snapping.nearest(3.5, 0, map)).toEqual([127.0005, 37])
    // The post deleted (or hidden): given again, the index is out of date until asked, and a
    // pointer never lands on what is no longer drawn.
    snapping.setShapes([square])
    expect(snapping.isIndexPending).toBe(true)
    expect(snapping.nearest(4, 0, map)).toEqual([127, 37])
    expect(snapping.isIndexPending).toBe(false)
    snapping.setShapes([square, { ...post, isVisible: false }])
    expect(snapping.nearest(5, 0, map)).toEqual([127, 37])
  })
})
