import type {
  CreatLocationPoiBody,
  FenceEvent,
  TrackedObject,
  TrackPosition,
} from '../../contract/tracking'
import { trackingRoutes } from '../../contract/tracking'
import { api } from './index'

export type {
  CreatLocationPoiBody,
  Fence,
  FenceEvent,
  TrackedObject,
  TrackPosition,
} from '../../contract/tracking'

const json = { encoding: 'json' } as const

/** `POST /web/fence/findall`: the ids of a project's areas that are electronic fences. */
export async function findFences(projectId: string): Promise<string[]> {
  const { datum } = await api.call(trackingRoutes.fenceFindAll, { project_id: projectId }, json)
  return datum.map((fence) => fence.draw_id)
}

/** `POST /web/fence/set`: makes a saved circle or polygon a fence, or no longer one. */
export async function setFence(drawId: string, isFence: boolean): Promise<void> {
  await api.call(trackingRoutes.fenceSet, { draw_id: drawId, is_fence: isFence }, json)
}

/** `POST /web/fence/events`: the newest enter and leave events, newest first. */
export async function findFenceEvents(projectId: string, limit = 50): Promise<FenceEvent[]> {
  const { datum } = await api.call(
    trackingRoutes.fenceEvents,
    { project_id: projectId, limit },
    json,
  )
  return datum
}

/** `POST /web/poi/selLocationPoi`: location POIs (positioned objects), last positions. */
export async function findTrackedObjects(projectId: string): Promise<TrackedObject[]> {
  const { datum } = await api.call(trackingRoutes.selLocationPoi, { project_id: projectId }, json)
  return datum
}

/** `POST /web/poi/creatLocationPoi`: the answer's token is shown once. */
export async function addTrackedObject(
  body: CreatLocationPoiBody,
): Promise<{ object: TrackedObject; token: string }> {
  const { datum } = await api.call(trackingRoutes.creatLocationPoi, body, json)
  return datum
}

/** `POST /web/poi/delLocationPoi`. */
export async function deleteTrackedObject(id: string): Promise<void> {
  await api.call(trackingRoutes.delLocationPoi, { id }, json)
}

/** `POST /web/tracked/track`: positions in a time range, oldest first. */
export async function findTrack(
  id: string,
  range: { from?: string; to?: string } = {},
): Promise<TrackPosition[]> {
  const { datum } = await api.call(trackingRoutes.trackedTrack, { id, ...range }, json)
  return datum
}
