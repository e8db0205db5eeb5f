import { describe, expect, it } from 'vitest'
import { floorLevelOf, orderFloors, refersTo } from './merge-inputs'

describe('merge floor order', () => {
  it('puts basements below ground and numbered floors in number order', () => {
    const names = ['10F.fbx', '2F.fbx', 'B1.dae', 'roof.glb', '1F.fbx', 'B2.sbm', '지하3.dae']
    expect(orderFloors(names.map((name) => ({ name }))).map((file) => file.name)).toEqual([
      '지하3.dae',
      'B2.sbm',
      'B1.dae',
      '1F.fbx',
      '2F.fbx',
      '10F.fbx',
      'roof.glb',
    ])
  })

  it('reads levels from common floor names', () => {
    expect(floorLevelOf('floor-3.dae')).toBe(3)
    expect(floorLevelOf('3층.fbx')).toBe(3)
    expect(floorLevelOf('地下1.fbx')).toBe(-1)
    expect(floorLevelOf('-2.sbm')).toBe(-2)
    expect(floorLevelOf('lobby.glb')).toBeNull()
  })

  it('finds a map named in a model', () => {
    const dae = new TextEncoder().encode('<init_from>./duckCM.tga</init_from>')
    expect(refersTo(dae, 'duckCM.tga')).toBe(true)
    expect(refersTo(dae, 'wall.png')).toBe(false)
  })
})
