import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  clampNumber,
  decimalsOf,
  formatNumber,
  normaliseNumber,
  numberBlockDefaults,
  numberInputDefaults,
  parseNumberText,
  roundToPrecision,
  snapToStep,
  stepNumber,
} from './number-rules'

describe('roundToPrecision', () => {
  it('rounds half away from zero as people expect', () => {
    expect(roundToPrecision(1.005, 2)).toBe(1.01)
    expect(roundToPrecision(0.125, 2)).toBe(0.13)
    expect(roundToPrecision(-0.125, 2)).toBe(-0.13)
    expect(roundToPrecision(0.333333, 2)).toBe(0.33)
    expect(roundToPrecision(2.5, 0)).toBe(3)
  })

  it('never returns negative zero', () => {
    expect(Object.is(roundToPrecision(-0.001, 2), 0)).toBe(true)
  })

  it('leaves at most the asked decimals', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.integer({ min: 0, max: 4 }),
        (value, precision) => {
          expect(decimalsOf(roundToPrecision(value, precision))).toBeLessThanOrEqual(precision)
        },
      ),
    )
  })
})

describe('number block rules (precision 2, step 0.01, 0..1)', () => {
  it('rounds typed values to two decimals and clamps them to 0..1', () => {
    expect(normaliseNumber(0.456, numberBlockDefaults)).toBe(0.46)
    expect(normaliseNumber(1.7, numberBlockDefaults)).toBe(1)
    expect(normaliseNumber(-3, numberBlockDefaults)).toBe(0)
  })

  it('steps by 0.01 without floating-point residue', () => {
    expect(stepNumber(0.1, 2, numberBlockDefaults)).toBe(0.12)
    expect(stepNumber(0.29, 1, numberBlockDefaults)).toBe(0.3)
    expect(stepNumber(0.3, -1, numberBlockDefaults)).toBe(0.29)
  })

  it('stops at the ends', () => {
    expect(stepNumber(1, 1, numberBlockDefaults)).toBe(1)
    expect(stepNumber(0, -1, numberBlockDefaults)).toBe(0)
  })

  it('always stays in range with two decimals, whatever is typed', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (typed) => {
        const value = normaliseNumber(typed, numberBlockDefaults)
        expect(value).toBeGreaterThanOrEqual(0)
        expect(value).toBeLessThanOrEqual(1)
        expect(decimalsOf(value)).toBeLessThanOrEqual(2)
      }),
    )
  })
})

describe('number input rules (0..1000)', () => {
  it('clamps to 0..1000 and keeps typed decimals', () => {
    expect(normaliseNumber(1500, numberInputDefaults)).toBe(1000)
    expect(normaliseNumber(-1, numberInputDefaults)).toBe(0)
    expect(normaliseNumber(12.5, numberInputDefaults)).toBe(12.5)
  })

  it('steps by one', () => {
    expect(stepNumber(999, 1, numberInputDefaults)).toBe(1000)
    expect(stepNumber(1000, 1, numberInputDefaults)).toBe(1000)
  })
})

describe('parseNumberText', () => {
  it('reads numbers, including a decimal comma', () => {
    expect(parseNumberText(' 0.5 ')).toBe(0.5)
    expect(parseNumberText('0,75')).toBe(0.75)
    expect(parseNumberText('-2')).toBe(-2)
  })

  it('refuses what is not a number', () => {
    for (const text of ['', '-', '.', 'abc', '1e999']) expect(parseNumberText(text)).toBeNull()
  })
})

describe('helpers', () => {
  it('clamps, counts decimals and formats with the precision', () => {
    expect(clampNumber(5, 0, 3)).toBe(3)
    expect(decimalsOf(0.01)).toBe(2)
    expect(decimalsOf(1e-7)).toBe(7)
    expect(decimalsOf(15)).toBe(0)
    expect(formatNumber(0.5, 2)).toBe('0.50')
    expect(formatNumber(12.5)).toBe('12.5')
  })
})

describe('snapToStep', () => {
  const altitude = { min: -500, max: 500, step: 15, origin: 0 }

  it('snaps onto the grid through the origin', () => {
    expect(snapToStep(7, altitude)).toBe(0)
    expect(snapToStep(8, altitude)).toBe(15)
    expect(snapToStep(-22, altitude)).toBe(-15)
    expect(snapToStep(-23, altitude)).toBe(-30)
  })

  it('keeps the ends even off the grid', () => {
    expect(snapToStep(-500, altitude)).toBe(-500)
    expect(snapToStep(600, altitude)).toBe(500)
    expect(snapToStep(497, altitude)).toBe(495)
    expect(snapToStep(498, altitude)).toBe(500)
  })

  it('handles decimal steps without residue', () => {
    expect(snapToStep(0.304, { min: 0, max: 1, step: 0.01, origin: 0 })).toBe(0.3)
  })

  it('always lands on the grid or an end', () => {
    fc.assert(
      fc.property(fc.double({ min: -1000, max: 1000, noNaN: true }), (value) => {
        const snapped = snapToStep(value, altitude)
        const isOnGrid = Number.isInteger(snapped / 15)
        expect(isOnGrid || snapped === -500 || snapped === 500).toBe(true)
        const clamped = Math.min(500, Math.max(-500, value))
        const nearestGrid = Math.min(495, Math.max(-495, Math.round(clamped / 15) * 15))
        const bestDistance = Math.min(
          Math.abs(clamped - nearestGrid),
          Math.abs(clamped - 500),
          Math.abs(clamped + 500),
        )
        expect(Math.abs(snapped - clamped)).toBeCloseTo(bestDistance, 9)
      }),
    )
  })
})
