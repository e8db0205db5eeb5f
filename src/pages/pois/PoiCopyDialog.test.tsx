import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { createPoiStore } from '../../state/pois'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiCopyDialog } from './PoiCopyDialog'
import {
  createFakePoiServer,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from './testing/fake-poi-server'

const camera = sceneTemplate('t1', 'Camera')

async function setUp() {
  const server = createFakePoiServer(
    [camera],
    [
      poiRecord(
        {
          id: 'a',
          category_id: 't1',
          name: 'Cam',
          x: 121.6,
          y: 31.2,
          z: 10,
          heading: 30,
          devicecode: 'CAM-1',
          customs: [
            {
              id: 'c1',
              poi_id: 'a',
              property_column: 'brand',
              column_des: 'Brand',
              column_value: 'Axis',
            },
          ],
        },
        camera,
      ),
    ],
    { t1: [{ property_column: 'brand', column_des: 'Brand', column_example: 'Default' }] },
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  const recorder = createRecordingScene('city')
  store.attachScene(recorder.scene)
  await store.load('project-1', 'city')
  const onClose = vi.fn()
  renderWithI18n(<PoiCopyDialog sourceIds={['a']} onClose={onClose} store={store} />)
  return { server, store, recorder, onClose }
}

const lastGhosts = (recorder: ReturnType<typeof createRecordingScene>) =>
  recorder.commands.filter((command) => command.name === 'setPoiGhosts').at(-1)?.args as
    | { position: number[] }[]
    | undefined

async function setNumber(name: string, value: string) {
  const field = screen.getByRole('spinbutton', { name })
  await userEvent.clear(field)
  await userEvent.type(field, `${value}{Enter}`)
}

describe('PoiCopyDialog', () => {
  it('copies one POI as a 4 × 3 × 2 multi-layer array with one creatPoiList, ghosts first', async () => {
    const { server, store, recorder, onClose } = await setUp()
    expect(await screen.findByRole('dialog', { name: 'POI copy' })).toBeTruthy()
    expect(lastGhosts(recorder)).toHaveLength(1)
    await userEvent.click(screen.getByRole('radio', { name: 'Multi-layer array' }))
    await setNumber('Rows', '3')
    await setNumber('Columns', '4')
    await setNumber('Layers', '2')
    await setNumber('Layer spacing', '5')
    expect(await screen.findByText('Creates 23 POIs (previewed in the scene).')).toBeTruthy()
    await waitFor(() => expect(lastGhosts(recorder)).toHaveLength(23))
    expect(Math.max(...(lastGhosts(recorder) ?? []).map((ghost) => ghost.position[2] ?? 0))).toBe(
      15,
    )

    await userEvent.click(screen.getByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const creates = server.calls.filter((call) => call.name === 'creatPoiList')
    expect(creates).toHaveLength(1)
    expect(creates[0]?.body).toMatchObject({ isCopyProperties: true })
    expect(server.pois.size).toBe(24)
    expect(store.state.count).toBe(24)
    const copy = [...server.pois.values()].find((poi) => poi.name === 'Cam-1')
    expect(copy).toMatchObject({ heading: 30, devicecode: '' })
    expect(copy?.customs[0]?.column_value).toBe('Axis')
  })

  it('leaves the custom properties behind when asked', async () => {
    const { server, onClose } = await setUp()
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Copy custom properties' }))
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(server.calls.at(-1)?.body).toMatchObject({ isCopyProperties: false })
    const copy = [...server.pois.values()].find((poi) => poi.name === 'Cam-1')
    expect(copy?.customs[0]?.column_value).toBe('Default')
  })

  it('refuses a layout that makes too many copies', async () => {
    const { server } = await setUp()
    await userEvent.click(await screen.findByRole('radio', { name: 'Multi-layer array' }))
    await setNumber('Rows', '100')
    await setNumber('Columns', '100')
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Copy' }) as HTMLButtonElement).disabled).toBe(true)
    expect(server.calls.some((call) => call.name === 'creatPoiList')).toBe(false)
  })
})
