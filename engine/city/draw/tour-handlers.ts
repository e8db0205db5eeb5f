import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { TourCommands, TourViewpoint } from '../../api/tour-commands'
import type { CityScene } from '../city-scene'

function invalid(message: string, detail?: string): EngineError {
  return new EngineError('engine.invalidArgument', message, detail)
}

/** Most viewpoints of one tour, and the longest transition and dwell (an hour). */
const maxViewpoints = 1_000
const maxSeconds = 3_600

function checkViewpoint(viewpoint: TourViewpoint, index: number): void {
  const { lng, lat, zoom, pitch, bearing, dwellSeconds } = viewpoint
  const areNumbers = [lng, lat, zoom, pitch, bearing, dwellSeconds].every(Number.isFinite)
  if (!areNumbers || Math.abs(lng) > 180 || Math.abs(lat) > 90)
    throw invalid(`Viewpoint ${index + 1} is off the map.`, String(index))
  if (zoom < 0 || zoom > 24 || pitch < 0 || pitch > 85)
    throw invalid(`Viewpoint ${index + 1} has a zoom or tilt out of range.`, String(index))
  if (dwellSeconds < 0 || dwellSeconds > maxSeconds)
    throw invalid(`Viewpoint ${index + 1} stays out of range.`, String(index))
}

/** Handlers of the view tour commands, on the open scene's tour. */
export function createTourHandlers(
  openScene: () => CityScene,
): Pick<CommandHandlers, keyof TourCommands> {
  return {
    'tour.open': async ({ viewpoints, transitionSeconds }) => {
      if (viewpoints.length === 0) throw invalid('A tour needs at least 1 viewpoint.')
      if (viewpoints.length > maxViewpoints)
        throw invalid(`A tour takes at most ${maxViewpoints} viewpoints.`)
      viewpoints.forEach(checkViewpoint)
      if (
        !Number.isFinite(transitionSeconds) ||
        transitionSeconds < 0 ||
        transitionSeconds > maxSeconds
      )
        throw invalid(`Not a transition time: ${transitionSeconds}.`, String(transitionSeconds))
      openScene().tour.open(viewpoints, transitionSeconds)
      return undefined
    },
    'tour.close': async () => {
      openScene().tour.close()
      return undefined
    },
  }
}
