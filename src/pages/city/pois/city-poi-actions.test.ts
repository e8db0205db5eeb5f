import { afterEach, describe, expect, it } from 'vitest'
import type { EngineHandle } from '../../../engine-bridge'
import { createPoiStore } from '../../../state/pois'
import { createFakePoiServer, poiRecord, sceneTemplate } from '../../pois/testing/fake-poi-server'
import { cityPoiUi, handleCityPoiClick, nextPoiName } from './city-poi-actions'

const camera = sceneTemplate('t1', 'Camera')

/** An engine that answers the two city POI commands a click uses. */
function fakeEngine(answers: {
  surface?: [number, number, number] | null
  picked?: string | null
}): EngineHandle & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    run: (async (name: string) => {
      calls.push(name)
      if (name === 'city.surfacePointAtScreenPoint') {
        return answers.surface
          ? { position: answers.surface, normal: [0, 0, 1], surface: 'basemap' }
          : null
      }
      if (name === 'city.pickPoiAtScreenPoint')
        return answers.picked ? { poiId: answers.picked } : null
      return undefined
    }) as EngineHandle['run'],
  } as EngineHandle & { calls: string[] }
}

async function loadedStore() {
  const server = createFakePoiServer(
    [camera],
    [poiRecord({ id: 'a', category_id: 't1', name: 'Camera 1', x: 126.9, y: 37.5 }, camera)],
  )
  const store = createPoiStore(server, { onError: () => undefined })
  await store.load('p1', 'city')
  return { server, store }
}

afterEach(() => {
  cityPoiUi.placingTemplate = null
  cityPoiUi.activeTool = null
})

describe('clicks on the city map in the POI tabs', () => {
  it('places a POI of the chosen template on the surface under the click, then selects it', async () => {
    const { store } = await loadedStore()
    cityPoiUi.placingTemplate = camera
    const engine = fakeEngine({ surface: [126.91, 37.51, 0] })
    expect(await handleCityPoiClick(engine, { x: 10, y: 20 }, { store })).toBe('placed')
    // Optimistic: in the store at once, numbered after the existing "Camera 1".
    const placed = store.entries().find((entry) => entry.name === 'Camera 2')
    expect(placed?.position).toEqual([126.91, 37.51, 0])
    await expect.poll(() => store.state.pendingCount).toBe(0)
    const saved = store.entries().find((entry) => entry.name === 'Camera 2')!
    expect(store.state.selectedIds).toEqual([saved.id])
  })

  it('places nothing where there is no surface (the sky)', async () => {
    const { store } = await loadedStore()
    cityPoiUi.placingTemplate = camera
    expect(await handleCityPoiClick(fakeEngine({ surface: null }), { x: 1, y: 1 }, { store })).toBe(
      'nothing',
    )
    expect(store.state.count).toBe(1)
  })

  it('selects what is picked, also with the move tool (moving is a drag)', async () => {
    const { store } = await loadedStore()
    const picking = fakeEngine({ picked: 'a' })
    expect(await handleCityPoiClick(picking, { x: 5, y: 5 }, { store })).toBe('selected')
    expect(store.state.selectedIds).toEqual(['a'])

    cityPoiUi.activeTool = 'move'
    const moving = fakeEngine({ surface: [126.95, 37.55, 12], picked: 'a' })
    expect(await handleCityPoiClick(moving, { x: 50, y: 50 }, { store })).toBe('selected')
    expect(store.get('a')?.position).toEqual([126.9, 37.5, 0])

    cityPoiUi.activeTool = null
    const empty = fakeEngine({ picked: null })
    expect(await handleCityPoiClick(empty, { x: 0, y: 0 }, { store })).toBe('cleared')
    expect(store.state.selectedIds).toEqual([])
    // Monomer POI: a click beside every POI goes to the building there.
    const besides: { x: number; y: number }[] = []
    await handleCityPoiClick(empty, { x: 7, y: 8 }, { store, onNoPoi: (at) => besides.push(at) })
    expect(besides).toEqual([{ x: 7, y: 8 }])
  })

  it('names new POIs after their template with the next free number', () => {
    expect(nextPoiName('Camera', [])).toBe('Camera 1')
    expect(nextPoiName('Camera', ['Camera 1', 'Camera 3'])).toBe('Camera 2')
  })
})
