import { describe, expect, it } from 'vitest'
import { geodesicDestination, type LngLat } from './draw-geometry'
import { containingAllPairs, FenceIndex, type FenceShape, fenceCrossings } from './fence-index'

/** A square fence of `half` degrees around a centre. */
const square = (id: string, [lng, lat]: LngLat, half: number): FenceShape => ({
  id,
  kind: 'polygon',
  ring: [
    [lng - half, lat - half],
    [lng + half, lat - half],
    [lng + half, lat + half],
    [lng - half, lat + half],
  ],
})

describe('fence index', () => {
  it('finds the polygons and circles containing a point, as testing every fence does', () => {
    const center: LngLat = [126.978, 37.5665]
    const fences: FenceShape[] = [
      square('plaza', center, 0.001),
      { id: 'ring', kind: 'circle', center, radiusMeters: 50 },
      square('far', [127.5, 37.9], 0.01),
      // an L shape: its bounding box holds points outside it
      {
        id: 'ell',
        kind: 'polygon',
        ring: [
          [126.97, 37.56],
          [126.975, 37.56],
          [126.975, 37.561],
          [126.971, 37.561],
          [126.971, 37.565],
          [126.97, 37.565],
        ],
      },
    ]
    const index = new FenceIndex(fences)
    expect(index.containing(center)).toEqual(['plaza', 'ring'])
    // 60 m east: in the plaza (≈ 88 m half width), outside the 50 m circle
    expect(index.containing(geodesicDestination(center, 90, 60))).toEqual(['plaza'])
    expect(index.containing([126.9705, 37.5645])).toEqual(['ell'])
    expect(index.containing([126.974, 37.564])).toEqual([])
    // Random points agree with the all-pairs answer.
    let seed = 7
    const random = () => {
      seed = (seed * 16807) % 2147483647
      return seed / 2147483647
    }
    for (let n = 0; n < 2000; n++) {
      const point: LngLat = [126.965 + random() * 0.02, 37.555 + random() * 0.02]
      expect(index.containing(point)).toEqual(containingAllPairs(index.fences, point))
    }
  })

  it('handles a fence across the antimeridian and one by a pole', () => {
    const index = new FenceIndex([
      {
        id: 'dateline',
        kind: 'polygon',
        ring: [
          [179.9, -16.1],
          [-179.9, -16.1],
          [-179.9, -15.9],
          [179.9, -15.9],
        ],
      },
      { id: 'pole', kind: 'circle', center: [0, 89.99], radiusMeters: 5000 },
    ])
    expect(index.containing([179.95, -16])).toEqual(['dateline'])
    expect(index.containing([-179.95, -16])).toEqual(['dateline'])
    expect(index.containing([0, -16])).toEqual([])
    expect(index.containing([120, 89.995])).toEqual(['pole'])
    expect(index.containing([120, 89.9])).toEqual([])
  })

  it('turns fence lists into leave and enter crossings', () => {
    expect(fenceCrossings(['a', 'b'], ['b', 'c'])).toEqual([
      { fenceId: 'a', kind: 'leave' },
      { fenceId: 'c', kind: 'enter' },
    ])
    expect(fenceCrossings([], [])).toEqual([])
  })
})
