import {
  type CityModel,
  cityModelRoutes,
  type UpdateCityModelBody,
} from '../../contract/city-models'
import { api } from './index'

export type { CityModel, UpdateCityModelBody } from '../../contract/city-models'

/**
 * Where a library model stands: `lng`, `lat` and `height` in a city project, `x`, `y`, `z`
 * (scene metres, y up) in a building project.
 */
export type ModelPlaceFields = Partial<Record<'lng' | 'lat' | 'height' | 'x' | 'y' | 'z', number>>

/** `POST /web/cityModel/findAll`: a project's library models, oldest first. */
export async function findCityModels(projectId: string): Promise<CityModel[]> {
  const { datum } = await api.call(
    cityModelRoutes.findCityModels,
    { project_id: projectId },
    { encoding: 'json' },
  )
  return datum
}

/**
 * `POST /web/cityModel/upload`: one `.glb`/`.sbm`, or a `.gltf` with its `.bin` and images,
 * placed at `place` (where the camera looks until it is placed by a click).
 */
export async function uploadCityModel(
  projectId: string,
  files: readonly File[],
  place: ModelPlaceFields,
): Promise<CityModel> {
  const form = new FormData()
  form.append('project_id', projectId)
  for (const [field, value] of Object.entries(place)) form.append(field, String(value))
  for (const file of files) form.append('file', file, file.name)
  const { datum } = await api.upload(cityModelRoutes.uploadCityModel, form)
  return datum
}

/** `POST /web/cityModel/update`: a new name, place, heading, scale or animation setting. */
export async function updateCityModel(body: UpdateCityModelBody): Promise<CityModel> {
  const { datum } = await api.call(cityModelRoutes.updateCityModel, body, { encoding: 'json' })
  return datum
}

/** `POST /web/cityModel/delete`. */
export async function deleteCityModel(id: string): Promise<void> {
  await api.call(cityModelRoutes.deleteCityModel, { id }, { encoding: 'json' })
}
