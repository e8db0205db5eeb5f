import { type PoiStore, poiStore } from '../../../state/pois'

/**
 * Selects an alarm's POI and flies the camera there, in whichever scene the editor attached to
 * the POI store (the building's or the city's): the alarm list's "Show in the scene" and its
 * "follow alarms" behave the same in both editors, and the POI panels see the selection.
 * False when the POI is not one of the open project's POIs (deleted, or not loaded yet).
 */
export function focusAlarmPoi(poiId: string, store: PoiStore = poiStore): boolean {
  if (poiId === '' || store.get(poiId) === undefined) return false
  store.select([poiId])
  store.flyTo(poiId)
  return true
}
