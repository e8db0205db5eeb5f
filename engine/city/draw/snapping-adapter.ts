import type { Map as MapLibreMap } from 'maplibre-gl'
import type { TerraDrawMouseEvent } from 'terra-draw'
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter'
import type { DrawPosition } from '../../api/draw-commands'

/**
 * terra-draw's MapLibre adapter whose pointer events land on a saved drawing's vertex or edge
 * when the pointer is within a few pixels of one (issue 18 snapping). Snapping the event itself
 * serves all five draw types and dragging a vertex in the geometry bar alike: terra-draw's own
 * snapping options exist for lines and polygons only and know only its store's features, which
 * here is the one shape in hand (saved shapes are drawn by deck.gl). The event keeps the
 * pointer's pixel position, so terra-draw tells clicks from drags as before.
 */
export class SnappingMapLibreAdapter extends TerraDrawMapLibreGLAdapter<MapLibreMap> {
  /** The place a pointer at container pixel (x, y) snaps to, or undefined; null: never. */
  snapAt: ((x: number, y: number) => DrawPosition | undefined) | null = null

  protected override getDrawEventFromEvent(
    event: PointerEvent | MouseEvent,
    isContextMenu?: boolean,
  ): TerraDrawMouseEvent | null {
    const drawEvent = super.getDrawEventFromEvent(event, isContextMenu)
    if (!drawEvent || !this.snapAt) return drawEvent
    const snapped = this.snapAt(drawEvent.containerX, drawEvent.containerY)
    if (!snapped) return drawEvent
    // terra-draw refuses coordinates finer than its precision (a rotated shape's are).
    const scale = 10 ** this.getCoordinatePrecision()
    return {
      ...drawEvent,
      lng: Math.round(snapped[0] * scale) / scale,
      lat: Math.round(snapped[1] * scale) / scale,
    }
  }
}
