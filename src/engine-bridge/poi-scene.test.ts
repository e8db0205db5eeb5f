import { describe, expect, it, vi } from 'vitest'
import { createPoiScene } from './poi-scene'

describe('createPoiScene', () => {
  it('runs each call as the command of its half', async () => {
    const run = vi.fn(async () => undefined)
    const scene = createPoiScene({ run, hasCommand: () => true }, 'building')
    await scene.setPois([])
    await scene.setHiddenGroups(['g'])
    await scene.flyTo('p1')
    expect(run.mock.calls).toEqual([
      ['building.setPois', { pois: [] }],
      ['building.setHiddenPoiGroups', { groupIds: ['g'] }],
      ['building.flyToPoi', { id: 'p1' }],
    ])
  })

  it('skips commands the engine does not handle yet and never throws a failure', async () => {
    const run = vi.fn(async () => {
      throw new Error('city.notOpen')
    })
    const scene = createPoiScene(
      { run, hasCommand: (name) => name !== 'city.setPoiGhosts' },
      'city',
    )
    await scene.setGhosts([])
    expect(run).not.toHaveBeenCalled()
    await expect(scene.selectPois(['a'])).resolves.toBeUndefined()
    expect(await scene.toScreen([0, 0, 0])).toBeNull()
  })

  it('calls run on the engine (a class method needs its `this`)', async () => {
    class MethodEngine {
      readonly calls: string[] = []
      async run(name: string) {
        this.calls.push(name)
      }
    }
    const engine = new MethodEngine()
    await createPoiScene(engine as never, 'city').setPois([])
    expect(engine.calls).toEqual(['city.setPois'])
  })
})
