import type { Map as MapLibreMap } from 'maplibre-gl'

/**
 * Holds a city map's mouse and touch camera gestures while a POI is dragged. MapLibre starts a
 * pan on its own mousedown listener, which the UI's pointer handlers cannot stop; disabling the
 * handlers also resets a pan that had already begun with this press, so the camera stays put.
 */
export class PoiDragHold {
  /** Which gestures were on before the hold (restored as they were). */
  private held: { dragPan: boolean; dragRotate: boolean; touchZoomRotate: boolean } | null = null

  constructor(
    private readonly map: MapLibreMap,
    /** The POI drawn at a point of the map, or null. */
    private readonly poiAt: (x: number, y: number) => { poiId: string } | null,
    private readonly isSelected: (id: string) => boolean,
  ) {}

  /** Whether a POI is being dragged (the gestures are held). */
  get isHeld(): boolean {
    return this.held !== null
  }

  /** Holds the gestures when a selected POI is under the point; returns its id, else null. */
  begin(x: number, y: number): { poiId: string } | null {
    const hit = this.poiAt(x, y)
    if (!hit || !this.isSelected(hit.poiId)) return null
    if (!this.held) {
      this.held = {
        dragPan: this.map.dragPan.isEnabled(),
        dragRotate: this.map.dragRotate.isEnabled(),
        touchZoomRotate: this.map.touchZoomRotate.isEnabled(),
      }
      this.map.dragPan.disable()
      this.map.dragRotate.disable()
      this.map.touchZoomRotate.disable()
    }
    return hit
  }

  /** Gives the gestures back as they were before {@link begin}. */
  end(): void {
    const held = this.held
    this.held = null
    if (!held) return
    if (held.dragPan) this.map.dragPan.enable()
    if (held.dragRotate) this.map.dragRotate.enable()
    if (held.touchZoomRotate) this.map.touchZoomRotate.enable()
  }
}
