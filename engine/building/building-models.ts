import type { SbmThreeModel } from '../../workers/sbm/sbm-three'
import type {
  BuildingModelDescription,
  BuildingModelState,
  BuildingSceneDescription,
  ModelLoadErrorCode,
  ModelLoadState,
} from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import type { MaterialDefaults } from './material-opacity'

/** One model of an open building: its description, load state, switch and three.js objects. */
export interface ModelEntry {
  description: BuildingModelDescription
  floorId: string | null
  loadState: ModelLoadState
  errorMessage: string | null
  errorCode: ModelLoadErrorCode | null
  triangleCount: number
  hasStoredBvh: boolean
  isVisible: boolean
  three: SbmThreeModel | null
  /** The materials' own transparency, restored when the shell becomes opaque again. */
  materialDefaults: MaterialDefaults[]
}

/**
 * The entries of a building's models, all loading, by id. A model's floor is its own, else the
 * floor whose model list names it. A model listed twice is refused.
 */
export function createModelEntries(description: BuildingSceneDescription): Map<string, ModelEntry> {
  const floorOfModel = new Map<string, string>()
  for (const floor of description.floors) {
    for (const modelId of floor.modelIds) floorOfModel.set(modelId, floor.id)
  }
  const models = new Map<string, ModelEntry>()
  for (const model of description.models) {
    if (models.has(model.id)) {
      throw new EngineError('engine.invalidArgument', `Model '${model.id}' is listed twice.`)
    }
    models.set(model.id, {
      description: model,
      floorId: model.floorId ?? floorOfModel.get(model.id) ?? null,
      loadState: 'loading',
      errorMessage: null,
      errorCode: null,
      triangleCount: 0,
      hasStoredBvh: false,
      isVisible: true,
      three: null,
      materialDefaults: [],
    })
  }
  return models
}

/** A model's part of the snapshot; `isShown` comes from the floor and shell switches. */
export function modelState(entry: ModelEntry, isShown: boolean): BuildingModelState {
  return {
    id: entry.description.id,
    name: entry.description.name,
    role: entry.description.role,
    floorId: entry.floorId,
    loadState: entry.loadState,
    errorMessage: entry.errorMessage,
    errorCode: entry.errorCode,
    triangleCount: entry.triangleCount,
    hasStoredBvh: entry.hasStoredBvh,
    isVisible: entry.isVisible,
    isShown,
  }
}
