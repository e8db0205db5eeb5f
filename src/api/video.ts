import { type Camera, videoRoutes } from '../../contract/video'
import { api } from './index'

export type { Camera, PlaySource } from '../../contract/video'

/** `POST /web/video/findCameras`: a project's cameras and how each is played. */
export async function findCameras(
  projectId: string,
  options: { projectToken?: string; signal?: AbortSignal } = {},
): Promise<Camera[]> {
  const { datum } = await api.call(
    videoRoutes.findCameras,
    {
      projectid: projectId,
      ...(options.projectToken === undefined ? {} : { project_token: options.projectToken }),
    },
    options.signal ? { signal: options.signal } : {},
  )
  return datum
}
