import type { AddAreaDrawBody, AreaDraw, DrawKind, UpdateAreaDrawBody } from '../../contract/draw'
import { drawRoutes } from '../../contract/draw'
import { api } from './index'

export type { AreaDraw, DrawKind, DrawStyle } from '../../contract/draw'
export { defaultDrawFill, defaultDrawOutline } from '../../contract/draw'

/** `POST /web/areadraw/findall`: a project's drawings (of one kind when given). */
export async function findAreaDraws(projectId: string, kind?: DrawKind): Promise<AreaDraw[]> {
  const { datum } = await api.call(
    drawRoutes.areadrawFindAll,
    { project_id: projectId, ...(kind === undefined ? {} : { kind }) },
    { encoding: 'json' },
  )
  return datum
}

/** `POST /web/areadraw/add`: the server measures the area and length from the points. */
export async function addAreaDraw(body: AddAreaDrawBody): Promise<AreaDraw> {
  const { datum } = await api.call(drawRoutes.areadrawAdd, body, { encoding: 'json' })
  return datum
}

/** `POST /web/areadraw/update`. */
export async function updateAreaDraw(body: UpdateAreaDrawBody): Promise<AreaDraw> {
  const { datum } = await api.call(drawRoutes.areadrawUpdate, body, { encoding: 'json' })
  return datum
}

/** `POST /web/areadraw/del`. */
export async function deleteAreaDraw(id: string): Promise<void> {
  await api.call(drawRoutes.areadrawDel, { id }, { encoding: 'json' })
}
