import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EngineHandle } from '../../../engine-bridge'
import { createPoiStore } from '../../../state/pois'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { createFakePoiServer, poiRecord, sceneTemplate } from '../../pois/testing/fake-poi-server'
import { resetPoiEditing } from './poi-editing'
import { PoiStage } from './PoiStage'

// The real canvas attaches itself to the engine; here a bare canvas stands for the scene.
vi.mock('../BuildingCanvas', () => ({
  BuildingCanvas: () => <canvas data-testid="building-canvas" />,
}))

afterEach(() => {
  resetPoiEditing()
})

const camera = sceneTemplate('t1', 'Camera')

async function setUp() {
  const server = createFakePoiServer(
    [camera],
    [poiRecord({ id: 'a', category_id: 't1', name: 'Gate', x: 1, y: 0, z: 1 }, camera)],
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  await store.load('project-1', 'building')
  act(() => store.select(['a']))
  const run = vi.fn(async (name: string, _args?: unknown) =>
    name === 'building.surfacePointAtScreenPoint'
      ? { position: [4, 0, 2], normal: [0, 1, 0], floorId: null }
      : null,
  )
  const engine = { run, on: () => () => undefined } as unknown as EngineHandle
  renderWithI18n(<PoiStage engine={engine} onPick={vi.fn()} isActive store={store} />)
  return { server, store, run }
}

const tool = (name: string) => screen.getByRole('button', { name })
const surfacePicks = (run: ReturnType<typeof vi.fn>) =>
  run.mock.calls.filter(([name]) => name === 'building.surfacePointAtScreenPoint').length

describe('PoiStage (the building canvas with the POI control bar)', () => {
  it('moves the selected POI by dragging on the canvas with the move tool, then rotates it', async () => {
    const { server, store } = await setUp()
    const user = userEvent.setup()
    await user.click(tool('Move'))
    expect(tool('Move').getAttribute('aria-pressed')).toBe('true')
    const canvas = screen.getByTestId('building-canvas')
    await user.pointer([
      { keys: '[MouseLeft>]', target: canvas, coords: { clientX: 10, clientY: 10 } },
      { target: canvas, coords: { clientX: 30, clientY: 10 } },
      { target: canvas, coords: { clientX: 60, clientY: 10 } },
      { keys: '[/MouseLeft]', target: canvas },
    ])
    await waitFor(() => expect(server.pois.get('a')?.x).toBe(4))
    expect(store.get('a')?.position).toEqual([4, 0, 2])

    // After a move, rotate is the next tool: its slider opens and one step saves 15°.
    await user.click(tool('Rotate'))
    expect(tool('Rotate').getAttribute('aria-pressed')).toBe('true')
    const slider = screen.getByRole('slider', { name: 'Rotation' })
    slider.focus()
    await user.keyboard('{ArrowRight}')
    await waitFor(() => expect(server.pois.get('a')?.heading).toBe(15))
  })

  it('moves every selected POI by dragging one of them, keeping their layout', async () => {
    const server = createFakePoiServer(
      [camera],
      [
        poiRecord({ id: 'a', category_id: 't1', name: 'Gate', x: 1, y: 0, z: 1 }, camera),
        poiRecord({ id: 'b', category_id: 't1', name: 'Door', x: 3, y: 0, z: 1 }, camera),
        poiRecord({ id: 'c', category_id: 't1', name: 'Hall', x: 9, y: 0, z: 9 }, camera),
      ],
    )
    const store = createPoiStore(server, { onError: vi.fn() })
    await store.load('project-1', 'building')
    act(() => store.select(['a', 'b']))
    // the press grabs Door (b); the pointer ends over the surface at (4, 0, 2)
    const run = vi.fn(async (name: string, _args?: unknown) => {
      if (name === 'building.pickPoiAtScreenPoint') return { poiId: 'b' }
      if (name === 'building.surfacePointAtScreenPoint') {
        return { position: [4, 0, 2], normal: [0, 1, 0], floorId: null }
      }
      return null
    })
    const engine = { run, on: () => () => undefined } as unknown as EngineHandle
    renderWithI18n(<PoiStage engine={engine} onPick={vi.fn()} isActive store={store} />)
    const user = userEvent.setup()
    await user.click(tool('Move'))
    const canvas = screen.getByTestId('building-canvas')
    await user.pointer([
      { keys: '[MouseLeft>]', target: canvas, coords: { clientX: 10, clientY: 10 } },
      { target: canvas, coords: { clientX: 40, clientY: 10 } },
      { target: canvas, coords: { clientX: 60, clientY: 10 } },
      { keys: '[/MouseLeft]', target: canvas },
    ])
    // Door lands under the pointer, Gate keeps its 2 m to the left of it; Hall stays
    await waitFor(() => expect(server.pois.get('b')?.x).toBe(4))
    expect([server.pois.get('a')?.x, server.pois.get('a')?.z]).toEqual([2, 2])
    expect(store.get('b')?.position).toEqual([4, 0, 2])
    expect(store.get('a')?.position).toEqual([2, 0, 2])
    expect(store.get('c')?.position).toEqual([9, 0, 9])
    // one list call for the block
    expect(server.calls.filter((call) => call.name === 'updataPoiList')).toHaveLength(1)
  })

  it('leaves a press on the control bar to the bar while the move tool is active', async () => {
    const { server, store, run } = await setUp()
    const user = userEvent.setup()
    await user.click(tool('Move'))
    // A press on Rotate that slides a little (a hand is never still) is not a drag of the POI.
    await user.pointer([
      { keys: '[MouseLeft>]', target: tool('Rotate'), coords: { clientX: 10, clientY: 10 } },
      { target: tool('Rotate'), coords: { clientX: 30, clientY: 12 } },
      { keys: '[/MouseLeft]', target: tool('Rotate') },
    ])
    expect(screen.getByRole('slider', { name: 'Rotation' })).toBeTruthy()
    expect(surfacePicks(run)).toBe(0)
    expect(store.get('a')?.position).toEqual([1, 0, 1])
    expect(server.calls.filter((call) => call.name.startsWith('updata'))).toEqual([])
  })
})
