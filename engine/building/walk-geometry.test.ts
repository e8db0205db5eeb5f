import { describe, expect, it } from 'vitest'
import { normalizedYaw, walkDirection, walkHeading, yawBetween } from './walk-geometry'

describe('walk headings', () => {
  it('looks along −z at yaw 0 and turns left as the yaw grows', () => {
    const close = (vector: readonly number[]) =>
      vector.map((value) => Math.round(value * 1e6) / 1e6 + 0)
    expect(close(walkDirection(0, 0))).toEqual([0, 0, -1])
    expect(close(walkDirection(90, 0))).toEqual([-1, 0, 0])
    expect(close(walkDirection(0, 90))).toEqual([0, 1, 0])
    expect(yawBetween([0, 5, 0], [-3, 0, 0])).toBeCloseTo(90, 9)
    expect(Math.abs(yawBetween([0, 5, 0], [0, 0, 3]))).toBeCloseTo(180, 9)
    expect([normalizedYaw(-180), normalizedYaw(540), normalizedYaw(-190)]).toEqual([180, 180, 170])
  })

  it('turns held keys into a horizontal heading at the yaw: right is square to forward', () => {
    const close = (vector: readonly number[] | null) =>
      vector?.map((value) => Math.round(value * 1e6) / 1e6 + 0)
    expect(close(walkHeading(0, { forward: 1, right: 0 }))).toEqual([0, -1])
    expect(close(walkHeading(0, { forward: 0, right: 1 }))).toEqual([1, 0])
    expect(close(walkHeading(90, { forward: 0, right: 1 }))).toEqual([0, -1])
    const diagonal = walkHeading(0, { forward: 1, right: 1 })!
    expect(diagonal[0]).toBeCloseTo(Math.SQRT1_2, 9)
    expect(diagonal[1]).toBeCloseTo(-Math.SQRT1_2, 9)
    expect(walkHeading(30, { forward: 0, right: 0 })).toBeNull()
  })
})
