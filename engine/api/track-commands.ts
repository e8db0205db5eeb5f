import type { DrawPosition } from './draw-commands'

/**
 * GPS positioning in the city (issue 18, SPEC §2 "GPS positioning"): the UI hands the engine
 * the positioned objects to show — each as a marker at its position, turned to its heading, with
 * the trail it came along — and the engine draws them with deck.gl. Live updates and track
 * playback are both just new markers; the UI decides which position is "now".
 */

/** One positioned object as the map shows it. */
export interface TrackMarker {
  id: string
  lng: number
  lat: number
  /** Degrees clockwise from north; null draws a dot without a direction. */
  heading: number | null
  /** The positions it came along, oldest first (may be empty). */
  trail: readonly DrawPosition[]
  /** `#rrggbb` or `#rrggbbaa`. */
  color: string
  /** True while inside at least one electronic fence (drawn with a red ring). */
  isInsideFence: boolean
}

/** `snapshot.city.track`. */
export interface TrackLayerState {
  /** Markers given with `track.setMarkers`. */
  readonly markerCount: number
  /** Trail points drawn, over all markers. */
  readonly trailPointCount: number
}

/** The tracking state of a fresh city. */
export function createInitialTrackState(): TrackLayerState {
  return { markerCount: 0, trailPointCount: 0 }
}

/** The tracking commands; `CityCommands` extends this map. */
export interface TrackCommands {
  /**
   * Replaces the positioned objects drawn on the map (markers with heading, and trails).
   * Fails with `city.notOpen` without an open city, `engine.invalidArgument` for a position
   * off the map.
   */
  'track.setMarkers': {
    args: { markers: readonly TrackMarker[] }
    result: undefined
  }
  /** Moves the camera to a marker (keeping the zoom if it is closer than street level). */
  'track.flyToMarker': {
    args: { id: string }
    result: undefined
  }
}

/**
 * The positioned objects of a building project in the building scene (issue 18, the location
 * module): the same markers, placed around the building by their longitude and latitude. The
 * building's origin stands at `origin` (the project's location, set by its anchor points); east
 * is the scene's +x and north its −z whatever the building's placement turns, and each marker
 * stands on the ground under the building. `BuildingCommands` extends this map.
 */
export interface BuildingTrackCommands {
  /**
   * Replaces the positioned objects drawn in the building scene (markers with heading, and
   * trails). Fails with `engine.invalidArgument` for a position or an origin off the map.
   */
  'building.setTrackMarkers': {
    args: { origin: { lng: number; lat: number }; markers: readonly TrackMarker[] }
    result: undefined
  }
}
