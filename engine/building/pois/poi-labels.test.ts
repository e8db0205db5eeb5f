import { describe, expect, it } from 'vitest'
import type { ScenePoi } from '../../api/poi-commands'
import { nearestLabelled } from './poi-labels'

const poi = (index: number, label: string): ScenePoi => ({
  id: `p${index}`,
  templateId: 'sensor',
  label,
  position: [0, 0, 0],
  heading: 0,
  pitch: 0,
  roll: 0,
  floorId: null,
  groupId: 'sensors',
})

/** Singles 0..count-1 at the given clip w (distance), some unlabelled, some highlighted. */
function frameOf(ws: readonly number[], highlightedIndices: readonly number[], unlabelled = -1) {
  const screen = new Float32Array(ws.length * 3)
  ws.forEach((w, index) => {
    screen[index * 3 + 2] = w
  })
  const highlighted = new Uint8Array(ws.length)
  for (const index of highlightedIndices) highlighted[index] = 1
  return {
    singles: ws.map((_, index) => index),
    pois: ws.map((_, index) => poi(index, index === unlabelled ? '' : `POI ${index}`)),
    screen,
    highlighted,
  }
}

describe('nearestLabelled (the labels a frame tries, in order)', () => {
  it('puts highlighted POIs first, then the nearest, at most 60', () => {
    // 200 singles, farther with the index except a few near ones at the end
    const ws = Array.from({ length: 200 }, (_, index) => 10 + index)
    ws[190] = 1
    ws[191] = 2
    const order = nearestLabelled(frameOf(ws, [150, 120]))
    expect(order).toHaveLength(60)
    // the highlighted keep the singles' order among themselves, then nearest first
    expect(order.slice(0, 4)).toEqual([120, 150, 190, 191])
    expect(order.slice(4)).toEqual(Array.from({ length: 56 }, (_, index) => index))
  })

  it('leaves out POIs without a label and keeps every one when few', () => {
    const order = nearestLabelled(frameOf([5, 3, 4, 1], [], 3))
    expect(order).toEqual([1, 2, 0])
  })

  it('keeps the singles order between equally near POIs, also at the cut', () => {
    // 70 POIs at the same distance: the first 60 in the singles' order
    const order = nearestLabelled(frameOf(new Array(70).fill(7), []))
    expect(order).toEqual(Array.from({ length: 60 }, (_, index) => index))
  })
})
