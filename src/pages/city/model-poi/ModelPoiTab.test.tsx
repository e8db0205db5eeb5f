import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { GisModel } from '../../../api/city'
import type { CopyModelBody, CopyModelDatum } from '../../../api/model-copy'
import type { ModelPoiItem, PoiDetail } from '../../../api/pois'
import { ApiError } from '../../../api/client'
import { Engine, EngineProvider, sceneStore } from '../../../engine-bridge'
import { createPoiStore } from '../../../state/pois'
import { cancelAllConfirms, UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import {
  createFakePoiServer,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from '../../pois/testing/fake-poi-server'
import { CityProjectProvider } from '../city-context'
import { createCityProjectStore } from '../city-project-store'
import { CityServicesProvider } from '../city-services'
import { createMemoryCityServer } from '../testing/memory-city-server'
import type { ModelPoiServices } from './model-poi-services'
import { ModelPoiTab } from './ModelPoiTab'

const camera = sceneTemplate('t1', 'Camera', { iconpath: '/web/files/camera.png' })

const model = (id: string, modelname: string, featureId: number): GisModel => ({
  id,
  modelname,
  project_id: 'project-1',
  tileset_id: 'tiles-1',
  feature_ids: [featureId],
  properties: {},
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
})

/** An in-memory stand-in for the model-POI calls: links of POIs to models. */
function createFakeModelPoiServices(pois: PoiDetail[], links: Record<string, string[]>) {
  const calls: { name: string; body: unknown }[] = []
  let refusal: string | null = null
  const modelsOf = (poiId: string) =>
    Object.entries(links)
      .filter(([, ids]) => ids.includes(poiId))
      .map(([modelId]) => modelId)
  const services: ModelPoiServices = {
    async selectPoisByModel(modelId) {
      calls.push({ name: 'selectPoisBymodel', body: modelId })
      return (links[modelId] ?? []).map((id): ModelPoiItem => {
        const poi = pois.find((item) => item.id === id)!
        return { ...poi, modelList: modelsOf(id), icon_path: poi.iconpath }
      })
    },
    async linkPoisToModel(modelId, ids) {
      calls.push({ name: 'addPoi', body: { modelId, ids } })
      links[modelId] = [...(links[modelId] ?? []), ...ids]
      return ids.length
    },
    async findModelsByPoi(poiId) {
      calls.push({ name: 'findModelByPoi', body: poiId })
      return modelsOf(poiId).map((id) => ({ id, modelname: `Model ${id}`, kind: 'monomer' }))
    },
    async setPoiModels(poiId, modelIds) {
      calls.push({ name: 'updataPoi', body: { poiId, modelIds } })
      for (const [modelId, ids] of Object.entries(links)) {
        links[modelId] = modelIds.includes(modelId)
          ? [...new Set([...ids, poiId])]
          : ids.filter((id) => id !== poiId)
      }
    },
    async copyModel(body: CopyModelBody): Promise<CopyModelDatum> {
      calls.push({ name: 'copyModel', body })
      if (refusal) {
        const messageId = refusal
        refusal = null
        throw new ApiError({
          reason: 'server',
          envelope: { code: '400', message: 'Refused', messageId, datum: null },
          httpStatus: 400,
          fallbackMessage: 'Refused',
        })
      }
      return {
        models: body.copies.map((copy, index) => model(`copy-${index}`, copy.modelname, 99)),
        poiCount: body.copies.length * (links[body.model_id]?.length ?? 0),
      }
    },
  }
  return {
    services,
    calls,
    refuseNext(messageId: string) {
      refusal = messageId
    },
  }
}

let engine: Engine

beforeEach(() => {
  engine = new Engine()
})

afterEach(() => {
  cancelAllConfirms()
  engine.dispose()
  sceneStore.city = { ...sceneStore.city, selectedFeature: null }
})

async function setUp() {
  const pois = [
    poiRecord({ id: 'a', category_id: 't1', name: 'Gate camera', x: 121.6, y: 31.2 }, camera),
    poiRecord({ id: 'b', category_id: 't1', name: 'Lobby camera', x: 121.6, y: 31.2001 }, camera),
    poiRecord({ id: 'c', category_id: 't1', name: 'Roof camera', x: 121.61, y: 31.2 }, camera),
  ]
  const poiServer = createFakePoiServer([camera], pois)
  const store = createPoiStore(poiServer, { onError: vi.fn() })
  const recorder = createRecordingScene('city')
  store.attachScene(recorder.scene)
  await store.load('project-1', 'city')
  const links: Record<string, string[]> = { 'model-a': ['a', 'b'], 'model-b': [] }
  const fake = createFakeModelPoiServices(pois, links)
  const city = createMemoryCityServer('project-1')
  const cityStore = createCityProjectStore()
  cityStore.projectId = 'project-1'
  cityStore.project = await city.services.findProjectInfo('project-1')
  cityStore.gisModels = [model('model-a', 'Tower A', 7), model('model-b', 'Tower B', 8)]
  cityStore.loadState = 'ready'
  renderWithI18n(
    <UiRoot>
      <EngineProvider engine={engine}>
        <CityServicesProvider services={city.services}>
          <CityProjectProvider store={cityStore}>
            <ModelPoiTab services={fake.services} store={store} />
          </CityProjectProvider>
        </CityServicesProvider>
      </EngineProvider>
    </UiRoot>,
  )
  return { ...fake, store, recorder, cityStore, links }
}

const itemNames = () =>
  within(screen.getByTestId('model-poi-list'))
    .getAllByRole('button', { name: /^Fly to/ })
    .map((button) => button.getAttribute('aria-label'))

describe('model POI page', () => {
  it('lists the POIs of a model chosen in the list or by clicking its building', async () => {
    const { store, recorder } = await setUp()
    await userEvent.click(screen.getByRole('button', { name: 'Tower A' }))
    await waitFor(() => expect(itemNames()).toEqual(['Fly to Gate camera', 'Fly to Lobby camera']))
    // a model-POI item: icon, template name, name
    const list = screen.getByTestId('model-poi-list')
    expect(within(list).getAllByText('Camera')).toHaveLength(2)
    expect(list.querySelector('img')?.getAttribute('src')).toBe('/web/files/camera.png')

    // a building clicked on the map chooses its model
    act(() => {
      // as connectEngine mirrors the engine's snapshot after a pick
      sceneStore.city = {
        ...sceneStore.city,
        selectedFeature: { tilesetId: 'tiles-1', tileId: 'tile-0', featureId: 8, properties: {} },
      }
    })
    expect(await screen.findByText('No POI is attached to this model.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Tower B' }).getAttribute('aria-current')).toBe(
      'true',
    )

    // jumping to a POI selects it and flies there
    await userEvent.click(screen.getByRole('button', { name: 'Tower A' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Fly to Lobby camera' }))
    expect(store.state.selectedIds).toEqual(['b'])
    expect(recorder.commands.some((command) => command.name === 'flyToPoi')).toBe(true)
  })

  it('shows the models of the POI selected on the map and moves to one', async () => {
    const { store } = await setUp()
    act(() => store.select(['a']))
    const section = await screen.findByRole('region', { name: 'Models of Gate camera' })
    await userEvent.click(await within(section).findByRole('button', { name: 'Model model-a' }))
    await waitFor(() => expect(itemNames()).toContain('Fly to Gate camera'))
  })

  it('adds a POI of the project to the model and removes one after confirming', async () => {
    const { calls, links } = await setUp()
    await userEvent.click(screen.getByRole('button', { name: 'Tower A' }))
    await waitFor(() => expect(itemNames()).toHaveLength(2))
    // the add list offers only POIs not attached yet, narrowed by search
    await userEvent.type(screen.getByRole('textbox', { name: 'Add a POI to the model' }), 'roof')
    const toAdd = screen.getByRole('list', { name: 'POIs to add' })
    expect(
      within(toAdd)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Roof cameraAdd'])
    await userEvent.click(within(toAdd).getByRole('button', { name: 'Add Roof camera' }))
    await waitFor(() => expect(itemNames()).toContain('Fly to Roof camera'))
    expect(calls.find((call) => call.name === 'addPoi')?.body).toEqual({
      modelId: 'model-a',
      ids: ['c'],
    })

    await userEvent.click(screen.getByRole('button', { name: 'Remove Gate camera from the model' }))
    let dialog = await screen.findByRole('alertdialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(links['model-a']).toContain('a')
    await userEvent.click(screen.getByRole('button', { name: 'Remove Gate camera from the model' }))
    dialog = await screen.findByRole('alertdialog')
    expect(dialog.textContent).toContain('The POI itself stays in the project.')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(itemNames()).toEqual(['Fly to Lobby camera', 'Fly to Roof camera']))
    expect(calls.find((call) => call.name === 'updataPoi')?.body).toEqual({
      poiId: 'a',
      modelIds: [],
    })
  })
})

describe('model copy popup', () => {
  async function openCopy() {
    const setup = await setUp()
    await userEvent.click(screen.getByRole('button', { name: 'Tower A' }))
    await waitFor(() => expect(itemNames()).toHaveLength(2))
    await userEvent.click(screen.getByRole('button', { name: 'Model copy…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Model copy' })
    return { ...setup, dialog }
  }

  const setNumber = async (dialog: HTMLElement, name: string, value: string) => {
    const field = within(dialog).getByRole('spinbutton', { name })
    await userEvent.clear(field)
    await userEvent.type(field, `${value}{Enter}`)
  }

  const lastGhosts = (recorder: ReturnType<typeof createRecordingScene>) =>
    recorder.commands.filter((command) => command.name === 'setPoiGhosts').at(-1)?.args as
      | unknown[]
      | undefined

  it('copies the model with its POIs in a row with one call, previewing the POIs', async () => {
    const { dialog, calls, recorder, cityStore } = await openCopy()
    await setNumber(dialog, 'Count', '3')
    await setNumber(dialog, 'Spacing', '20')
    expect(
      await within(dialog).findByText('Creates 3 models and 6 POIs (previewed in the scene).'),
    ).toBeTruthy()
    await waitFor(() => expect(lastGhosts(recorder)).toHaveLength(6))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Model copy' })).toBeNull())
    const copies = calls.filter((call) => call.name === 'copyModel')
    expect(copies).toHaveLength(1)
    expect(copies[0]!.body).toEqual({
      model_id: 'model-a',
      isCopyProperties: true,
      copies: [
        { modelname: 'Tower A-1', east: 20, north: 0, up: 0 },
        { modelname: 'Tower A-2', east: 40, north: 0, up: 0 },
        { modelname: 'Tower A-3', east: 60, north: 0, up: 0 },
      ],
    })
    expect(cityStore.gisModels.map((item) => item.modelname)).toEqual([
      'Tower A',
      'Tower B',
      'Tower A-1',
      'Tower A-2',
      'Tower A-3',
    ])
    expect(await screen.findByRole('button', { name: 'Tower A-3' })).toBeTruthy()
    expect(lastGhosts(recorder)).toEqual([])
  })

  it('keeps the popup open when the server refuses, and refuses too many copies', async () => {
    const { dialog, calls, refuseNext, cityStore } = await openCopy()
    refuseNext('modelCopy.outOfRange')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(calls.some((call) => call.name === 'copyModel')).toBe(true))
    expect(screen.getByRole('dialog', { name: 'Model copy' })).toBeTruthy()
    expect(cityStore.gisModels).toHaveLength(2)

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Array' }))
    await setNumber(dialog, 'Rows', '11')
    await setNumber(dialog, 'Columns', '10')
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'At most 100 copies of a model at a time.',
    )
    expect(
      (within(dialog).getByRole('button', { name: 'Copy' }) as HTMLButtonElement).disabled,
    ).toBe(true)
    // a copy needs a name
    await setNumber(dialog, 'Rows', '2')
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Name of the copies/ }))
    expect(await within(dialog).findByText('Give the copies a name.')).toBeTruthy()
    expect(
      (within(dialog).getByRole('button', { name: 'Copy' }) as HTMLButtonElement).disabled,
    ).toBe(true)
  })
})
