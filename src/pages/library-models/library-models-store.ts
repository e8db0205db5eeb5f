import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useEffect, useRef } from 'react'
import { proxy, useSnapshot } from 'valtio'
import type { ModelAnimationSettings, SceneLibraryModel } from '../../../engine/api'
import * as libraryModelsApi from '../../api/city-models'
import type { CityModel, ModelPlaceFields } from '../../api/city-models'
import { reasonText } from '../../components/feedback/error-text'
import { type EngineHandle, sceneStore, useEngine } from '../../engine-bridge'
import { toast } from '../../ui'

/** The scene a library serves: the city's map or a building. */
export type LibraryScene = 'city' | 'building'

/** What a click on the sky while placing says. */
const nothingThereMessage = msg`Nothing is there to stand on. Click the ground or a model.`

/** A place in a scene: longitude°, latitude°, height m on the map; x, y, z metres in a building. */
type ScenePosition = readonly [number, number, number]

/**
 * The open project's model library (issue 21): glTF/GLB/SBM models a city places on the map and
 * a building in its scene, with how their animations play. The records, which one the library
 * tab is placing by a click in the scene, and which one the tabs show; the library and
 * animation tabs and the editor's click share it. One editor is open at a time, so one store
 * serves both; `scene` says which.
 */
export const libraryModelsState = proxy({
  scene: 'city' as LibraryScene,
  projectId: null as string | null,
  models: [] as CityModel[],
  /** The model the next click in the scene places, or null. */
  placingId: null as string | null,
  /** The model chosen in the tabs. */
  selectedId: null as string | null,
})

/**
 * Where a saved model stands: WGS84 (longitude, latitude, height) on the map, scene metres in a
 * building.
 */
export function scenePositionOf(model: CityModel, scene: LibraryScene): ScenePosition {
  return scene === 'city' ? [model.lng, model.lat, model.height] : [model.x, model.y, model.z]
}

/** The record fields a position of the scene is saved in. */
export function placeFieldsOf(scene: LibraryScene, position: ScenePosition): ModelPlaceFields {
  const [first, second, third] = position
  return scene === 'city'
    ? { lng: first, lat: second, height: third }
    : { x: first, y: second, z: third }
}

/** What the engine draws for a saved model. */
export function sceneModelOf(model: CityModel, scene: LibraryScene): SceneLibraryModel {
  return {
    id: model.id,
    url: model.url,
    position: scenePositionOf(model, scene),
    headingDegrees: model.heading,
    scale: model.scale,
  }
}

/** Puts a saved (or changed) record in the list, keeping the list's order. */
export function keepLibraryModel(model: CityModel): void {
  const index = libraryModelsState.models.findIndex((item) => item.id === model.id)
  if (index === -1) libraryModelsState.models.push(model)
  else libraryModelsState.models[index] = model
}

/** Saves a change of a model and keeps the answer (the engine follows the list). */
export async function saveLibraryModel(
  body: libraryModelsApi.UpdateCityModelBody,
): Promise<CityModel> {
  const saved = await libraryModelsApi.updateCityModel(body)
  keepLibraryModel(saved)
  return saved
}

/**
 * The surface under a point of the canvas: a tileset or the map in the city; a building model
 * or, beside the building, the ground under it. Null for the sky.
 */
function surfaceAt(engine: EngineHandle, scene: LibraryScene, point: { x: number; y: number }) {
  return scene === 'city'
    ? engine.run('city.surfacePointAtScreenPoint', point)
    : engine.run('building.surfacePointAtScreenPoint', { ...point, orGround: true })
}

/**
 * Places the model being placed where the scene was clicked and saves its new place. Does
 * nothing while no model is being placed; a click on the sky says so and keeps placing.
 */
export async function placeLibraryModelAt(
  engine: EngineHandle,
  point: { x: number; y: number },
): Promise<void> {
  const { placingId: id, scene } = libraryModelsState
  if (!id) return
  const surface = await surfaceAt(engine, scene, point).catch((error: unknown) => {
    toast.error(reasonText(error))
    return undefined
  })
  if (surface === null) toast.warning(i18n._(nothingThereMessage))
  if (!surface) return
  libraryModelsState.placingId = null
  try {
    await saveLibraryModel({ id, ...placeFieldsOf(scene, surface.position) })
  } catch (error) {
    toast.error(reasonText(error))
  }
}

/** Changes how a loaded model's animation plays, in the scene's half of the engine. */
export function runModelAnimation(
  engine: EngineHandle,
  scene: LibraryScene,
  args: { id: string } & Partial<ModelAnimationSettings>,
): Promise<undefined> {
  return scene === 'city'
    ? engine.run('city.setModelAnimation', args)
    : engine.run('building.setModelAnimation', args)
}

/**
 * Loads the project's library models and keeps the engine drawing them while its scene is open;
 * a model whose saved settings say so starts playing once it has loaded. Closing a scene drops
 * its models in the engine, so they are handed over again at every opening, also one that
 * replaced the open scene without a snapshot showing it closed (an upload reopens a building).
 */
export function useLibraryModels(scene: LibraryScene, projectId: string | null): void {
  const engine = useEngine()
  const { models } = useSnapshot(libraryModelsState)
  const shown = useSnapshot(sceneStore)[scene]
  /** This opening of the project's scene; 0 while it is not open. */
  const openRevision = shown.isOpen && shown.projectId === projectId ? shown.openRevision : 0
  const isOpen = openRevision !== 0
  /** Models whose saved animation settings were handed to the engine once they loaded. */
  const started = useRef(new Set<string>())

  useEffect(() => {
    libraryModelsState.scene = scene
    libraryModelsState.projectId = projectId
    libraryModelsState.models = []
    libraryModelsState.placingId = null
    libraryModelsState.selectedId = null
    started.current.clear()
    if (!projectId) return
    let isCurrent = true
    libraryModelsApi.findCityModels(projectId).then(
      (found) => {
        if (isCurrent) libraryModelsState.models = found
      },
      (error: unknown) => {
        if (isCurrent) toast.error(reasonText(error))
      },
    )
    return () => {
      isCurrent = false
    }
  }, [scene, projectId])

  // a new opening loads every model afresh: its saved settings apply again once it has loaded
  // biome-ignore lint/correctness/useExhaustiveDependencies: the opening is the trigger
  useEffect(() => {
    started.current.clear()
  }, [openRevision])

  useEffect(() => {
    if (openRevision === 0) return
    const drawn = { models: models.map((model) => sceneModelOf(model, scene)) }
    const sent =
      scene === 'city'
        ? engine.run('city.setLibraryModels', drawn)
        : engine.run('building.setLibraryModels', drawn)
    sent.catch((error: unknown) => toast.error(reasonText(error)))
  }, [engine, scene, openRevision, models])

  useEffect(() => {
    if (!isOpen) return
    for (const state of shown.libraryModels) {
      if (state.loadState !== 'success' || started.current.has(state.id)) continue
      started.current.add(state.id)
      const model = models.find((item) => item.id === state.id)
      if (!model || state.animation.clips.length === 0) continue
      runModelAnimation(engine, scene, {
        id: model.id,
        clipIndex: Math.min(model.animation_clip, state.animation.clips.length - 1),
        speed: model.animation_speed,
        isLooping: model.animation_loop,
        isPlaying: model.animation_autoplay,
      }).catch(() => {})
    }
  }, [engine, scene, isOpen, shown.libraryModels, models])
}
