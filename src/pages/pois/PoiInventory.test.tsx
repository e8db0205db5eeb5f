import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ProjectPoisDatum } from '../../api/pois'
import { createPoiStore } from '../../state/pois'
import { ConfirmHost, cancelAllConfirms } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiInventory } from './PoiInventory'
import {
  createFakePoiServer,
  createFakeScreenServices,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from './testing/fake-poi-server'
import { visibleRange } from './virtual-window'

afterEach(() => {
  act(() => cancelAllConfirms())
})

const camera = sceneTemplate('t1', 'Camera')
const pump = sceneTemplate('t2', 'Pump', {
  type: '3D',
  iconpath: '',
  jpg_name: 'pump.png',
  filepath: '/web/files/t2',
})

async function setUp() {
  const server = createFakePoiServer(
    [camera, pump],
    [
      poiRecord({ id: 'a', category_id: 't1', name: 'Gate camera', devicecode: 'CAM-1' }, camera),
      poiRecord({ id: 'b', category_id: 't1', name: 'Lobby camera', devicecode: 'CAM-2' }, camera),
      poiRecord({ id: 'c', category_id: 't2', name: 'Fire pump' }, pump),
    ],
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  const recorder = createRecordingScene('building')
  store.attachScene(recorder.scene)
  await store.load('project-1', 'building')
  renderWithI18n(
    <>
      <PoiInventory store={store} services={createFakeScreenServices(server)} />
      <ConfirmHost />
    </>,
  )
  return { server, store, recorder }
}

const rowNames = () =>
  screen.queryAllByRole('button', { name: /^Fly to / }).map((row) => row.getAttribute('aria-label'))

describe('visibleRange', () => {
  it('renders the rows in view and a few either side, never past the ends', () => {
    expect(
      visibleRange({
        scrollTopPx: 0,
        viewportHeightPx: 100,
        rowHeightPx: 10,
        count: 1000,
        overscan: 2,
      }),
    ).toEqual({
      start: 0,
      end: 13,
      totalHeightPx: 10_000,
      offsetPx: 0,
    })
    expect(
      visibleRange({
        scrollTopPx: 5000,
        viewportHeightPx: 100,
        rowHeightPx: 10,
        count: 1000,
        overscan: 2,
      }),
    ).toMatchObject({
      start: 498,
      end: 513,
    })
    expect(
      visibleRange({ scrollTopPx: 99_999, viewportHeightPx: 100, rowHeightPx: 10, count: 1000 }),
    ).toMatchObject({
      start: 1000,
      end: 1000,
    })
  })
})

describe('PoiInventory', () => {
  it('lists each POI with its picture, kind, name and device code', async () => {
    await setUp()
    expect(rowNames()).toEqual(['Fly to Gate camera', 'Fly to Lobby camera', 'Fly to Fire pump'])
    const pumpRow = screen.getByRole('button', { name: 'Fly to Fire pump' })
    expect(pumpRow.querySelector('img')?.getAttribute('src')).toBe('/web/files/t2/pump.png')
    expect(pumpRow.textContent).toContain('3D')
    expect(pumpRow.textContent).toContain('No device code')
    expect(screen.getByRole('button', { name: 'Fly to Gate camera' }).textContent).toContain(
      'CAM-1',
    )
    expect(screen.getByText('3 of 3 POIs')).toBeTruthy()
  })

  it('searches by name, device code and template', async () => {
    await setUp()
    const search = screen.getByRole('searchbox', { name: 'Search POIs' })
    await userEvent.type(search, 'cam-2')
    await waitFor(() => expect(rowNames()).toEqual(['Fly to Lobby camera']))
    await userEvent.clear(search)
    await userEvent.type(search, 'pump')
    await waitFor(() => expect(rowNames()).toEqual(['Fly to Fire pump']))
    await userEvent.clear(search)
    await userEvent.type(search, 'nothing')
    expect(await screen.findByText('No POI matches “nothing”.')).toBeTruthy()
  })

  it('selects the POI and flies the camera there on a click', async () => {
    const { recorder, store } = await setUp()
    await userEvent.click(screen.getByRole('button', { name: 'Fly to Lobby camera' }))
    expect(store.state.selectedIds).toEqual(['b'])
    expect(recorder.commands.at(-1)).toEqual({ name: 'flyToPoi', args: 'b' })
  })

  it('deletes after confirming, and not when cancelled', async () => {
    const { server } = await setUp()
    await userEvent.click(screen.getByRole('button', { name: 'Delete Gate camera' }))
    let dialog = await screen.findByRole('alertdialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(server.pois.has('a')).toBe(true)
    await userEvent.click(screen.getByRole('button', { name: 'Delete Gate camera' }))
    dialog = await screen.findByRole('alertdialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(server.pois.has('a')).toBe(false))
    await waitFor(() => expect(rowNames()).not.toContain('Fly to Gate camera'))
  })

  it('opens the modify form from edit', async () => {
    await setUp()
    await userEvent.click(screen.getByRole('button', { name: 'Edit Fire pump' }))
    const dialog = await screen.findByRole('dialog', { name: 'Modify POI' })
    await waitFor(() =>
      expect(
        (within(dialog).getByRole('textbox', { name: /Name/ }) as HTMLInputElement).value,
      ).toBe('Fire pump'),
    )
  })

  it('shows an empty project and a failed load with retry', async () => {
    const server = createFakePoiServer([camera], [])
    const store = createPoiStore(server, { onError: vi.fn() })
    await store.load('project-1', 'city')
    const { unmount } = renderWithI18n(<PoiInventory store={store} />)
    expect(screen.getByText('No POIs yet')).toBeTruthy()
    unmount()
    const findProjectPois = vi.fn().mockRejectedValueOnce(new Error('down'))
    const failing = createPoiStore({ ...server, findProjectPois }, { onError: vi.fn() })
    await failing.load('project-1', 'city')
    renderWithI18n(<PoiInventory store={failing} />)
    expect(screen.getByText('The POIs could not be loaded')).toBeTruthy()
    findProjectPois.mockImplementation(server.findProjectPois)
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await screen.findByText('No POIs yet')).toBeTruthy()
  })

  it('renders a window of 100,000 POIs and walks them with the arrow keys', async () => {
    const count = 100_000
    const datum: ProjectPoisDatum = {
      projectid: 'big',
      count,
      templates: [camera],
      floors: [],
      ids: Array.from({ length: count }, (_, index) => `p${index}`),
      names: Array.from({ length: count }, (_, index) => `POI ${index}`),
      template: new Array(count).fill(0),
      positions: new Array(count * 3).fill(0),
      heading: new Array(count).fill(0),
      pitch: new Array(count).fill(0),
      roll: new Array(count).fill(0),
      floor: new Array(count).fill(-1),
      pid: new Array(count).fill(''),
      devicecode: new Array(count).fill(''),
      level: new Array(count).fill(0),
      distance_min: new Array(count).fill(null),
      distance_max: new Array(count).fill(null),
    }
    const server = createFakePoiServer([camera])
    const store = createPoiStore(
      { ...server, findProjectPois: async () => datum },
      { onError: vi.fn() },
    )
    await store.load('big', 'city')
    renderWithI18n(<PoiInventory store={store} heightPx={560} />)
    const rows = screen.getAllByRole('listitem')
    expect(rows.length).toBeLessThan(40)
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('100000')
    screen.getByRole('button', { name: 'Fly to POI 0' }).focus()
    await userEvent.keyboard('{ArrowDown}{ArrowDown}')
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Fly to POI 2'),
    )
    expect(screen.getByText('100000 of 100000 POIs')).toBeTruthy()
  })
})
