import type { ScenePoi } from '../../api/poi-commands'

/**
 * The POIs to draw, one a slot, each POI that was drawn before in its old slot: a slot left
 * empty takes a new POI, or else the last slot's, so the slots stay one run from 0. While the
 * camera moves, most POIs drawn as models stay so, and their slots need no new placing.
 */
export function keptInSlots(slotIds: readonly string[], pois: readonly ScenePoi[]): ScenePoi[] {
  const byId = new Map(pois.map((poi) => [poi.id, poi]))
  const slots: (ScenePoi | undefined)[] = slotIds.map((id) => byId.get(id))
  const had = new Set(slotIds)
  const fresh = pois.filter((poi) => !had.has(poi.id))
  const trim = () => {
    while (slots.length > 0 && slots[slots.length - 1] === undefined) slots.pop()
  }
  trim()
  for (let slot = 0; slot < slots.length; slot++) {
    if (slots[slot] !== undefined) continue
    slots[slot] = fresh.length > 0 ? fresh.pop() : slots.pop()
    trim()
  }
  return [...(slots as ScenePoi[]), ...fresh]
}
