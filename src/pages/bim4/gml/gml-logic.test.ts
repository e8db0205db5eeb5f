import { i18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { enginePlacementOf } from './load-project-gml'
import { filterStates, sortStates, stateLabel } from './gml-states'
import { checkRouteRequest, formatLengthMeters } from './route-check'

const text = (check: ReturnType<typeof checkRouteRequest>) =>
  check.canRoute ? 'ok' : i18n._(check.message)

describe('checkRouteRequest (SPEC §5 shortest path, §8 messages)', () => {
  const r10 = { kind: 'state', stateId: 'R10', label: 'R10' } as const
  const r21 = { kind: 'state', stateId: 'R21', label: 'R21' } as const
  const point = { kind: 'point', point: [1, 2, 3], label: 'Point' } as const

  it('needs the network first', () => {
    expect(text(checkRouteRequest(false, r10, r21))).toBe('Load the GML path first.')
  })

  it('needs both ends, and two different States', () => {
    expect(text(checkRouteRequest(true, null, null))).toBe('Not selected paths')
    expect(text(checkRouteRequest(true, r10, null))).toBe(
      'Re-select the start point or the end point.',
    )
    expect(text(checkRouteRequest(true, null, r21))).toBe(
      'Re-select the start point or the end point.',
    )
    expect(text(checkRouteRequest(true, r10, r10))).toBe(
      'Re-select the start point or the end point.',
    )
  })

  it('hands the engine States by id and points by coordinates', () => {
    expect(checkRouteRequest(true, r10, point)).toEqual({
      canRoute: true,
      from: { stateId: 'R10' },
      to: { point: [1, 2, 3] },
    })
  })

  it('writes lengths in metres with two decimals', () => {
    expect(formatLengthMeters(13.3671)).toBe('13.37')
  })
})

describe('GML States for the searchable list', () => {
  const states = sortStates([
    { stateId: 'R21', name: '202', storey: '2', position: [0, 0, 0] as const },
    { stateId: 'R10', name: '004', storey: '1', position: null },
    { stateId: 'S10', name: 'S10', storey: '10', position: null },
    { stateId: 'R3', name: 'R3', storey: '1', position: null },
  ])

  it('orders States by storey then name, numbers as numbers', () => {
    expect(states.map((state) => state.stateId)).toEqual(['R10', 'R3', 'R21', 'S10'])
  })

  it('labels a State by name, id and storey, by id alone when it has no name', () => {
    expect(states.map(stateLabel)).toEqual(['004 (R10) · 1', 'R3 · 1', '202 (R21) · 2', 'S10 · 10'])
    expect(stateLabel({ stateId: 'X', name: 'Hall', storey: '' })).toBe('Hall (X)')
  })

  it('filters by id, name or storey, ignoring case and surrounding blanks', () => {
    expect(filterStates(states, 'r2').map((state) => state.stateId)).toEqual(['R21'])
    expect(filterStates(states, '004').map((state) => state.stateId)).toEqual(['R10'])
    expect(filterStates(states, ' 10 ').map((state) => state.stateId)).toEqual(['R10', 'S10'])
    expect(filterStates(states, '  ').length).toBe(4)
  })
})

describe('enginePlacementOf', () => {
  it('turns the server placement into the engine command', () => {
    expect(
      enginePlacementOf({ placement: { offset: [1, 2, 3], rotation_deg: 90, scale: 0.5 } }),
    ).toEqual({ offset: [1, 2, 3], rotationDeg: 90, scale: 0.5 })
  })
})
