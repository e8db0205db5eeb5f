import type { ScenePoi } from '../../api/poi-commands'
import { ICON_CELL, type IconAtlas } from './icon-atlas'
import type { PoiStatuses } from './poi-statuses'
import type { ScreenQuadBatch } from './screen-quad-batch'

/** Marker size, CSS pixels. */
export const MARKER_PIXELS = 28
/** Tint of a marker drawn as it is. */
export const WHITE = [1, 1, 1, 1] as const
/** Tint of a copy-preview ghost. */
const GHOST = [1, 1, 1, 0.5] as const

/** How one POI's marker is drawn this frame. */
export interface PoiMarkerLook {
  /** The ring around it (hovered or selected icon cell), or -1 for none. */
  ring: number
  /** Drawn as its 3D model: only the status disc and the ring are markers. */
  isModel: boolean
}

/**
 * Pushes one POI's quads into the marker batch: its device status disc (larger in alarm), its
 * hover or selection ring, then its icon unless the POI is drawn as its model.
 */
export function pushPoiMarker(
  batch: ScreenQuadBatch,
  icons: IconAtlas,
  statuses: PoiStatuses,
  poi: ScenePoi,
  [x, y, z]: readonly [number, number, number],
  { ring, isModel }: PoiMarkerLook,
): void {
  const statusTint = statuses.tintOf(poi.id)
  if (statusTint !== undefined) {
    const size = MARKER_PIXELS + (statuses.isAlarm(poi.id) ? 26 : 14)
    batch.push(x, y, z, icons.pictureOf(ICON_CELL.statusDisc), 0, 0, size, size, statusTint)
  }
  if (ring >= 0) {
    const size = MARKER_PIXELS + 14
    batch.push(x, y, z, icons.pictureOf(ring), 0, 0, size, size, WHITE)
  }
  if (isModel) return
  const picture = icons.pictureOf(icons.cellOf(poi.templateId))
  batch.push(x, y, z, picture, 0, 0, MARKER_PIXELS, MARKER_PIXELS, WHITE)
}

/** Fills the ghost batch with the copy-preview ghosts: their icons, half transparent. */
export function pushGhostMarkers(
  batch: ScreenQuadBatch,
  icons: IconAtlas,
  ghosts: readonly ScenePoi[],
): void {
  batch.begin()
  for (const ghost of ghosts) {
    const [x, y, z] = ghost.position
    const picture = icons.pictureOf(icons.cellOf(ghost.templateId))
    batch.push(x, y, z, picture, 0, 0, MARKER_PIXELS, MARKER_PIXELS, GHOST)
  }
}
