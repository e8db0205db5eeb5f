import { describe, expect, it } from 'vitest'
import { declutterLabels, labelWidthPixels } from './poi-labels'

const layout = { iconSizePixels: 32, labelOffsetPixels: 18, fontSizePixels: 13 }
const view = { width: 640, height: 480 }

describe('label declutter', () => {
  it('keeps labels apart: of two markers side by side only the first is labelled', () => {
    const kept = declutterLabels(
      [
        { x: 100, y: 100, label: 'Camera north gate' },
        { x: 140, y: 100, label: 'Camera south gate' },
        { x: 400, y: 300, label: 'Door' },
      ],
      view,
      layout,
    )
    expect(kept).toEqual([0, 2])
  })

  it('never draws a label over another marker, and skips markers out of view or unnamed', () => {
    const kept = declutterLabels(
      [
        { x: 100, y: 100, label: 'Sensor' },
        { x: 100, y: 130, label: 'Sensor 2' },
        { x: -200, y: 100, label: 'Far away' },
        { x: 300, y: 100, label: '' },
      ],
      view,
      layout,
    )
    // The first label (y 118..131) would cover the second marker's icon (y 114..146).
    expect(kept).toEqual([1])
  })

  it('measures Korean characters about twice as wide as Latin ones', () => {
    expect(labelWidthPixels('카메라', 13)).toBe(39)
    expect(labelWidthPixels('abc', 10)).toBeCloseTo(18)
  })
})
