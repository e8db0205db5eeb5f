/**
 * Dragging a city POI (issue 16: the POI control's move tool drags the selected POI over the
 * map or the oblique photography). The UI moves the POI itself (it previews the surface point
 * under the pointer with `city.surfacePointAtScreenPoint` and saves on release); the engine's
 * part is that the press belongs to the POI: the map does not pan or turn while it is dragged.
 */
export interface CityPoiDragCommands {
  /**
   * A press at a point of the map (CSS pixels): when a selected POI is drawn there, the map's
   * drag-pan and drag-rotate are held until `city.endPoiDrag`, and the POI's id is returned.
   * Otherwise nothing is held and the answer is null (the press pans the map as usual).
   */
  'city.beginPoiDrag': {
    args: { x: number; y: number }
    result: { poiId: string } | null
  }
  /** Ends a POI drag: the map pans and turns under the mouse again. Harmless when none. */
  'city.endPoiDrag': {
    args: undefined
    result: undefined
  }
}
