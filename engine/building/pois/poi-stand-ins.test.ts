import { describe, expect, it } from 'vitest'
import { DRAWN_AS, drawnAsFor, MODEL_MIN_PIXELS, MODEL_NEAR_PIXELS } from './poi-stand-ins'

describe('how a 3D POI is drawn by its size on the screen', () => {
  const plain = false
  it('is a marker while tiny, its stand-in further off, its model up close', () => {
    expect(drawnAsFor(MODEL_MIN_PIXELS - 0.5, true, plain)).toBe(DRAWN_AS.marker)
    expect(drawnAsFor(MODEL_MIN_PIXELS, true, plain)).toBe(DRAWN_AS.standIn)
    expect(drawnAsFor(MODEL_NEAR_PIXELS - 0.5, true, plain)).toBe(DRAWN_AS.standIn)
    expect(drawnAsFor(MODEL_NEAR_PIXELS, true, plain)).toBe(DRAWN_AS.model)
  })

  it('is its model until its stand-in picture exists, and while hovered or selected', () => {
    expect(drawnAsFor(MODEL_MIN_PIXELS + 2, false, plain)).toBe(DRAWN_AS.model)
    expect(drawnAsFor(MODEL_MIN_PIXELS + 2, true, true)).toBe(DRAWN_AS.model)
    // a highlighted POI too small to see is still a marker (with its ring)
    expect(drawnAsFor(MODEL_MIN_PIXELS - 1, true, true)).toBe(DRAWN_AS.marker)
  })
})
