import type { BuildingCommands } from '../api/building-commands'
import type { CommandHandlers } from '../api/commands'
import type { EngineContext } from '../core/engine-context'

/** Handlers of the building commands; everything three.js stays inside engine/building. */
export function createBuildingHandlers(
  _context: EngineContext,
): Pick<CommandHandlers, keyof BuildingCommands> & { dispose(): void } {
  return { dispose() {} }
}
