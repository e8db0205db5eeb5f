import type { DrawPosition } from './draw-commands'

/**
 * Path navigation (issue 18, SPEC §2 "path navigation", §9 point slider options): the camera
 * flies along a saved path at a speed (slow or fast) times a rate (×1 ×2 ×3 ×5), looking along
 * the path; it can be paused, resumed and stopped, and the rate changed while flying.
 */

/** SPEC §9 speed options. */
export type NavigationSpeed = 'slow' | 'fast'

/** SPEC §9 rate options. */
export type NavigationRate = 1 | 2 | 3 | 5

/** `snapshot.city.navigation`. */
export interface NavigationState {
  /** `idle` before a start or after a stop; `done` when the end of the path was reached. */
  readonly status: 'idle' | 'flying' | 'paused' | 'done'
  /** The path flown, by the id the UI gave, or null. */
  readonly pathId: string | null
  /** Metres flown along the path and its whole geodesic length. */
  readonly meters: number
  readonly totalMeters: number
  readonly speed: NavigationSpeed
  readonly rate: NavigationRate
}

/** The navigation state of a fresh city. */
export function createInitialNavigationState(): NavigationState {
  return { status: 'idle', pathId: null, meters: 0, totalMeters: 0, speed: 'slow', rate: 1 }
}

/** The navigation commands; `CityCommands` extends this map. */
export interface NavigateCommands {
  /**
   * Starts flying along `points` (at least 2) from their first point; replaces a flight.
   * Resolves at once; follow `snapshot.city.navigation`.
   */
  'navigate.start': {
    args: {
      pathId: string
      points: readonly DrawPosition[]
      speed: NavigationSpeed
      rate: NavigationRate
    }
    result: undefined
  }
  /** Pauses (true) or resumes (false) the flight; nothing happens without one. */
  'navigate.pause': {
    args: { isPaused: boolean }
    result: undefined
  }
  /** Changes the speed and rate of the flight (or of the next one). */
  'navigate.setPace': {
    args: { speed: NavigationSpeed; rate: NavigationRate }
    result: undefined
  }
  /** Ends the flight; the camera stays where it is. */
  'navigate.stop': {
    args: undefined
    result: undefined
  }
}
