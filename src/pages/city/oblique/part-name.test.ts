import { describe, expect, it } from 'vitest'
import { partNameFromUri } from './part-name'

describe('part names of the oblique-photography tree', () => {
  it('names an external tileset by its folder and a content by its file stem', () => {
    expect(partNameFromUri('city/tileset.json')).toBe('city')
    expect(partNameFromUri('building.b3dm?v=2')).toBe('building')
    expect(partNameFromUri('house%201.glb')).toBe('house 1')
    expect(partNameFromUri(null)).toBeNull()
  })
})
