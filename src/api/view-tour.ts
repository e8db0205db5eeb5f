import {
  type AddTourViewpointBody,
  type TourViewpointRecord,
  viewTourRoutes,
} from '../../contract/view-tour'
import { api } from './index'

export type { AddTourViewpointBody, TourViewpointRecord } from '../../contract/view-tour'

/** `POST /web/viewTour/findall`: a city project's viewpoints in tour order. */
export async function findTourViewpoints(projectId: string): Promise<TourViewpointRecord[]> {
  const { datum } = await api.call(
    viewTourRoutes.viewTourFindAll,
    { project_id: projectId },
    { encoding: 'json' },
  )
  return datum
}

/** `POST /web/viewTour/add`: appended at the end of the tour. */
export async function addTourViewpoint(body: AddTourViewpointBody): Promise<TourViewpointRecord> {
  const { datum } = await api.call(viewTourRoutes.viewTourAdd, body, { encoding: 'json' })
  return datum
}

/** `POST /web/viewTour/del`. */
export async function deleteTourViewpoint(id: string): Promise<void> {
  await api.call(viewTourRoutes.viewTourDel, { id }, { encoding: 'json' })
}
