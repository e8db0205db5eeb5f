import type { ScenePoi } from '../../api/poi-commands'
import {
  type PoiStatusEntry,
  type PoiStatusState,
  poiStatusColourOf,
} from '../../api/poi-status-commands'
// The status bookkeeping is the building's (plain data, no three.js): both scenes read codes,
// alarms and the snapshot part the same way; only the drawing differs.
import { PoiStatuses } from '../../building/pois/poi-statuses'
import { poiMarkerLayout, type PoiStatusDisc } from './poi-layers'

/** Disc radii on screen: a ring around the 32-pixel marker, wider for an alarm. */
const discRadiusPixels = poiMarkerLayout.iconSizePixels / 2 + 7
const alarmDiscRadiusPixels = poiMarkerLayout.iconSizePixels / 2 + 13

/**
 * The device statuses of the city's POIs (issue 17, `city.setPoiStatuses`): the codes, the
 * snapshot part and the discs drawn behind the markers. A POI in alarm is never folded into a
 * cluster (the POI part asks `isAlarm` when it builds the index), so it stays findable.
 */
export class CityPoiStatuses {
  private readonly statuses = new PoiStatuses()
  /** POIs in alarm, kept here: asked for on every redraw and pick. */
  private readonly alarms = new Set<string>()
  private discsKey = ''
  private discs: PoiStatusDisc[] = []

  /**
   * Applies entries. Answers null when nothing changed, else the POIs whose alarm state
   * changed (they move in or out of the clusters; empty when only colours changed).
   */
  set(entries: readonly PoiStatusEntry[], replace: boolean): string[] | null {
    // only the POIs named (and, on replace, those in alarm now) can change: a live stream sends
    // one at a time, and the other statuses are not looked at
    const candidates = new Set(entries.map((entry) => entry.poiId))
    if (replace) for (const id of this.alarms) candidates.add(id)
    if (!this.statuses.set(entries, replace)) return null
    const moved: string[] = []
    for (const id of candidates) {
      const isAlarm = this.statuses.isAlarm(id)
      if (isAlarm === this.alarms.has(id)) continue
      moved.push(id)
      if (isAlarm) this.alarms.add(id)
      else this.alarms.delete(id)
    }
    return moved
  }

  isAlarm(poiId: string): boolean {
    return this.alarms.has(poiId)
  }

  /** The POIs in alarm (drawn on their own, never clustered). */
  alarmIds(): ReadonlySet<string> {
    return this.alarms
  }

  /** The snapshot part (`city.poiStatuses`). */
  state(): PoiStatusState {
    return this.statuses.state()
  }

  /**
   * The discs of the drawn markers; the same array while `markersKey` (what is drawn) and the
   * statuses are unchanged, so deck keeps its buffers.
   */
  discsOf(drawn: readonly ScenePoi[], markersKey: string): PoiStatusDisc[] {
    const key = `${markersKey}/${this.statuses.currentRevision()}`
    if (key === this.discsKey) return this.discs
    const discs: PoiStatusDisc[] = []
    for (const poi of drawn) {
      const code = this.statuses.codeOf(poi.id)
      if (code === undefined) continue
      const [red, green, blue] = poiStatusColourOf(code)
      discs.push({
        position: poi.position,
        colour: [red, green, blue, 255],
        radiusPixels: this.statuses.isAlarm(poi.id) ? alarmDiscRadiusPixels : discRadiusPixels,
      })
    }
    this.discsKey = key
    this.discs = discs
    return discs
  }
}
