import { WebMercatorViewport } from '@deck.gl/core'
import type { Map as MapLibreMap } from 'maplibre-gl'
import { mapLibreViewId } from './library-internals'

/**
 * The map's camera as a deck viewport. loaders.gl keeps one tile tree per viewport id, so the
 * scene's own traversals (before deck runs) use deck's MapLibre view id and share its tree.
 */
export function mapViewport(map: MapLibreMap): WebMercatorViewport {
  const canvas = map.getCanvas()
  const center = map.getCenter()
  return new WebMercatorViewport({
    id: mapLibreViewId,
    width: canvas.clientWidth,
    height: canvas.clientHeight,
    longitude: center.lng,
    latitude: center.lat,
    zoom: map.getZoom(),
    pitch: map.getPitch(),
    bearing: map.getBearing(),
  })
}
