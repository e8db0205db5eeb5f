import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { PoiStatusCommands } from '../../api/poi-status-commands'
import type { BuildingPoiLayer } from './poi-layer'

type PoiStatusHandlers = Pick<CommandHandlers, keyof PoiStatusCommands<'building'>>

/** The `building.setPoiStatuses` command (see `PoiStatusCommands`), over the open scene's POIs. */
export function createBuildingPoiStatusHandlers(scope: {
  /** The open scene's POI layer; throws `building.notOpen` when none is open. */
  layer(): BuildingPoiLayer
}): PoiStatusHandlers {
  return {
    'building.setPoiStatuses': async ({ statuses, replace }) => {
      if (!Array.isArray(statuses)) throw invalid('Statuses must be a list.')
      for (const entry of statuses) {
        const isCode = entry?.code === null || Number.isInteger(entry?.code)
        if (typeof entry?.poiId !== 'string' || !isCode) {
          throw invalid('Each status needs a POI id and a whole-number code (or null).')
        }
      }
      scope.layer().setStatuses(statuses, replace === true)
    },
  }
}

function invalid(message: string): EngineError {
  return new EngineError('engine.invalidArgument', message)
}
