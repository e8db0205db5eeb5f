import { type Capture, type CaptureCamera, visitRoutes } from '../../contract/visit'
import { api } from './index'

export type { Capture, CaptureCamera } from '../../contract/visit'

/** `POST /web/project/findCaptureById`: the project's captures in tour order. */
export async function listCaptures(projectId: string, signal?: AbortSignal): Promise<Capture[]> {
  const { datum } = await api.call(
    visitRoutes.findCaptureById,
    { project_id: projectId },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/project/addCapture`: saves a PNG of the scene with its camera, last in the tour. */
export async function addCapture(input: {
  projectId: string
  name: string
  camera: CaptureCamera
  png: Blob
  dwellSeconds?: number
}): Promise<Capture> {
  const form = new FormData()
  form.append('project_id', input.projectId)
  form.append('name', input.name)
  form.append('camera', JSON.stringify(input.camera))
  if (input.dwellSeconds !== undefined) form.append('dwell_seconds', String(input.dwellSeconds))
  form.append('file', input.png, 'capture.png')
  const { datum } = await api.upload(visitRoutes.addCapture, form)
  return datum
}

/** `POST /web/project/updateCapture`: a capture's new name or tour dwell (seconds). */
export async function updateCapture(input: {
  id: string
  name?: string
  dwellSeconds?: number
}): Promise<Capture> {
  const { datum } = await api.call(visitRoutes.updateCapture, {
    id: input.id,
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.dwellSeconds === undefined ? {} : { dwell_seconds: input.dwellSeconds }),
  })
  return datum
}

/** `POST /web/project/deleteCapture`: the captures left, in order. */
export async function deleteCapture(id: string): Promise<Capture[]> {
  const { datum } = await api.call(visitRoutes.deleteCapture, { id })
  return datum
}

/** `POST /web/project/updateCaptureSeq`: every capture id of the project in the new order. */
export async function reorderCaptures(
  projectId: string,
  ids: readonly string[],
): Promise<Capture[]> {
  const { datum } = await api.call(
    visitRoutes.updateCaptureSeq,
    { project_id: projectId, ids: [...ids] },
    { encoding: 'json' },
  )
  return datum
}

/** `POST /web/project/checkProjectToken`: whether the preview link still opens its project. */
export async function checkPreview(
  projectId: string,
  signal?: AbortSignal,
): Promise<{ project_id: string; name: string }> {
  const { datum } = await api.call(
    visitRoutes.checkProjectToken,
    { project_id: projectId },
    signal ? { signal } : {},
  )
  return datum
}
