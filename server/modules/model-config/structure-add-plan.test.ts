import { describe, expect, it } from 'vitest'
import { type CurrentStructure, planStructureAdd } from './structure-add-plan'

const empty: CurrentStructure = { name: 'Empty', shellFileName: null, floors: [], fileNames: [] }

const tower: CurrentStructure = {
  name: 'Tower',
  shellFileName: 'shell.sbm',
  floors: [
    { name: '1F', elevation: 0, models: [{ fileName: '1F.sbm', role: 'floor' }] },
    {
      name: '2F',
      elevation: 3.5,
      models: [
        { fileName: '2F.sbm', role: 'floor' },
        { fileName: 'desk.sbm', role: 'model' },
      ],
    },
  ],
  fileNames: ['shell.sbm', '1F.sbm', '2F.sbm', 'desk.sbm', '3F.sbm'],
}

describe('planStructureAdd', () => {
  it('stacks the floors of an empty building from 0 m in name order, basements first', () => {
    const plan = planStructureAdd('p', empty, {
      shellName: 'hull.fbx',
      floorNames: ['2F.dae', 'B1.dae', '1F.dae'],
      storeyHeightMeters: 4,
    })
    expect(plan.floors.map((floor) => [floor.name, floor.elevation])).toEqual([
      ['B1', 0],
      ['1F', 4],
      ['2F', 8],
    ])
    expect(plan.shell).toEqual({ fileName: 'hull.sbm', change: 'added', replacesFileName: null })
  })

  it('replaces a floor named like an existing one and keeps its other models', () => {
    const plan = planStructureAdd('p', tower, { shellName: null, floorNames: ['2f.glb'] })
    expect(plan.floors[1]).toEqual({
      name: '2F',
      elevation: 3.5,
      models: ['2F.sbm', 'desk.sbm'],
      change: 'replaced',
      sourceName: '2f.glb',
    })
    expect(plan.shell).toEqual({ fileName: 'shell.sbm', change: 'kept', replacesFileName: null })
  })

  it('puts basements below the lowest floor and the rest above the top one', () => {
    const plan = planStructureAdd('p', tower, {
      shellName: null,
      floorNames: ['B2.sbm', '지하1.sbm', 'roof.sbm', '4F.sbm'],
    })
    expect(plan.floors.map((floor) => [floor.name, floor.elevation, floor.change])).toEqual([
      ['B2', -6, 'added'],
      ['지하1', -3, 'added'],
      ['1F', 0, 'kept'],
      ['2F', 3.5, 'kept'],
      ['4F', 6.5, 'added'],
      ['roof', 9.5, 'added'],
    ])
  })

  it('never takes a file name another model keeps', () => {
    // 3F.sbm is a free-standing model of the project already
    const plan = planStructureAdd('p', tower, { shellName: 'desk.dae', floorNames: ['3F.fbx'] })
    expect(plan.floors.at(-1)?.models).toEqual(['3F-2.sbm'])
    expect(plan.shell?.fileName).toBe('desk-2.sbm')
  })

  it('refuses nothing to add, two floors of one name and files that are not models', () => {
    expect(() => planStructureAdd('p', tower, { shellName: null, floorNames: [] })).toThrow(
      expect.objectContaining({ messageId: 'modelConfig.addNothing' }),
    )
    expect(() =>
      planStructureAdd('p', tower, { shellName: null, floorNames: ['3F.dae', '3f.fbx'] }),
    ).toThrow(expect.objectContaining({ messageId: 'modelConfig.floorNameTwice' }))
    expect(() => planStructureAdd('p', tower, { shellName: 'a.pdf', floorNames: [] })).toThrow(
      expect.objectContaining({ messageId: 'modelConfig.notAModel' }),
    )
  })
})
