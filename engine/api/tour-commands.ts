/**
 * The view tour (issue 18, SPEC §2 city sub-tab "view tour", §9 "Tour modes: 0 open, 2 close"):
 * a saved sequence of viewpoints the camera flies through with smooth transitions, staying on
 * each for its dwell time, round and round until the tour is closed.
 */

/** One viewpoint of a tour: where the camera looks from and how long it stays. */
export interface TourViewpoint {
  readonly lng: number
  readonly lat: number
  readonly zoom: number
  readonly pitch: number
  readonly bearing: number
  /** Seconds the camera stays on this view before flying on (at least 0). */
  readonly dwellSeconds: number
}

/** SPEC §9 tour modes: 0 open (playing), 2 close. */
export type TourMode = 0 | 2

/** `snapshot.city.tour`. */
export interface TourState {
  readonly mode: TourMode
  /** Flying to the current viewpoint, or staying on it; `idle` while closed. */
  readonly phase: 'idle' | 'flying' | 'dwelling'
  /** The viewpoint flown to or shown (0-based), -1 while closed. */
  readonly index: number
  readonly count: number
  /** Viewpoints reached since the tour opened (counts on past the last: the tour goes round). */
  readonly arrivals: number
}

/** The tour state of a fresh city. */
export function createInitialTourState(): TourState {
  return { mode: 2, phase: 'idle', index: -1, count: 0, arrivals: 0 }
}

/** The view tour commands; `CityCommands` extends this map. */
export interface TourCommands {
  /**
   * Opens the tour (mode 0): flies to the first of `viewpoints` (at least 1) over
   * `transitionSeconds`, stays its dwell time, flies on; after the last comes the first again.
   * Replaces a tour under way. Resolves at once; follow `snapshot.city.tour`.
   */
  'tour.open': {
    args: { viewpoints: readonly TourViewpoint[]; transitionSeconds: number }
    result: undefined
  }
  /** Closes the tour (mode 2); the camera stays where it is. */
  'tour.close': {
    args: undefined
    result: undefined
  }
}
