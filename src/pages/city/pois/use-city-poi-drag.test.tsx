import { renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EngineHandle } from '../../../engine-bridge'
import { createPoiStore } from '../../../state/pois'
import { createFakePoiServer, poiRecord, sceneTemplate } from '../../pois/testing/fake-poi-server'
import { cityPoiUi } from './city-poi-actions'
import { useCityPoiDrag } from './use-city-poi-drag'

const camera = sceneTemplate('t1', 'Camera')

/**
 * An engine whose POI 'a' is drawn at (100, 100): a press there begins a drag; the surface under
 * a point is a made-up lng/lat from its pixels.
 */
function fakeEngine() {
  const calls: string[] = []
  const run = vi.fn(async (name: string, args: unknown) => {
    calls.push(name)
    const { x, y } = (args ?? {}) as { x: number; y: number }
    if (name === 'city.beginPoiDrag')
      return Math.hypot(x - 100, y - 100) < 10 ? { poiId: 'a' } : null
    if (name === 'city.surfacePointAtScreenPoint')
      return { position: [126 + x / 1000, 37 + y / 1000, 0], normal: [0, 0, 1], surface: 'basemap' }
    return undefined
  })
  return { engine: { run } as unknown as EngineHandle, calls }
}

async function setUp() {
  const server = createFakePoiServer(
    [camera],
    [poiRecord({ id: 'a', category_id: 't1', name: 'Camera 1', x: 126.1, y: 37.1 }, camera)],
  )
  const store = createPoiStore(server, { onError: () => undefined })
  await store.load('p1', 'city')
  store.select(['a'])
  const stage = document.createElement('div')
  const map = document.createElement('div')
  map.dataset.testid = 'city-map'
  stage.append(map)
  document.body.append(stage)
  const { engine, calls } = fakeEngine()
  const preview = vi.spyOn(store, 'preview')
  const hook = renderHook(() => useCityPoiDrag(engine, { current: stage }, true, store))
  return { store, map, calls, preview, hook, stage }
}

function pointer(target: EventTarget, type: string, x: number, y: number) {
  target.dispatchEvent(
    new PointerEvent(type, { bubbles: true, clientX: x, clientY: y, button: 0, pointerId: 1 }),
  )
}

/** Lets the engine's answers (promises) arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

afterEach(() => {
  cityPoiUi.activeTool = null
  cityPoiUi.placingTemplate = null
  document.body.innerHTML = ''
})

describe('dragging a city POI with the move tool', () => {
  it('follows the surface under the pointer and saves where it is released', async () => {
    const { store, map, calls, preview } = await setUp()
    cityPoiUi.activeTool = 'move'
    pointer(map, 'pointerdown', 100, 100)
    await settle()
    expect(calls).toContain('city.beginPoiDrag')
    pointer(window, 'pointermove', 150, 120)
    await settle()
    pointer(window, 'pointermove', 200, 150)
    await waitFor(() =>
      expect(preview).toHaveBeenLastCalledWith('a', { position: [126.2, 37.15, 0] }),
    )
    // Only previewed while dragging: the record is where it was.
    expect(store.get('a')?.position).toEqual([126.1, 37.1, 0])
    pointer(window, 'pointerup', 200, 150)
    expect(calls.at(-1)).toBe('city.endPoiDrag')
    expect(store.get('a')?.position).toEqual([126.2, 37.15, 0])
    await waitFor(() => expect(store.state.pendingCount).toBe(0))
    expect(store.get('a')?.position).toEqual([126.2, 37.15, 0])
  })

  it('cancels with Escape: the POI is drawn where it was and nothing is saved', async () => {
    const { store, map, calls } = await setUp()
    const cancelPreview = vi.spyOn(store, 'cancelPreview')
    const update = vi.spyOn(store, 'update')
    cityPoiUi.activeTool = 'move'
    pointer(map, 'pointerdown', 100, 100)
    await settle()
    pointer(window, 'pointermove', 180, 140)
    await settle()
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    expect(calls.at(-1)).toBe('city.endPoiDrag')
    expect(cancelPreview).toHaveBeenCalledWith('a')
    pointer(window, 'pointerup', 180, 140)
    expect(update).not.toHaveBeenCalled()
    expect(store.get('a')?.position).toEqual([126.1, 37.1, 0])
  })

  it('leaves presses elsewhere, and presses without the move tool, to the map', async () => {
    const { store, map, calls, preview } = await setUp()
    pointer(map, 'pointerdown', 100, 100)
    await settle()
    expect(calls).toEqual([])
    cityPoiUi.activeTool = 'move'
    pointer(map, 'pointerdown', 300, 300)
    await settle()
    // Not on the POI: the engine held nothing and the hook let go at once.
    expect(calls).toEqual(['city.beginPoiDrag', 'city.endPoiDrag'])
    pointer(window, 'pointermove', 350, 350)
    pointer(window, 'pointerup', 350, 350)
    await settle()
    expect(preview).not.toHaveBeenCalled()
    expect(store.get('a')?.position).toEqual([126.1, 37.1, 0])
  })
})
