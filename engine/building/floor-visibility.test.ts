import { describe, expect, it } from 'vitest'
import { computeVisibility, sortFloorsBottomUp, type VisibilityInput } from './floor-visibility'

function building(overrides: Partial<VisibilityInput> = {}): VisibilityInput {
  return {
    floors: [
      { id: 'B1', elevationMeters: -3, isVisible: true },
      { id: 'F1', elevationMeters: 0, isVisible: true },
      { id: 'F2', elevationMeters: 3, isVisible: true },
    ],
    selectedFloorId: null,
    shell: { modelId: 'shell', isVisible: true, opacity: 1 },
    models: [
      { id: 'shell', role: 'shell', floorId: null, isVisible: true },
      { id: 'b1', role: 'floor', floorId: 'B1', isVisible: true },
      { id: 'f1', role: 'floor', floorId: 'F1', isVisible: true },
      { id: 'f2', role: 'floor', floorId: 'F2', isVisible: true },
      { id: 'tree', role: 'model', floorId: null, isVisible: true },
    ],
    ...overrides,
  }
}

const shown = (input: VisibilityInput) =>
  [...computeVisibility(input).modelShown].filter(([, isShown]) => isShown).map(([id]) => id)

describe('floor visibility', () => {
  it('shows everything when no floor is selected', () => {
    expect(shown(building())).toEqual(['shell', 'b1', 'f1', 'f2', 'tree'])
  })

  it('isolates the selected floor: other floors, the shell and free models hide', () => {
    const result = computeVisibility(building({ selectedFloorId: 'F1' }))
    expect([...result.floorShown]).toEqual([
      ['B1', false],
      ['F1', true],
      ['F2', false],
    ])
    expect(result.isShellShown).toBe(false)
    expect(shown(building({ selectedFloorId: 'F1' }))).toEqual(['f1'])
  })

  it('isolates one of several floors at the same elevation', () => {
    const input = building({ selectedFloorId: 'F2' })
    input.floors[2]!.elevationMeters = 0
    expect(shown(input)).toEqual(['f2'])
  })

  it('combines the user switches with the selection', () => {
    const input = building({ selectedFloorId: 'F2' })
    input.floors[2]!.isVisible = false
    expect(shown(input)).toEqual([])
    input.floors[2]!.isVisible = true
    input.models[3]!.isVisible = false
    expect(shown(input)).toEqual([])
    expect(shown(building({ selectedFloorId: 'F2' }))).toEqual(['f2'])
  })

  it('hides a fully transparent or switched-off shell, but not a translucent one', () => {
    expect(
      shown(building({ shell: { modelId: 'shell', isVisible: true, opacity: 0 } })),
    ).not.toContain('shell')
    expect(
      shown(building({ shell: { modelId: 'shell', isVisible: false, opacity: 1 } })),
    ).not.toContain('shell')
    expect(
      shown(building({ shell: { modelId: 'shell', isVisible: true, opacity: 0.4 } })),
    ).toContain('shell')
  })

  it('ignores a selection naming no floor', () => {
    expect(shown(building({ selectedFloorId: 'gone' }))).toHaveLength(5)
  })

  it('orders floors bottom-up, keeping the given order for equal elevations', () => {
    const floors = [
      { id: 'roof', elevationMeters: 9 },
      { id: 'a', elevationMeters: 0 },
      { id: 'b', elevationMeters: 0 },
      { id: 'basement', elevationMeters: -4 },
    ]
    expect(sortFloorsBottomUp(floors).map((floor) => floor.id)).toEqual([
      'basement',
      'a',
      'b',
      'roof',
    ])
  })
})
