import { proxy } from 'valtio'
import type { AreaDraw } from '../../../api/draw'
import type { DrawShape, DrawTypeNumber, PathDisplayMode } from '../../../../engine/api'

/** The open city project's saved areas and paths, as the server answered them. */
export interface DrawStore {
  projectId: string | null
  drawings: AreaDraw[]
  loadState: 'idle' | 'loading' | 'ready' | 'failed'
}

/** One store for the editor: the area division and path programming tabs share it. */
export const drawStore = proxy<DrawStore>({ projectId: null, drawings: [], loadState: 'idle' })

/** What the engine draws of a saved drawing. */
export function shapeOfDrawing(drawing: AreaDraw): DrawShape {
  return {
    id: drawing.id,
    type: drawing.type as DrawTypeNumber,
    points: drawing.points,
    fillColor: drawing.style.fill_color,
    outlineColor: drawing.style.outline_color,
    outlineWidthPx: drawing.style.outline_width,
    displayMode: drawing.style.display_mode as PathDisplayMode,
    isVisible: drawing.is_visible,
  }
}
