import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  alphaFromOpacityPercent,
  defaultRgba,
  defaultRgbaColor,
  formatRgba,
  hexFromRgba,
  hexWithAlphaFromRgba,
  opacityPercentFromAlpha,
  parseRgba,
  roundAlpha,
} from './rgba'

describe('parseRgba', () => {
  it('reads rgba and rgb in comma and space syntax', () => {
    expect(parseRgba('rgba(255,255,255,0.5)')).toEqual({
      red: 255,
      green: 255,
      blue: 255,
      alpha: 0.5,
    })
    expect(parseRgba(' RGBA( 12, 34, 56, .25 ) ')).toEqual({
      red: 12,
      green: 34,
      blue: 56,
      alpha: 0.25,
    })
    expect(parseRgba('rgb(1, 2, 3)')).toEqual({ red: 1, green: 2, blue: 3, alpha: 1 })
    expect(parseRgba('rgb(10 20 30 / 40%)')).toEqual({ red: 10, green: 20, blue: 30, alpha: 0.4 })
  })

  it('reads hex colours of every length', () => {
    expect(parseRgba('#ffbe37')).toEqual({ red: 255, green: 190, blue: 55, alpha: 1 })
    expect(parseRgba('#fff')).toEqual({ red: 255, green: 255, blue: 255, alpha: 1 })
    expect(parseRgba('#00000080')).toEqual({ red: 0, green: 0, blue: 0, alpha: 0.5 })
    expect(parseRgba('#0008')).toEqual({ red: 0, green: 0, blue: 0, alpha: 0.53 })
  })

  it('clamps out-of-range channels and alpha', () => {
    expect(parseRgba('rgba(300,-5,20,1.7)')).toEqual({ red: 255, green: 0, blue: 20, alpha: 1 })
  })

  it('refuses text that is not a colour', () => {
    for (const text of ['', 'white', 'rgba(1,2)', 'rgba(a,b,c,d)', '#12', '#ggg', 'hsl(0,0%,0%)'])
      expect(parseRgba(text)).toBeNull()
  })
})

describe('formatRgba', () => {
  it('writes the default colour exactly as SPEC §9 gives it', () => {
    expect(formatRgba(defaultRgba)).toBe(defaultRgbaColor)
    expect(defaultRgbaColor).toBe('rgba(255,255,255,0.5)')
  })

  it('keeps alpha to two decimals and channels to whole numbers', () => {
    expect(formatRgba({ red: 12.6, green: 0, blue: 255, alpha: 0.456 })).toBe('rgba(13,0,255,0.46)')
  })

  it('round-trips through parseRgba', () => {
    const channel = fc.integer({ min: 0, max: 255 })
    fc.assert(
      fc.property(
        channel,
        channel,
        channel,
        fc.integer({ min: 0, max: 100 }),
        (red, green, blue, percent) => {
          const color = { red, green, blue, alpha: percent / 100 }
          expect(parseRgba(formatRgba(color))).toEqual(color)
        },
      ),
    )
  })
})

describe('opacity slider ↔ alpha', () => {
  it('maps 0–100 to alpha 0–1 with two decimals', () => {
    expect(alphaFromOpacityPercent(0)).toBe(0)
    expect(alphaFromOpacityPercent(50)).toBe(0.5)
    expect(alphaFromOpacityPercent(37)).toBe(0.37)
    expect(alphaFromOpacityPercent(100)).toBe(1)
    expect(alphaFromOpacityPercent(150)).toBe(1)
  })

  it('maps alpha back to a whole percent', () => {
    expect(opacityPercentFromAlpha(0.5)).toBe(50)
    expect(opacityPercentFromAlpha(0.456)).toBe(46)
    expect(opacityPercentFromAlpha(0.07)).toBe(7)
  })

  it('keeps every slider position exactly', () => {
    for (let percent = 0; percent <= 100; percent += 1)
      expect(opacityPercentFromAlpha(alphaFromOpacityPercent(percent))).toBe(percent)
  })

  it('rounds alpha into 0..1', () => {
    expect(roundAlpha(-1)).toBe(0)
    expect(roundAlpha(0.005)).toBe(0.01)
  })
})

describe('hexFromRgba', () => {
  it('gives the #rrggbb an <input type=color> takes', () => {
    expect(hexFromRgba({ red: 255, green: 190, blue: 55, alpha: 0.2 })).toBe('#ffbe37')
    expect(hexFromRgba({ red: 0, green: 8, blue: 16, alpha: 1 })).toBe('#000810')
  })
})

describe('hexWithAlphaFromRgba', () => {
  it('gives #rrggbbaa, and a stored colour reads back the same', () => {
    expect(hexWithAlphaFromRgba({ red: 255, green: 190, blue: 55, alpha: 0.2 })).toBe('#ffbe3733')
    expect(hexWithAlphaFromRgba({ red: 0, green: 8, blue: 16, alpha: 1 })).toBe('#000810ff')
    expect(hexWithAlphaFromRgba({ red: 0, green: 8, blue: 16, alpha: 0 })).toBe('#00081000')
    for (const stored of ['#ffffff80', '#1e88e5ff', '#00ff0040'])
      expect(hexWithAlphaFromRgba(parseRgba(stored)!)).toBe(stored)
  })
})
