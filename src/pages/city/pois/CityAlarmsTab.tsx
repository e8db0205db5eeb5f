import type { PoiStore } from '../../../state/pois'
import { IotAlarmsPanel } from '../../bim4/iot/IotAlarmsPanel'
import { useCanEditCityProject } from '../city-context'

/**
 * POI → Alarms in the city editor (issue 17): the open project's alarms, as the building editor
 * lists them — acknowledge, clear, inspections, jump to the POI on the map, and "follow alarms".
 * The list is fed by the project's live stream, which the city editor keeps open.
 */
export function CityAlarmsTab({ pois }: { pois?: PoiStore }) {
  const canEdit = useCanEditCityProject()
  return <IotAlarmsPanel canEdit={canEdit} pois={pois} />
}
