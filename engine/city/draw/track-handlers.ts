import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { NavigateCommands, NavigationRate } from '../../api/navigate-commands'
import type { DrawPosition } from '../../api/draw-commands'
import type { TrackCommands } from '../../api/track-commands'
import { checkTrackMarkers, isOnMap } from '../../core/track-markers'
import type { CityScene } from '../city-scene'

function invalid(message: string, detail?: string): EngineError {
  return new EngineError('engine.invalidArgument', message, detail)
}

const rates = new Set<NavigationRate>([1, 2, 3, 5])
const speeds = new Set(['slow', 'fast'])

function checkPace(speed: string, rate: number): void {
  if (!speeds.has(speed)) throw invalid(`Not a speed: ${speed}.`, speed)
  if (!rates.has(rate as NavigationRate)) throw invalid(`Not a rate: ${rate}.`, String(rate))
}

function checkPoints(points: readonly DrawPosition[]): void {
  if (points.length < 2) throw invalid('A path to fly needs at least 2 points.')
  for (const [lng, lat] of points)
    if (!isOnMap(lng, lat)) throw invalid(`A path point is off the map: ${lng}, ${lat}.`)
}

/** Handlers of the tracking and navigation commands, on the open scene's parts. */
export function createTrackHandlers(
  openScene: () => CityScene,
): Pick<CommandHandlers, keyof TrackCommands | keyof NavigateCommands> {
  return {
    'track.setMarkers': async ({ markers }) => {
      checkTrackMarkers(markers)
      openScene().tracking.setMarkers(markers)
      return undefined
    },
    'track.flyToMarker': async ({ id }) => {
      if (!(await openScene().tracking.flyTo(id))) throw invalid(`No marker ${id}.`, id)
      return undefined
    },
    'navigate.start': async ({ pathId, points, speed, rate }) => {
      checkPace(speed, rate)
      checkPoints(points)
      openScene().navigation.start(pathId, points, speed, rate)
      return undefined
    },
    'navigate.pause': async ({ isPaused }) => {
      openScene().navigation.pause(isPaused)
      return undefined
    },
    'navigate.setPace': async ({ speed, rate }) => {
      checkPace(speed, rate)
      openScene().navigation.setPace(speed, rate)
      return undefined
    },
    'navigate.stop': async () => {
      openScene().navigation.stop()
      return undefined
    },
  }
}
