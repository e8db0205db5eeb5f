import type { CityCommands } from '../api/city-commands'
import type { CommandHandlers } from '../api/commands'
import type { EngineContext } from '../core/engine-context'

/** Handlers of the city commands; MapLibre and deck.gl stay inside engine/city. */
export function createCityHandlers(
  _context: EngineContext,
): Pick<CommandHandlers, keyof CityCommands> & { dispose(): void } {
  return { dispose() {} }
}
