import { useEffect, useRef } from 'react'
import { proxy, useSnapshot } from 'valtio'
import type { SceneLibraryModel } from '../../../../engine/api'
import * as cityModelsApi from '../../../api/city-models'
import type { CityModel } from '../../../api/city-models'
import { reasonText } from '../../../components/feedback/error-text'
import { type EngineHandle, sceneStore, useEngine } from '../../../engine-bridge'
import { toast } from '../../../ui'

/**
 * The open city project's model library (issue 21 item 6): the saved records, which one the
 * library tab is placing by a map click, and which one the animation tab shows. The library and
 * animation tabs and the editor's map click share it.
 */
export const cityModelsState = proxy({
  projectId: null as string | null,
  models: [] as CityModel[],
  /** The model the next map click places, or null. */
  placingId: null as string | null,
  /** The model chosen in the tabs. */
  selectedId: null as string | null,
})

/** What the engine draws for a saved model. */
export function sceneModelOf(model: CityModel): SceneLibraryModel {
  return {
    id: model.id,
    url: model.url,
    position: [model.lng, model.lat, model.height],
    headingDegrees: model.heading,
    scale: model.scale,
  }
}

/** Puts a saved (or changed) record in the list, keeping the list's order. */
export function keepCityModel(model: CityModel): void {
  const index = cityModelsState.models.findIndex((item) => item.id === model.id)
  if (index === -1) cityModelsState.models.push(model)
  else cityModelsState.models[index] = model
}

/** Saves a change of a model and keeps the answer (the engine follows the list). */
export async function saveCityModel(body: cityModelsApi.UpdateCityModelBody): Promise<CityModel> {
  const saved = await cityModelsApi.updateCityModel(body)
  keepCityModel(saved)
  return saved
}

/**
 * Places the model being placed where the map was clicked (the surface there: a tileset's or
 * the ground) and saves its new place. Does nothing while no model is being placed.
 */
export async function placeCityModelAt(
  engine: EngineHandle,
  point: { x: number; y: number },
): Promise<void> {
  const id = cityModelsState.placingId
  if (!id) return
  const surface = await engine.run('city.surfacePointAtScreenPoint', point)
  if (!surface) return
  cityModelsState.placingId = null
  const [lng, lat, height] = surface.position
  try {
    await saveCityModel({ id, lng, lat, height })
  } catch (error) {
    toast.error(reasonText(error))
  }
}

/**
 * Loads the project's library models and keeps the engine drawing them while the city is open;
 * a model whose saved settings say so starts playing once it has loaded.
 */
export function useCityLibraryModels(projectId: string | null): void {
  const engine = useEngine()
  const { models } = useSnapshot(cityModelsState)
  const city = useSnapshot(sceneStore).city
  const isOpen = city.isOpen && city.projectId === projectId
  /** Models whose saved animation settings were handed to the engine once they loaded. */
  const started = useRef(new Set<string>())

  useEffect(() => {
    cityModelsState.projectId = projectId
    cityModelsState.models = []
    cityModelsState.placingId = null
    cityModelsState.selectedId = null
    started.current.clear()
    if (!projectId) return
    let isCurrent = true
    cityModelsApi.findCityModels(projectId).then(
      (found) => {
        if (isCurrent) cityModelsState.models = found
      },
      (error: unknown) => {
        if (isCurrent) toast.error(reasonText(error))
      },
    )
    return () => {
      isCurrent = false
    }
  }, [projectId])

  useEffect(() => {
    if (!isOpen) {
      started.current.clear()
      return
    }
    engine
      .run('city.setLibraryModels', { models: models.map((model) => sceneModelOf(model)) })
      .catch((error: unknown) => toast.error(reasonText(error)))
  }, [engine, isOpen, models])

  useEffect(() => {
    if (!isOpen) return
    for (const state of city.libraryModels) {
      if (state.loadState !== 'success' || started.current.has(state.id)) continue
      started.current.add(state.id)
      const model = models.find((item) => item.id === state.id)
      if (!model || state.animation.clips.length === 0) continue
      engine
        .run('city.setModelAnimation', {
          id: model.id,
          clipIndex: Math.min(model.animation_clip, state.animation.clips.length - 1),
          speed: model.animation_speed,
          isLooping: model.animation_loop,
          isPlaying: model.animation_autoplay,
        })
        .catch(() => {})
    }
  }, [engine, isOpen, city.libraryModels, models])
}
