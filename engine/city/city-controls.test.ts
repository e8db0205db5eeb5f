import { describe, expect, it } from 'vitest'
import {
  cityZoomLimits,
  maxDistanceFactors,
  minDistanceFactors,
  wheelZoomRate,
  zoomForCameraDistance,
} from './city-controls'

describe('city camera limits (SPEC §9)', () => {
  it('converts camera distance to MapLibre zoom: halving the distance is one zoom level', () => {
    const far = zoomForCameraDistance(1000, 31.2, 800)
    const near = zoomForCameraDistance(500, 31.2, 800)
    expect(near - far).toBeCloseTo(1, 10)
  })

  it('matches MapLibre at the equator: 512 px world, 36.87° field of view', () => {
    // At zoom 0 a 512 px tall viewport sees the camera 1.5 × 512 px away, the world is 512 px.
    const distance = (1.5 * 512 * 2 * Math.PI * 6_378_137) / 512
    expect(zoomForCameraDistance(distance, 0, 512)).toBeCloseTo(0, 2)
  })

  it('keeps every SPEC factor combination inside MapLibre’s zoom range 0–24', () => {
    // The SPEC distances come from a free 3D camera: 0.5 m is closer than MapLibre's zoom 24
    // and 2e8 m farther than its zoom 0, so on a map both limits land on MapLibre's own.
    const base = { latitudeDegrees: 31.2, viewportHeightPixels: 800 }
    for (const minDistanceFactor of minDistanceFactors) {
      for (const maxDistanceFactor of maxDistanceFactors) {
        const limits = cityZoomLimits({ ...base, minDistanceFactor, maxDistanceFactor })
        expect(limits).toEqual({ minZoom: 0, maxZoom: 24 })
      }
    }
  })

  it('a smaller distance means a higher zoom before clamping', () => {
    expect(zoomForCameraDistance(0.5 * 0.1, 31.2, 800)).toBeGreaterThan(
      zoomForCameraDistance(0.5, 31.2, 800),
    )
    expect(zoomForCameraDistance(2e8 * 10, 31.2, 800)).toBeLessThan(
      zoomForCameraDistance(2e8, 31.2, 800),
    )
  })

  it('caps the closest zoom at MapLibre maximum 24 where 0.5 m would need more', () => {
    const limits = cityZoomLimits({
      minDistanceFactor: 0.1,
      maxDistanceFactor: 1,
      latitudeDegrees: 0,
      viewportHeightPixels: 800,
    })
    expect(limits.maxZoom).toBe(24)
  })

  it('scales MapLibre’s wheel rate with the wheel scale option', () => {
    expect(wheelZoomRate(1)).toBeCloseTo(1 / 450, 12)
    expect(wheelZoomRate(2.5) / wheelZoomRate(1)).toBeCloseTo(2.5, 12)
  })
})
