import fc from 'fast-check'
import { Matrix4, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import type { GmlPlacement } from '../api/building-snapshot'
import {
  displayModeParts,
  networkToScene,
  placementMatrix,
  placementProblem,
  sceneToNetwork,
} from './gml-placement'

const identity: GmlPlacement = { offset: [0, 0, 0], rotationDeg: 0, scale: 1 }
const finite = fc.double({ min: -1e5, max: 1e5, noNaN: true })
const placements = fc.record({
  offset: fc.tuple(finite, finite, finite),
  rotationDeg: fc.double({ min: -720, max: 720, noNaN: true }),
  scale: fc.double({ min: 0.01, max: 100, noNaN: true }),
})

describe('GML placement', () => {
  it('turns the file z-up axes into the scene y-up axes', () => {
    // `+ 0` turns −0 into 0, which toEqual tells apart.
    const scene = (point: [number, number, number]) =>
      networkToScene(point, identity).map((value) => value + 0)
    expect(scene([1, 0, 0])).toEqual([1, 0, 0])
    // File north (+y) is scene −z, file up (+z) is scene +y.
    expect(scene([0, 1, 0])).toEqual([0, 0, -1])
    expect(scene([0, 0, 1])).toEqual([0, 1, 0])
  })

  it('scales, turns counter-clockwise seen from above, then moves', () => {
    const placement: GmlPlacement = { offset: [100, 2, 50], rotationDeg: 90, scale: 2 }
    const [x, y, z] = networkToScene([1, 0, 3], placement)
    // File east (1, 0) → scene +x·2, turned 90° counter-clockwise seen from above → scene −z.
    expect(x).toBeCloseTo(100, 9)
    expect(y).toBeCloseTo(8, 9)
    expect(z).toBeCloseTo(48, 9)
  })

  it('maps scene points back exactly (snapping uses the inverse of drawing)', () => {
    fc.assert(
      fc.property(placements, fc.tuple(finite, finite, finite), (placement, point) => {
        const back = sceneToNetwork(networkToScene(point, placement), placement)
        back.forEach((value, axis) => {
          expect(value).toBeCloseTo(point[axis]!, 4)
        })
      }),
    )
  })

  it('gives three.js the same transform as a matrix', () => {
    fc.assert(
      fc.property(placements, fc.tuple(finite, finite, finite), (placement, point) => {
        const viaMatrix = new Vector3(...point).applyMatrix4(
          new Matrix4().fromArray(placementMatrix(placement)),
        )
        const direct = networkToScene(point, placement)
        const tolerance = 1e-6 * Math.max(1, ...direct.map(Math.abs))
        expect(Math.abs(viaMatrix.x - direct[0])).toBeLessThan(tolerance)
        expect(Math.abs(viaMatrix.y - direct[1])).toBeLessThan(tolerance)
        expect(Math.abs(viaMatrix.z - direct[2])).toBeLessThan(tolerance)
      }),
    )
  })

  it('refuses placements that cannot be drawn or inverted', () => {
    expect(placementProblem(identity)).toBeNull()
    expect(placementProblem({ ...identity, scale: 0 })).toMatch(/scale/)
    expect(placementProblem({ ...identity, rotationDeg: Number.NaN })).toMatch(/rotationDeg/)
    expect(placementProblem({ ...identity, offset: [0, Number.POSITIVE_INFINITY, 0] })).toMatch(
      /offset/,
    )
    expect(
      placementProblem({ ...identity, offset: [0, 0] as unknown as GmlPlacement['offset'] }),
    ).toMatch(/offset/)
  })

  it('draws what each display mode names (0 none, 1 both, 2 nodes, 3 paths)', () => {
    expect([0, 1, 2, 3].map((mode) => displayModeParts(mode as 0 | 1 | 2 | 3))).toEqual([
      { areStatesShown: false, arePathsShown: false },
      { areStatesShown: true, arePathsShown: true },
      { areStatesShown: true, arePathsShown: false },
      { areStatesShown: false, arePathsShown: true },
    ])
  })
})
