import { type Map as MapLibreMap, type MapMouseEvent, ScaleControl } from 'maplibre-gl'
import { cityPitchRange } from '../api/city-snapshot'

/** What the navigation aids publish: the geographic point under the mouse. */
export interface MapControlsPatch {
  pointer: { lng: number; lat: number } | null
}

/** The navigation aids of one city map (zoom, north, tilt; the scale bar and cursor readout). */
export interface MapControls {
  zoomBy(delta: number): void
  resetNorth(): void
  setPitch(pitch: number): void
  dispose(): void
}

/** Animations of the buttons: short enough to feel direct, long enough to see where one went. */
const buttonAnimationMs = 300

/**
 * Adds the navigation aids that need the map itself: MapLibre's scale bar (numbers and metric
 * units only, no words to translate) and the cursor position, published for the UI to show.
 * The buttons (zoom ±, compass, tilt) are drawn by the UI from the camera in the snapshot and
 * act through the commands that call the methods here, so their labels are translated there.
 */
export function attachMapControls(
  map: MapLibreMap,
  publish: (patch: MapControlsPatch) => void,
): MapControls {
  const scale = new ScaleControl({ maxWidth: 120, unit: 'metric' })
  map.addControl(scale, 'bottom-left')
  const onMove = (event: MapMouseEvent) =>
    publish({ pointer: { lng: event.lngLat.wrap().lng, lat: event.lngLat.lat } })
  const onOut = () => publish({ pointer: null })
  map.on('mousemove', onMove)
  map.on('mouseout', onOut)
  return {
    zoomBy(delta) {
      map.easeTo({ zoom: map.getZoom() + delta, duration: buttonAnimationMs })
    },
    resetNorth() {
      map.easeTo({ bearing: 0, duration: buttonAnimationMs })
    },
    setPitch(pitch) {
      const clamped = Math.min(cityPitchRange.max, Math.max(cityPitchRange.min, pitch))
      map.easeTo({ pitch: clamped, duration: buttonAnimationMs })
    },
    dispose() {
      map.off('mousemove', onMove)
      map.off('mouseout', onOut)
      if (map.hasControl(scale)) map.removeControl(scale)
    },
  }
}
