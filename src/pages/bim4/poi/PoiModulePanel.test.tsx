import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CreatePoiListItem } from '../../../api/pois'
import { createPoiStore } from '../../../state/pois'
import { ConfirmHost, cancelAllConfirms } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import {
  createFakePoiServer,
  createFakeScreenServices,
  createRecordingScene,
  type FakePoiServer,
  poiRecord,
  sceneTemplate,
} from '../../pois/testing/fake-poi-server'
import { resetPoiEditing } from './poi-editing'
import { PoiModulePanel } from './PoiModulePanel'

afterEach(() => {
  act(() => cancelAllConfirms())
  resetPoiEditing()
})

const camera = sceneTemplate('t1', 'Camera')

/**
 * Batch add as the server does it, over the fake server: the CSV's header keys name the fields
 * (name, x, y, z, floor_id); a row without a floor is refused as the building refuses it.
 */
function batchFromCsv(server: FakePoiServer) {
  return vi.fn(
    async (input: { projectId: string; templateId: string; file: Blob; isDryRun: boolean }) => {
      const [header = '', ...lines] = (await input.file.text()).trim().split(/\r?\n/)
      const keys = header.split(',')
      const items: CreatePoiListItem[] = lines.map((line) => {
        const cells = Object.fromEntries(line.split(',').map((cell, at) => [keys[at], cell]))
        if (!cells.floor_id) throw new Error('Select the floor which the POI is placed.')
        return {
          name: cells.name ?? '',
          category_id: input.templateId,
          x: Number(cells.x),
          y: Number(cells.y),
          z: Number(cells.z),
          floor_id: cells.floor_id,
        }
      })
      if (input.isDryRun) return { count: items.length, isDryRun: true, ids: [] }
      const answer = await server.createPoiList(input.projectId, items, false)
      return { count: answer.count, isDryRun: false, ids: answer.list.map((poi) => poi.id) }
    },
  )
}

async function setUp() {
  const server = createFakePoiServer(
    [camera],
    [
      poiRecord(
        { id: 'a', category_id: 't1', name: 'Gate', x: 1, y: 0, z: 1, floor_id: 'F1' },
        camera,
      ),
      poiRecord(
        { id: 'b', category_id: 't1', name: 'Door', x: 2, y: 0, z: 1, floor_id: 'F1' },
        camera,
      ),
      poiRecord(
        { id: 'c', category_id: 't1', name: 'Lift', x: 3, y: 3, z: 1, floor_id: 'F2', heading: 45 },
        camera,
      ),
    ],
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  const recorder = createRecordingScene('building')
  store.attachScene(recorder.scene)
  await store.load('project-1', 'building')
  const services = { ...createFakeScreenServices(server), batchCreatePois: batchFromCsv(server) }
  renderWithI18n(
    <>
      <PoiModulePanel store={store} services={services} />
      <ConfirmHost />
    </>,
  )
  return { server, store, recorder, services }
}

describe('PoiModulePanel (the building editor’s POI module)', () => {
  it('bulk-edits POIs chosen in the multi-function table in one call, and the scene follows', async () => {
    const { server, store, recorder } = await setUp()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Table' }))
    const table = screen.getByRole('region', { name: 'POI multi-function table' })
    // the building's table has the floor column
    expect(within(table).getByRole('button', { name: 'Floor' })).toBeTruthy()
    await user.click(within(table).getByRole('checkbox', { name: 'Select Gate' }))
    await user.click(within(table).getByRole('checkbox', { name: 'Select Door' }))
    expect([...store.state.selectedIds].sort()).toEqual(['a', 'b'])
    await user.click(within(table).getByRole('button', { name: 'Edit selected' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 POIs' })
    await user.type(within(dialog).getByRole('textbox', { name: 'Heading (°)' }), '90')
    await user.click(within(dialog).getByRole('button', { name: 'Modify' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(server.calls.filter((call) => call.name === 'updataPoiList')).toHaveLength(1)
    expect(server.pois.get('a')?.heading).toBe(90)
    expect(server.pois.get('b')?.heading).toBe(90)
    expect(server.pois.get('c')?.heading).toBe(45)
    const drawn = recorder.commands
      .filter((command) => command.name === 'upsertPois')
      .flatMap((command) => command.args as { id: string; heading: number }[])
    expect(
      drawn
        .filter((poi) => poi.heading === 90)
        .map((poi) => poi.id)
        .sort(),
    ).toEqual(['a', 'b'])
    await waitFor(() => expect(within(table).getAllByText('90°')).toHaveLength(2))
  })

  it('batch-adds 200 POIs on floors from a CSV, checked first, then lists and draws them', async () => {
    const { server, store, recorder, services } = await setUp()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Batch add POI' }))
    const dialog = await screen.findByRole('dialog', { name: 'Batch add POI' })
    await user.click(within(dialog).getByRole('combobox', { name: 'Template' }))
    await user.click(await screen.findByRole('option', { name: 'Camera' }))
    const rows = Array.from(
      { length: 200 },
      (_, index) =>
        `Sensor ${index + 1},${index % 20},${index < 100 ? 0 : 3},${Math.floor(index / 20)},${index < 100 ? 'F1' : 'F2'}`,
    )
    const csv = new File([`name,x,y,z,floor_id\n${rows.join('\n')}\n`], 'sensors.csv', {
      type: 'text/csv',
    })
    await user.upload(within(dialog).getByLabelText('Filled batch file (.xlsx or .csv)'), csv)
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }))
    expect(
      await within(dialog).findByText('All rows are fine: 200 POIs will be added.'),
    ).toBeTruthy()
    expect(server.pois.size).toBe(3)
    await user.click(within(dialog).getByRole('button', { name: 'Add' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(services.batchCreatePois.mock.calls.map(([input]) => input.isDryRun)).toEqual([
      true,
      false,
    ])
    expect(services.batchCreatePois.mock.calls[1]?.[0]).toMatchObject({
      projectId: 'project-1',
      templateId: 't1',
    })
    await waitFor(() => expect(store.state.count).toBe(203))
    expect(screen.getByText('203 POIs')).toBeTruthy()
    expect(store.entries().filter((entry) => entry.floorId === 'F2')).toHaveLength(101)
    const lastSet = recorder.commands.filter((command) => command.name === 'setPois').at(-1)
    expect(lastSet?.args).toHaveLength(203)
  })
})
