import { describe, expect, it } from 'vitest'
import { screenSpaceErrorScale } from './screen-space-error'

/** The 3D Tiles screen-space error of a tile: geometric error projected to pixels. */
function trueScreenSpaceError(
  geometricErrorMeters: number,
  distanceMeters: number,
  heightPixels: number,
  fieldOfViewDegrees: number,
): number {
  const denominator = 2 * Math.tan((fieldOfViewDegrees * Math.PI) / 360)
  return (geometricErrorMeters * heightPixels) / (distanceMeters * denominator)
}

/** loaders.gl's formula (tiles-3d-lod.js) with its fixed 1.15 and the scale applied. */
function loadersGlScreenSpaceError(
  geometricErrorMeters: number,
  distanceMeters: number,
  heightPixels: number,
  viewDistanceScale: number,
): number {
  return (geometricErrorMeters * heightPixels * viewDistanceScale) / (distanceMeters * 1.15)
}

describe('screenSpaceErrorScale', () => {
  it("makes loaders.gl's error the 3D Tiles error for MapLibre's 36.87° camera", () => {
    const scale = screenSpaceErrorScale(36.87)
    expect(scale).toBeCloseTo(1.725, 2)
    for (const [error, distance] of [
      [8, 400],
      [64, 3000],
      [0.5, 20],
    ] as const) {
      expect(loadersGlScreenSpaceError(error, distance, 600, scale)).toBeCloseTo(
        trueScreenSpaceError(error, distance, 600, 36.87),
        9,
      )
    }
  })

  it("is 1 for the 60° camera loaders.gl's constant assumes", () => {
    expect(screenSpaceErrorScale(60)).toBeCloseTo(1.15 / (2 * Math.tan(Math.PI / 6)), 9)
    expect(screenSpaceErrorScale(60)).toBeCloseTo(1, 2)
  })

  it('falls back to no correction for a field of view that is not a camera', () => {
    expect(screenSpaceErrorScale(0)).toBe(1)
    expect(screenSpaceErrorScale(Number.NaN)).toBe(1)
    expect(screenSpaceErrorScale(180)).toBe(1)
  })
})
