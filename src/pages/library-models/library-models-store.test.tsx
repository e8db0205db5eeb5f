import { act, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createInProcessWorker } from '../../../engine/testing/in-process-worker'
import { createTestEngine } from '../../../engine/testing/test-engine'
import type { CityModel } from '../../api/city-models'
import { type Engine, EngineProvider } from '../../engine-bridge'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { libraryModelsState, useLibraryModels } from './library-models-store'

/** A glTF with one empty scene: it loads in happy-dom (the place is what matters here). */
const emptyGltf = `data:model/gltf+json;base64,${btoa(
  JSON.stringify({ asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [] }] }),
)}`

const cube: CityModel = {
  id: 'model-1',
  project_id: 'project-1',
  model_name: 'Cube',
  file_name: 'Cube.glb',
  format: 'glb',
  url: emptyGltf,
  size_bytes: 100,
  animation_count: 0,
  lng: 0,
  lat: 0,
  height: 0,
  x: 2,
  y: 0,
  z: -3,
  heading: 0,
  scale: 1,
  animation_clip: 0,
  animation_speed: 1,
  animation_loop: true,
  animation_autoplay: false,
  created_at: '2026-11-27T00:00:00.000Z',
  updated_at: '2026-11-27T00:00:00.000Z',
}

vi.mock('../../api/city-models', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/city-models')>()),
  findCityModels: vi.fn(async () => [cube]),
}))

const house = {
  projectId: 'project-1',
  name: 'House',
  shellModelId: null,
  floors: [],
  models: [],
}

function BuildingLibrary() {
  useLibraryModels('building', 'project-1')
  return null
}

let engine: Engine

beforeEach(() => {
  engine = createTestEngine({ building: { createBvhWorker: () => createInProcessWorker({}) } })
})

afterEach(() => {
  engine.dispose()
  libraryModelsState.models = []
})

const placedModels = () =>
  engine.getSnapshot().building.libraryModels.map(({ id, position }) => ({ id, position }))

describe('useLibraryModels: the library models of an open building', () => {
  it('hands them over again when the building is reopened within one frame (an upload reopens it)', async () => {
    renderWithI18n(
      <EngineProvider engine={engine}>
        <BuildingLibrary />
      </EngineProvider>,
    )
    await act(() => engine.run('building.open', { description: house }))
    await waitFor(() => expect(placedModels()).toEqual([{ id: 'model-1', position: [2, 0, -3] }]))
    const firstOpening = engine.getSnapshot().building.openRevision

    // what the editor does after an upload: open the same building again, no close between
    const shownClosed: boolean[] = []
    const stopWatching = engine.on('snapshot.changed', (snapshot) => {
      if (!snapshot.building.isOpen) shownClosed.push(true)
    })
    await act(() => engine.run('building.open', { description: house }))
    await waitFor(() =>
      expect(engine.getSnapshot().building.openRevision).toBeGreaterThan(firstOpening),
    )
    stopWatching()
    expect(shownClosed).toEqual([])
    // the close dropped them in the engine; the opening got them again
    await waitFor(() => expect(placedModels()).toEqual([{ id: 'model-1', position: [2, 0, -3] }]))
  })
})
