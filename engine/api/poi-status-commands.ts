/**
 * The live twin in the scene (issue 17): a POI linked to a device shows the device's status
 * (SPEC §3 codes 0 off, 1 on, 2 normal, 3 fire alarm, 11 fault, 31 abnormal, 41 hidden danger)
 * as a coloured disc behind its marker; a POI in alarm gets a larger disc and is never folded
 * into a cluster, so it stays findable. The UI sends the statuses it receives from the live
 * stream; the engine owns how they are drawn.
 */

/** One POI's status; `code` null removes it (the POI is drawn plainly again). */
export interface PoiStatusEntry {
  poiId: string
  code: number | null
}

/** The status part of a scene's snapshot (`building.poiStatuses`, `city.poiStatuses`). */
export interface PoiStatusState {
  /** POIs with a status. */
  count: number
  /** POIs whose status is an alarm code, sorted (at most {@link maxListedAlarmPois}). */
  alarmPoiIds: readonly string[]
  /** Changes with every status change (tests wait on it). */
  revision: number
}

/** How many alarm POI ids the snapshot lists. */
export const maxListedAlarmPois = 100

/** The codes that raise alarms (SPEC §3); drawn large and never clustered. */
export const poiAlarmCodes: readonly number[] = [3, 11, 31, 41]

/**
 * The colour (0–255 RGB) each status code is drawn in; unknown codes are grey. Also the
 * legend's colours in the UI, so scene and list agree.
 */
export const poiStatusColours: Readonly<Record<number, readonly [number, number, number]>> = {
  0: [158, 158, 158],
  1: [33, 150, 243],
  2: [67, 160, 71],
  3: [229, 57, 53],
  11: [251, 140, 0],
  31: [142, 36, 170],
  41: [253, 216, 53],
}

/** The colour of a status code (grey when the code is unknown). */
export function poiStatusColourOf(code: number): readonly [number, number, number] {
  return poiStatusColours[code] ?? [158, 158, 158]
}

/** The status part before any status was set. */
export function createInitialPoiStatusState(): PoiStatusState {
  return { count: 0, alarmPoiIds: [], revision: 0 }
}

/** Status commands of a scene half; `Prefix` is 'city' or 'building'. */
export type PoiStatusCommands<Prefix extends 'city' | 'building'> = {
  /**
   * Sets the statuses of some POIs (by id; POIs not in the scene yet keep theirs for when
   * they come). With `replace`, every other status is removed first.
   */
  [K in `${Prefix}.setPoiStatuses`]: {
    args: { statuses: PoiStatusEntry[]; replace?: boolean }
    result: undefined
  }
}
