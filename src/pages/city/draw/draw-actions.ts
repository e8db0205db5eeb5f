import type { DrawTypeNumber } from '../../../../engine/api'
import type { AreaDraw, DrawKind } from '../../../api/draw'
import type { EngineHandle } from '../../../engine-bridge'
import { toast } from '../../../ui'
import { errorMessage } from '../city-project-store'
import type { CityServices } from '../city-services'
import { drawStore } from './draw-store'

/** The draw types each tab offers: an area takes any, a path a polyline or inflection points. */
export const drawTypesOfKind: Record<DrawKind, readonly DrawTypeNumber[]> = {
  area: [1, 2, 3, 4, 5],
  path: [3, 5],
}

/**
 * Saves the shape just drawn (`snapshot.city.draw.pending`) under a name; the server measures
 * it again and its answer goes into the store (and so onto the map). Answers whether it saved.
 */
export async function savePendingDrawing(
  engine: EngineHandle,
  services: Pick<CityServices, 'addAreaDraw'>,
  input: {
    projectId: string
    kind: DrawKind
    name: string
    description: string
    style?: Partial<AreaDraw['style']>
    type: DrawTypeNumber
    points: readonly (readonly [number, number])[]
  },
): Promise<boolean> {
  try {
    const saved = await services.addAreaDraw({
      project_id: input.projectId,
      kind: input.kind,
      name: input.name,
      description: input.description,
      ...(input.style === undefined ? {} : { style: input.style }),
      type: input.type,
      points: input.points.map(([lng, lat]) => [lng, lat]),
    })
    drawStore.drawings = [...drawStore.drawings, saved]
    await engine.run('draw.cancel').catch(() => {})
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/**
 * Saves the shape in the geometry control bar (`snapshot.city.draw.editing`): the server
 * measures the new points again; its answer replaces the stored drawing and the bar closes.
 */
export async function saveEditedDrawing(
  engine: EngineHandle,
  services: Pick<CityServices, 'updateAreaDraw'>,
  edited: { id: string; points: readonly (readonly [number, number])[] },
): Promise<boolean> {
  try {
    const updated = await services.updateAreaDraw({
      id: edited.id,
      points: edited.points.map(([lng, lat]) => [lng, lat]),
    })
    drawStore.drawings = drawStore.drawings.map((drawing) =>
      drawing.id === edited.id ? updated : drawing,
    )
    await engine.run('draw.editStop').catch(() => {})
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/** Changes a drawing's name, description, visibility or style. */
export async function updateDrawing(
  services: Pick<CityServices, 'updateAreaDraw'>,
  id: string,
  change: {
    name?: string
    description?: string
    is_visible?: boolean
    style?: Partial<AreaDraw['style']>
  },
): Promise<boolean> {
  try {
    const updated = await services.updateAreaDraw({ id, ...change })
    drawStore.drawings = drawStore.drawings.map((drawing) =>
      drawing.id === id ? updated : drawing,
    )
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}

/** Deletes a drawing (the caller has confirmed). */
export async function deleteDrawing(
  services: Pick<CityServices, 'deleteAreaDraw'>,
  id: string,
): Promise<boolean> {
  try {
    await services.deleteAreaDraw(id)
    drawStore.drawings = drawStore.drawings.filter((drawing) => drawing.id !== id)
    return true
  } catch (error) {
    toast.error(errorMessage(error))
    return false
  }
}
