import { act, waitFor } from '@testing-library/react'
import { useSnapshot } from 'valtio'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createInProcessWorker } from '../../../engine/testing/in-process-worker'
import { createTestEngine } from '../../../engine/testing/test-engine'
import { EngineProvider, sceneStore, useEngine, useSceneOpening } from '../../engine-bridge'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { materialStore } from './materials/material-store'
import { useMaterialOverrides } from './materials/use-material-overrides'

vi.mock('../../api/materials', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/materials')>()),
  findMaterials: vi.fn(async () => ({
    materials: [
      {
        id: 'paint',
        name: 'Green paint',
        base_color: '#00FF00',
        metalness: 0,
        roughness: 0.5,
        emissive: '#000000',
        base_color_map: '',
        normal_map: '',
        emissive_map: '',
        metal_rough_map: '',
        created_at: '',
        updated_at: '',
      },
    ],
    assignments: [
      {
        id: 'a1',
        project_id: 'project-1',
        model_id: 'wall',
        mesh_name: 'Wall',
        material_id: 'paint',
      },
    ],
  })),
}))

/** The editor's material overrides, wired as Bim4Page wires them (and the POIs, statuses). */
function BuildingContents() {
  const { building } = useSnapshot(sceneStore)
  const openedEngine = useSceneOpening(useEngine(), building.isOpen ? building.openRevision : 0)
  useMaterialOverrides(openedEngine, building.isOpen, 'project-1')
  return null
}

const house = { projectId: 'project-1', name: 'House', shellModelId: null, floors: [], models: [] }

afterEach(() => {
  materialStore.materials = []
  materialStore.assignments = []
  materialStore.isLoaded = false
})

describe('the building editor’s scene contents', () => {
  it('hands the material overrides over again when an upload reopens the building', async () => {
    const engine = createTestEngine({
      building: { createBvhWorker: () => createInProcessWorker({}) },
    })
    renderWithI18n(
      <EngineProvider engine={engine}>
        <BuildingContents />
      </EngineProvider>,
    )
    const building = () => engine.getSnapshot().building
    await act(() => engine.run('building.open', { description: house }))
    await waitFor(() => expect(building().materials.overrideCount).toBe(1))
    const firstOpening = building().openRevision

    // what the editor does after an upload: open the same building again, no close between
    await act(() => engine.run('building.open', { description: house }))
    await waitFor(() => expect(building().openRevision).toBeGreaterThan(firstOpening))
    // the close dropped them in the engine; this opening got them again
    await waitFor(() => expect(building().materials.overrideCount).toBe(1))
    engine.dispose()
  })
})
