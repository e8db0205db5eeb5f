import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPoiStore, type PoiEntry } from '../../state/pois'
import { ConfirmHost, cancelAllConfirms } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiTable } from './PoiTable'
import { emptyPoiTableFilter, poiTableRows } from './poi-table-rules'
import {
  createFakePoiServer,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from './testing/fake-poi-server'

afterEach(() => {
  act(() => cancelAllConfirms())
})

const camera = sceneTemplate('t1', 'Camera')
const pump = sceneTemplate('t2', 'Pump', { type: '3D' })

async function setUp() {
  const server = createFakePoiServer(
    [camera, pump],
    [
      poiRecord(
        { id: 'a', category_id: 't1', name: 'Cam 10', devicecode: 'C10', heading: 90 },
        camera,
      ),
      poiRecord({ id: 'b', category_id: 't1', name: 'Cam 9', devicecode: '' }, camera),
      poiRecord(
        { id: 'c', category_id: 't2', name: 'Pump A', devicecode: 'P1', heading: -45 },
        pump,
      ),
    ],
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  const recorder = createRecordingScene('city')
  store.attachScene(recorder.scene)
  await store.load('project-1', 'city')
  renderWithI18n(
    <>
      <PoiTable store={store} />
      <ConfirmHost />
    </>,
  )
  return { server, store, recorder }
}

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')[1]
        ?.textContent?.replace(/^(2D|3D)/, ''),
    )

describe('poiTableRows', () => {
  it('sorts 100,000 POIs by name in natural order, stable, and filters them', () => {
    const entries = Array.from(
      { length: 100_000 },
      (_, index) =>
        ({
          id: `p${index}`,
          name: `POI ${99_999 - index}`,
          templateId: index % 2 ? 't1' : 't2',
          devicecode: '',
          heading: 0,
          floorId: null,
        }) as unknown as PoiEntry,
    )
    const templateOf = (id: string) => (id === 't1' ? camera : pump)
    const sorted = poiTableRows(entries, templateOf, emptyPoiTableFilter, {
      key: 'name',
      direction: 'asc',
    })
    expect(sorted[0]?.name).toBe('POI 0')
    expect(sorted[10]?.name).toBe('POI 10')
    const threeD = poiTableRows(
      entries,
      templateOf,
      { ...emptyPoiTableFilter, kind: '3D' },
      { key: 'name', direction: 'desc' },
    )
    expect(threeD).toHaveLength(50_000)
    expect(threeD[0]?.name).toBe('POI 99999')
  })
})

describe('PoiTable', () => {
  it('sorts by a column both ways', async () => {
    await setUp()
    expect(names()).toEqual(['Cam 9', 'Cam 10', 'Pump A'])
    await userEvent.click(screen.getByRole('button', { name: /^Name/ }))
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe(
      'descending',
    )
    expect(names()).toEqual(['Pump A', 'Cam 10', 'Cam 9'])
    await userEvent.click(screen.getByRole('button', { name: /^Heading/ }))
    expect(names()).toEqual(['Pump A', 'Cam 9', 'Cam 10'])
  })

  it('filters by text, template, kind and device code', async () => {
    await setUp()
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter' }), 'c10')
    await waitFor(() => expect(names()).toEqual(['Cam 10']))
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Filter' }))
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), '3D')
    await waitFor(() => expect(names()).toEqual(['Pump A']))
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), '')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Device code' }), 'none')
    await waitFor(() => expect(names()).toEqual(['Cam 9']))
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Device code' }), '')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Template' }), 't1')
    await waitFor(() => expect(names()).toEqual(['Cam 9', 'Cam 10']))
  })

  it('selects all shown POIs (highlighted in the scene) and edits them in one call', async () => {
    const { server, store, recorder } = await setUp()
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Template' }), 't1')
    await waitFor(() => expect(names()).toHaveLength(2))
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all shown POIs' }))
    expect([...store.state.selectedIds].sort()).toEqual(['a', 'b'])
    expect(recorder.commands.filter((c) => c.name === 'selectPois').at(-1)?.args).toHaveLength(2)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit selected' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 POIs' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Modify' }))
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Fill in at least one field to change.',
    )
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Heading (°)' }), '30')
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Custom property name' }),
      'zone',
    )
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Custom property value' }),
      'North',
    )
    await userEvent.click(within(dialog).getByRole('button', { name: 'Modify' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const updates = server.calls.filter((call) => call.name === 'updataPoiList')
    expect(updates).toHaveLength(1)
    for (const id of ['a', 'b']) {
      expect(server.pois.get(id)?.heading).toBe(30)
      expect(
        server.pois.get(id)?.customs.find((c) => c.property_column === 'zone')?.column_value,
      ).toBe('North')
    }
    expect(server.pois.get('c')?.heading).toBe(-45)
  })

  it('deletes the selected POIs after confirming, in one call', async () => {
    const { server } = await setUp()
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Cam 9' }))
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Pump A' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Delete selected' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog.textContent).toContain('Delete 2 POIs?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(server.pois.size).toBe(1))
    expect(server.calls.filter((call) => call.name === 'deletePoiList')).toHaveLength(1)
    await waitFor(() => expect(names()).toEqual(['Cam 10']))
  })
})
