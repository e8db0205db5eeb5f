import { EngineError } from '../api/errors'
import type { TrackMarker } from '../api/track-commands'

/** Whether a longitude and latitude are finite and on the map. */
export function isOnMap(lng: number, lat: number): boolean {
  return Number.isFinite(lng) && Number.isFinite(lat) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180
}

/**
 * Refuses markers the city and the building scene cannot draw (`engine.invalidArgument`): one
 * without an id, or with its position or a trail point off the map.
 */
export function checkTrackMarkers(markers: readonly TrackMarker[]): void {
  for (const marker of markers) {
    if (typeof marker.id !== 'string' || marker.id === '')
      throw new EngineError('engine.invalidArgument', 'A marker has no id.')
    if (!isOnMap(marker.lng, marker.lat) || marker.trail.some(([lng, lat]) => !isOnMap(lng, lat)))
      throw new EngineError(
        'engine.invalidArgument',
        `Marker ${marker.id} has a position off the map.`,
        marker.id,
      )
  }
}
