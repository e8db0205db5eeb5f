import type { ModelInfoDatum } from '../../../contract/building'
import type { BuildingSceneDescription } from '../../../engine/api'

/**
 * Maps the server's `/web/model/findModelInfo` answer to the plain description `building.open`
 * takes, so the engine never talks to the /web/ API. Floors come bottom-up; a floor listing a
 * model the answer does not hold (deleted meanwhile) drops it rather than failing the scene.
 */
export function sceneDescriptionOf(
  projectId: string,
  projectName: string,
  info: ModelInfoDatum,
): BuildingSceneDescription {
  const modelIds = new Set(info.models.map((model) => model.id))
  const shellModelId =
    info.structure.shellModelId && modelIds.has(info.structure.shellModelId)
      ? info.structure.shellModelId
      : null
  const floors = [...info.structure.floors]
    .sort((a, b) => a.elevation - b.elevation)
    .map((floor) => ({
      id: floor.id,
      name: floor.name,
      elevationMeters: floor.elevation,
      modelIds: floor.modelIds.filter((id) => modelIds.has(id)),
    }))
  return {
    projectId,
    name: info.structure.name || projectName,
    shellModelId,
    floors,
    models: info.models.map((model) => ({
      id: model.id,
      name: model.name,
      role: model.id === shellModelId ? 'shell' : model.role,
      floorId: model.floor_id,
      url: model.url,
      sizeBytes: model.size_bytes,
    })),
  }
}
