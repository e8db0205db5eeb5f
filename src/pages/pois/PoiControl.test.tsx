import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPoiStore, type PoiFrame } from '../../state/pois'
import { ConfirmHost, cancelAllConfirms } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiControl, raisedPosition } from './PoiControl'
import { createFakePoiServer, poiRecord, sceneTemplate } from './testing/fake-poi-server'

afterEach(() => {
  act(() => cancelAllConfirms())
})

const camera = sceneTemplate('t1', 'Camera')

async function setUp(frame: PoiFrame = 'city') {
  const server = createFakePoiServer(
    [camera],
    [
      poiRecord(
        { id: 'a', category_id: 't1', name: 'Gate', x: 10, y: 20, z: 5, heading: 0 },
        camera,
      ),
      poiRecord(
        { id: 'b', category_id: 't1', name: 'Door', x: 11, y: 20, z: 5, heading: 0 },
        camera,
      ),
    ],
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  await store.load('project-1', frame)
  const onClose = vi.fn()
  renderWithI18n(
    <>
      <PoiControl store={store} onClose={onClose} />
      <ConfirmHost />
    </>,
  )
  return { server, store, onClose }
}

const tool = (name: string) => screen.getByRole('button', { name })

describe('PoiControl (the control bar on the POI store)', () => {
  it('raises the city height (z) and the building up axis (y)', () => {
    expect(raisedPosition([1, 2, 3], 0.5, 'city')).toEqual([1, 2, 3.5])
    expect(raisedPosition([1, 2, 3], 0.5, 'building')).toEqual([1, 2.5, 3])
  })

  it('is disabled until a POI is selected', async () => {
    const { store } = await setUp()
    expect((tool('Rotate') as HTMLButtonElement).disabled).toBe(true)
    act(() => store.select(['a']))
    await waitFor(() => expect((tool('Rotate') as HTMLButtonElement).disabled).toBe(false))
  })

  it('rotates the selected POIs and saves on each step', async () => {
    const { store, server } = await setUp()
    act(() => store.select(['a', 'b']))
    await waitFor(() => expect((tool('Rotate') as HTMLButtonElement).disabled).toBe(false))
    await userEvent.click(tool('Rotate'))
    screen.getByRole('slider', { name: 'Rotation' }).focus()
    await userEvent.keyboard('{ArrowRight}')
    await waitFor(() => expect(server.pois.get('b')?.heading).toBe(15))
    expect(server.pois.get('a')?.heading).toBe(15)
    expect(store.get('a')?.heading).toBe(15)
    expect(server.calls.at(-1)?.name).toBe('updataPoiList')
  })

  it('raises by the altitude slider from where the POI was, and undo takes it back', async () => {
    const { store, server } = await setUp()
    act(() => store.select(['a']))
    await waitFor(() => expect((tool('Rotate') as HTMLButtonElement).disabled).toBe(false))
    await userEvent.click(tool('Altitude'))
    screen.getByRole('slider', { name: 'Altitude' }).focus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    await waitFor(() => expect(server.pois.get('a')?.z).toBeCloseTo(5.03, 6))
    expect(store.get('a')?.position[2]).toBeCloseTo(5.03, 6)
    await userEvent.click(tool('Undo'))
    await waitFor(() => expect(server.pois.get('a')?.z).toBeCloseTo(5.015, 6))
  })

  it('deletes the selection after confirming', async () => {
    const { store, server } = await setUp()
    act(() => store.select(['a']))
    await waitFor(() => expect((tool('Rotate') as HTMLButtonElement).disabled).toBe(false))
    await userEvent.click(tool('Delete'))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog.textContent).toContain('Gate')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(server.pois.has('a')).toBe(false))
    expect(store.state.selectedIds).toEqual([])
  })
})
