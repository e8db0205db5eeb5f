import { describe, expect, it } from 'vitest'
import type { DrawShape } from '../../api/draw-commands'
import { type ScreenProjection, VertexSnapping } from './vertex-snapping'

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

function shape(id: string, type: DrawShape['type'], points: DrawShape['points'], isVisible = true) {
  return {
    id,
    type,
    points,
    fillColor: '#ffffff80',
    outlineColor: '#1e88e5ff',
    outlineWidthPx: 2,
    displayMode: 1,
    isVisible,
  } satisfies DrawShape
}

describe('vertex snapping', () => {
  const map = flatMap({ lng: 127, lat: 37 })
  const square = shape('square', 4, [
    [127, 37],
    [127.01, 37],
    [127.01, 37.01],
    [127, 37.01],
  ])

  it('lands on the nearest vertex within the radius, and nowhere beyond it', () => {
    const snapping = new VertexSnapping()
    snapping.setShapes([square, shape('post', 2, [[127.0005, 37]])])
    // 4 px west and 3 px south of the corner at (127, 37): the corner.
    expect(snapping.nearest(-4, 3, map)).toEqual([127, 37])
    // Between the corner (0 px) and the post (5 px east): the nearer one.
    expect(snapping.nearest(3.5, 0, map)).toEqual([127.0005, 37])
    // The corner at (127.01, 37.01) is at x 100, y -100.
    expect(snapping.nearest(104, -97, map)).toEqual([127.01, 37.01])
    expect(snapping.nearest(60, -40, map)).toBeUndefined()
    expect(snapping.nearest(14, 0, map)).toBeUndefined()
  })

  it('skips hidden shapes and the shape in hand; a circle offers its centre, not its rim', () => {
    const snapping = new VertexSnapping()
    const circle = shape('circle', 1, [
      [127.02, 37],
      [127.03, 37],
    ])
    const hidden = shape('hidden', 3, [[127.04, 37]], false)
    snapping.setShapes([square, circle, hidden], 'square')
    expect(snapping.nearest(1, 1, map)).toBeUndefined()
    expect(snapping.nearest(201, 0, map)).toEqual([127.02, 37])
    expect(snapping.nearest(300, 0, map)).toBeUndefined()
    expect(snapping.nearest(400, 0, map)).toBeUndefined()
    snapping.setShapes([])
    expect(snapping.nearest(201, 0, map)).toBeUndefined()
  })

  it('finds a vertex across the antimeridian', () => {
    const nearDateLine = flatMap({ lng: 179.9999, lat: 0 })
    const snapping = new VertexSnapping()
    snapping.setShapes([shape('east', 2, [[-179.9999, 0]])])
    // 2 px east of the date line's far side is where that vertex is drawn.
    expect(snapping.nearest(4, 0, nearDateLine)).toEqual([-179.9999, 0])
  })
})
