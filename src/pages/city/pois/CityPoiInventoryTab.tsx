import { poiStore } from '../../../state/pois'
import { PoiSharedScreens } from '../../pois/PoiSharedScreens'
import { useCanEditCityProject } from '../city-context'
import './city-pois.css'

/**
 * "POI inventory" (SPEC §2 city POI tabs): the shared POI screens on the city's POIs, as the
 * building's POI module shows them: the inventory (search, edit, delete; a click selects the
 * POI and flies there), POI classify, the multi-function table, POI copy (laid out in metres
 * east/north/up, at each POI's own latitude) and batch add.
 */
export function CityPoiInventoryTab() {
  const canEdit = useCanEditCityProject()
  return (
    <div className="ts-city-tab" data-testid="city-poi-inventory">
      <PoiSharedScreens store={poiStore} canEdit={canEdit} inventoryHeightPx={320} />
    </div>
  )
}
