import type { CommandHandlers } from '../../api/commands'
import type { PoiStatusCommands } from '../../api/poi-status-commands'
import type { BuildingPoiLayer } from './poi-layer'
import { checkPoiStatusEntries } from './poi-statuses'

type PoiStatusHandlers = Pick<CommandHandlers, keyof PoiStatusCommands<'building'>>

/** The `building.setPoiStatuses` command (see `PoiStatusCommands`), over the open scene's POIs. */
export function createBuildingPoiStatusHandlers(scope: {
  /** The open scene's POI layer; throws `building.notOpen` when none is open. */
  layer(): BuildingPoiLayer
}): PoiStatusHandlers {
  return {
    'building.setPoiStatuses': async ({ statuses, replace }) => {
      checkPoiStatusEntries(statuses)
      scope.layer().setStatuses(statuses, replace === true)
    },
  }
}
