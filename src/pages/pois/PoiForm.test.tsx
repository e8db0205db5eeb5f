import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { createPoiStore, type PoiFrame } from '../../state/pois'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiForm, type PoiFormTarget } from './PoiForm'
import {
  createFakePoiServer,
  createFakeScreenServices,
  poiRecord,
  sceneTemplate,
} from './testing/fake-poi-server'

const camera = sceneTemplate('t1', 'Camera')
const sensor = sceneTemplate('t2', 'Smoke sensor')
const attributes = {
  t1: [{ property_column: 'brand', column_des: 'Brand', column_example: 'Hikvision' }],
  t2: [],
}

async function setUp(target: PoiFormTarget, frame: PoiFrame = 'city') {
  const server = createFakePoiServer(
    [camera, sensor],
    [
      poiRecord(
        {
          id: 'a',
          category_id: 't1',
          name: 'Gate camera',
          devicecode: 'CAM-1',
          customs: [
            {
              id: 'c1',
              poi_id: 'a',
              property_column: 'brand',
              column_des: 'Brand',
              column_value: 'Dahua',
            },
            {
              id: 'c2',
              poi_id: 'a',
              property_column: 'ip',
              column_des: 'IP',
              column_value: '10.0.0.1',
            },
          ],
        },
        camera,
      ),
      poiRecord({ id: 'b', category_id: 't2', name: 'Sensor', devicecode: 'SM-1' }, sensor),
    ],
    attributes,
  )
  const onError = vi.fn()
  const store = createPoiStore(server, { onError })
  await store.load('project-1', frame)
  const onClose = vi.fn()
  const onSaved = vi.fn()
  renderWithI18n(
    <PoiForm
      target={target}
      onClose={onClose}
      onSaved={onSaved}
      store={store}
      services={createFakeScreenServices(server, attributes)}
    />,
  )
  return { server, store, onClose, onSaved, onError }
}

async function chooseTemplate(name: string) {
  await userEvent.click(await screen.findByRole('combobox', { name: 'Template' }))
  await userEvent.click(await screen.findByRole('option', { name }))
}

describe('PoiForm: add', () => {
  it('asks for the POI category and a name before anything is sent', async () => {
    const { server } = await setUp({ mode: 'add', position: [121.6, 31.2, 0] })
    expect(await screen.findByRole('dialog', { name: 'Add POI' })).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(
      await screen.findByText('Select the POI category', { selector: '[role=alert]' }),
    ).toBeTruthy()
    expect(screen.getByText("Enter the POI's name.")).toBeTruthy()
    expect(server.calls.map((call) => call.name)).toEqual(['findProjectPoiDetail'])
  })

  it("creates the POI from the template, with its static attributes' values", async () => {
    const { server, onSaved, onClose } = await setUp({
      mode: 'add',
      position: [121.6, 31.2, 4],
      heading: 30,
    })
    await chooseTemplate('Camera')
    const name = screen.getByRole('textbox', { name: /Name/ }) as HTMLInputElement
    expect(name.value).toBe('Camera')
    await userEvent.clear(name)
    await userEvent.type(name, 'Lobby camera')
    const brand = (await screen.findByRole('textbox', {
      name: 'Brand (brand)',
    })) as HTMLInputElement
    expect(brand.value).toBe('Hikvision')
    await userEvent.clear(brand)
    await userEvent.type(brand, 'Axis')
    await userEvent.type(screen.getByRole('textbox', { name: /Device code/ }), 'CAM-9')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const created = [...server.pois.values()].find((poi) => poi.name === 'Lobby camera')
    expect(created).toMatchObject({
      category_id: 't1',
      x: 121.6,
      y: 31.2,
      z: 4,
      heading: 30,
      devicecode: 'CAM-9',
    })
    expect(created?.customs.map((custom) => [custom.property_column, custom.column_value])).toEqual(
      [['brand', 'Axis']],
    )
    expect(onSaved.mock.calls[0]?.[0]).toMatchObject({ id: created?.id, name: 'Lobby camera' })
  })

  it('refuses a building POI without a floor', async () => {
    const { server } = await setUp({ mode: 'add', position: [1, 2, 3], floorId: null }, 'building')
    await chooseTemplate('Smoke sensor')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Select the floor which the POI is placed.')).toBeTruthy()
    expect(server.calls.map((call) => call.name)).toEqual(['findProjectPoiDetail'])
  })

  it('stays open with the server refusal shown when the create is refused', async () => {
    const { server, onClose, onError } = await setUp({ mode: 'add', position: [1, 2, 3] })
    await chooseTemplate('Smoke sensor')
    server.refuseNext('poi.templateNotUsable', 'This template does not exist or is not yours.')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onError).toHaveBeenCalled())
    expect(onClose).not.toHaveBeenCalled()
    expect(screen.getByRole('dialog', { name: 'Add POI' })).toBeTruthy()
  })
})

describe('PoiForm: modify', () => {
  it('loads the POI with its custom properties and sends only what changed', async () => {
    const { server, onClose } = await setUp({ mode: 'modify', poiId: 'a' })
    expect(await screen.findByRole('dialog', { name: 'Modify POI' })).toBeTruthy()
    const name = (await screen.findByRole('textbox', { name: /Name/ })) as HTMLInputElement
    expect(name.value).toBe('Gate camera')
    const ip = screen.getByRole('textbox', { name: 'IP (ip)' }) as HTMLInputElement
    expect(ip.value).toBe('10.0.0.1')
    await userEvent.clear(ip)
    await userEvent.type(ip, '10.0.0.2')
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(server.calls.at(-1)).toMatchObject({
      name: 'updataPoi',
      body: { id: 'a', customs: [{ property_column: 'ip', column_value: '10.0.0.2' }] },
    })
    expect(
      server.pois.get('a')?.customs.find((custom) => custom.property_column === 'ip')?.column_value,
    ).toBe('10.0.0.2')
  })

  it("says when the device code is another POI's, before sending", async () => {
    const { server } = await setUp({ mode: 'modify', poiId: 'a' })
    const code = (await screen.findByRole('textbox', { name: /Device code/ })) as HTMLInputElement
    await userEvent.clear(code)
    await userEvent.type(code, 'SM-1')
    expect(screen.getByText('This device code is already given to Sensor.')).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: 'Modify' }))
    expect(server.calls.some((call) => call.name === 'updataPoi')).toBe(false)
  })
})
