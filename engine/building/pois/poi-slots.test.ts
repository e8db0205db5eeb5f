import { describe, expect, it } from 'vitest'
import type { ScenePoi } from '../../api/poi-commands'
import { keptInSlots } from './poi-slots'

const poi = (id: string): ScenePoi => ({
  id,
  templateId: 'camera',
  label: id,
  position: [0, 0, 0],
  heading: 0,
  pitch: 0,
  roll: 0,
  floorId: null,
  groupId: 'cameras',
})
const ids = (pois: readonly ScenePoi[]) => pois.map((entry) => entry.id)

describe('3D POI slots', () => {
  it('keeps each POI that stays drawn as a model in its slot', () => {
    expect(ids(keptInSlots([], ['a', 'b', 'c'].map(poi)))).toEqual(['a', 'b', 'c'])
    // b left, d came: d takes b's slot; a and c stay where they were
    expect(ids(keptInSlots(['a', 'b', 'c'], ['a', 'c', 'd'].map(poi)))).toEqual(['a', 'd', 'c'])
    // a left and nothing came: the last slot's POI fills the gap, the slots stay one run
    expect(ids(keptInSlots(['a', 'b', 'c', 'd'], ['b', 'c', 'd'].map(poi)))).toEqual([
      'd',
      'b',
      'c',
    ])
    // the last ones left
    expect(ids(keptInSlots(['a', 'b', 'c'], ['a'].map(poi)))).toEqual(['a'])
    expect(ids(keptInSlots(['a', 'b', 'c'], []))).toEqual([])
    // more came than left: the gaps first, then the end
    expect(ids(keptInSlots(['a', 'b'], ['b', 'x', 'y'].map(poi))).sort()).toEqual(['b', 'x', 'y'])
    expect(keptInSlots(['a', 'b'], ['b', 'x', 'y'].map(poi))[1]!.id).toBe('b')
  })

  it('draws the newest record of a POI that stayed (it may have moved)', () => {
    const moved = { ...poi('a'), position: [1, 2, 3] as [number, number, number] }
    expect(keptInSlots(['a'], [moved])[0]).toBe(moved)
  })
})
