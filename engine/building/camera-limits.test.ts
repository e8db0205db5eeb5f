import { describe, expect, it } from 'vitest'
import {
  clampDistance,
  clipPlanes,
  fitDistance,
  MAX_ZOOM_FACTOR_OPTIONS,
  MIN_ZOOM_FACTOR_OPTIONS,
  WHEEL_SCALE_OPTIONS,
  wheelZoomSpeed,
  zoomLimits,
} from './camera-limits'

describe('building camera limits (SPEC §9)', () => {
  it('scales the building base distances 1 m and 1e7 m by the chosen factors', () => {
    expect(zoomLimits(1, 1)).toEqual({ minDistance: 1, maxDistance: 1e7 })
    expect(zoomLimits(0.1, 10)).toEqual({ minDistance: 0.1, maxDistance: 1e8 })
    expect(zoomLimits(0.65, 3.5)).toEqual({ minDistance: 0.65, maxDistance: 3.5e7 })
    expect(MIN_ZOOM_FACTOR_OPTIONS).toEqual([1, 0.9, 0.8, 0.65, 0.5, 0.3, 0.1])
    expect(MAX_ZOOM_FACTOR_OPTIONS).toEqual([1, 1.5, 2, 3.5, 5, 7.5, 10])
  })

  it('refuses factors that would make the limits meaningless', () => {
    expect(() => zoomLimits(0, 1)).toThrow(RangeError)
    expect(() => zoomLimits(1, -2)).toThrow(RangeError)
    expect(() => zoomLimits(Number.NaN, 1)).toThrow(RangeError)
    expect(() => zoomLimits(1, Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })

  it('zooms at the wheel scale option times the basic scale 0.5', () => {
    expect(WHEEL_SCALE_OPTIONS.map(wheelZoomSpeed)).toEqual([0.5, 0.55, 0.625, 0.75, 0.9, 1, 1.25])
    expect(() => wheelZoomSpeed(0)).toThrow(RangeError)
  })

  it('keeps distances inside the limits', () => {
    const limits = zoomLimits(0.5, 1)
    expect(clampDistance(0.1, limits)).toBe(0.5)
    expect(clampDistance(20, limits)).toBe(20)
    expect(clampDistance(5e7, limits)).toBe(1e7)
  })

  it('backs off far enough for a sphere to fit the narrower field of view', () => {
    // 90° vertical field of view, square view: the sphere touches the view at radius·√2.
    expect(fitDistance(10, 90, 1)).toBeCloseTo(10 * Math.SQRT2 * 1.05, 9)
    // A tall, narrow canvas is limited by its width, so the camera stands farther back.
    expect(fitDistance(10, 45, 0.5)).toBeGreaterThan(fitDistance(10, 45, 1))
  })

  it('keeps near and far planes around the scene at every zoom level', () => {
    for (const distance of [0.1, 1, 30, 1e4, 1e7]) {
      const { near, far } = clipPlanes(distance, 20)
      expect(near).toBeGreaterThan(0)
      expect(near).toBeLessThan(distance)
      expect(far).toBeGreaterThanOrEqual(distance + 20)
      // A 24-bit depth buffer resolves ratios up to about 1e6 well.
      expect(far / near).toBeLessThan(1e6)
    }
  })
})
