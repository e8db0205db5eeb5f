import { describe, expect, it } from 'vitest'
import { boxContains, drawBoxFor, grownBox, turnBox } from './draw-box'
import type { LngLatBox } from './poi-clusters'

const centre = [126.978, 37.5665] as const
const metresPerDegree = 111_320

/** A view's ground corners (metres east, north of the centre) turned by a bearing, as lng/lat. */
function cornersAt(
  trapezoid: ReadonlyArray<readonly [number, number]>,
  bearingDegrees: number,
  at: readonly [number, number] = centre,
) {
  const turn = (-bearingDegrees * Math.PI) / 180
  const cosine = Math.cos((at[1] * Math.PI) / 180)
  return trapezoid.map(([east, north]) => {
    const x = east * Math.cos(turn) - north * Math.sin(turn)
    const y = east * Math.sin(turn) + north * Math.cos(turn)
    return [at[0] + x / (metresPerDegree * cosine), at[1] + y / metresPerDegree] as const
  })
}

function boxOf(corners: ReadonlyArray<readonly [number, number]>): LngLatBox {
  const lngs = corners.map(([lng]) => lng)
  const lats = corners.map(([, lat]) => lat)
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)]
}

// The view of poi-city-frames' orbit (zoom 16.5, pitch 55°, 960 × 600): near edge 236 m before
// the centre and 458 m wide, far edge 662 m beyond it and 1,284 m wide.
const streetView = [
  [-229, -236],
  [229, -236],
  [-642, 662],
  [642, 662],
] as const

describe('the box of drawn city POI markers', () => {
  it('holds the view at every bearing of an orbit, so turning the map never rebuilds markers', () => {
    const start = cornersAt(streetView, 0)
    const box = drawBoxFor(boxOf(start), turnBox(centre, start, 0.1))
    for (let bearing = 0; bearing < 360; bearing += 5) {
      expect(boxContains(box, boxOf(cornersAt(streetView, bearing)))).toBe(true)
    }
    // Made at any other bearing of the orbit it is the same box.
    const turned = cornersAt(streetView, 130)
    const again = drawBoxFor(boxOf(turned), turnBox(centre, turned, 0.1))
    for (const [index, edge] of again.entries()) expect(edge).toBeCloseTo(box[index]!, 9)
  })

  it('is left when the camera pans away, like the view', () => {
    const start = cornersAt(streetView, 0)
    const box = drawBoxFor(boxOf(start), turnBox(centre, start, 0.1))
    const panned = cornersAt(streetView, 0, [centre[0] + 0.01, centre[1]])
    expect(boxContains(box, boxOf(panned))).toBe(false)
  })

  it('is the view grown by a tenth when the view reaches far toward the horizon', () => {
    const nearHorizon = cornersAt(
      [
        [-150, -100],
        [150, -100],
        [-9_000, 12_000],
        [9_000, 12_000],
      ],
      0,
    )
    const view = boxOf(nearHorizon)
    expect(drawBoxFor(view, turnBox(centre, nearHorizon, 0.1))).toEqual(grownBox(view, 0.1))
  })
})
