import {
  type AddLocationMappingBody,
  type LocationAnchor,
  locationRoutes,
} from '../../contract/location'
import { api } from './index'

export type { AddLocationMappingBody, LocationAnchor } from '../../contract/location'

/** `POST /web/poi/getLocationMapping`: a model's anchor points ('' the building's own model). */
export async function findLocationAnchors(
  projectId: string,
  target: string,
): Promise<LocationAnchor[]> {
  const { datum } = await api.call(
    locationRoutes.getLocationMapping,
    { project_id: projectId, target },
    { encoding: 'json' },
  )
  return datum
}

/** `POST /web/poi/addLocationMapping`. */
export async function addLocationAnchor(body: AddLocationMappingBody): Promise<LocationAnchor> {
  const { datum } = await api.call(locationRoutes.addLocationMapping, body, { encoding: 'json' })
  return datum
}

/** `POST /web/poi/deleteLocationMapping`. */
export async function deleteLocationAnchor(id: string): Promise<void> {
  await api.call(locationRoutes.deleteLocationMapping, { id }, { encoding: 'json' })
}
