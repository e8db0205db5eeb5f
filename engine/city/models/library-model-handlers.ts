import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { LibraryModelCommands } from '../../api/library-model-commands'
import type { CityScene } from '../city-scene'

/** Handlers of the city's library model commands (issue 21 item 6). */
export function createCityLibraryModelHandlers(
  openScene: () => CityScene,
): Pick<CommandHandlers, keyof LibraryModelCommands<'city'>> {
  return {
    'city.setLibraryModels': async ({ models }) => {
      for (const model of models) {
        const [lng, lat] = model.position
        // MapLibre's mercator ends at ±85.05°
        if (!(Math.abs(lng) <= 180 && Math.abs(lat) <= 85)) {
          throw new EngineError(
            'engine.invalidArgument',
            `Not a place on the map: ${lng}, ${lat}.`,
            model.id,
          )
        }
      }
      openScene().libraryModels.set(models)
      return undefined
    },
    'city.setModelAnimation': async ({ id, ...patch }) => {
      openScene().libraryModels.setAnimation(id, patch)
      return undefined
    },
  }
}
