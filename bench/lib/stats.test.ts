import { describe, expect, it } from 'vitest'
import { percentile, timeWeightedPercentile } from './stats'

describe('frame interval statistics', () => {
  it('weighs each frame interval by how long it lasted', () => {
    // Two quick frames, then a frozen map: the plain median calls it quick, a person would not.
    const frozen = [16.67, 33.33, 33_365.32]
    expect(percentile(frozen, 0.5)).toBe(33.33)
    expect(timeWeightedPercentile(frozen, 0.5)).toBe(33_365.32)
    // Even frames: both agree.
    const even = [100, 100, 100, 100]
    expect(timeWeightedPercentile(even, 0.5)).toBe(percentile(even, 0.5))
    // Half of the time was spent in frames of 300 ms or less.
    expect(timeWeightedPercentile([100, 100, 100, 300, 400], 0.5)).toBe(300)
    expect(timeWeightedPercentile([], 0.5)).toBeNaN()
  })
})
