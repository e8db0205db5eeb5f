import { expect, it } from 'vitest'
import duckUrl from '../../workers/sbm/fixtures/duck.sbm?url'
import { Engine } from '../core/engine'

it('debug', async () => {
  const canvas = document.createElement('canvas')
  canvas.style.width = '320px'
  canvas.style.height = '240px'
  document.body.append(canvas)
  const engine = new Engine({ canvas })
  const log = (label: string) => console.log(label, JSON.stringify(engine.getSnapshot().building.render))
  await new Promise((r) => setTimeout(r, 200))
  log('empty')
  await engine.run('building.open', { description: { projectId: 'd', name: 'd', shellModelId: null, floors: [], models: [{ id: 'duck', name: 'Duck', role: 'model', floorId: null, url: duckUrl, sizeBytes: 1 }] } })
  await new Promise((r) => setTimeout(r, 1000))
  log('duck')
  await engine.run('building.close')
  await new Promise((r) => setTimeout(r, 500))
  log('closed')
  expect(1).toBe(1)
  engine.dispose()
})
