import { EngineError } from '../../api/errors'
import {
  maxListedAlarmPois,
  type PoiStatusEntry,
  type PoiStatusState,
  poiAlarmCodes,
  poiStatusColourOf,
} from '../../api/poi-status-commands'

/**
 * Refuses status entries a scene could not apply (the `*.setPoiStatuses` commands of both
 * halves): a list of `{poiId, code}` with a whole-number code or null.
 */
export function checkPoiStatusEntries(statuses: unknown): asserts statuses is PoiStatusEntry[] {
  if (!Array.isArray(statuses)) throw invalid('Statuses must be a list.')
  for (const entry of statuses as Array<Partial<PoiStatusEntry> | null>) {
    const isCode = entry?.code === null || Number.isInteger(entry?.code)
    if (typeof entry?.poiId !== 'string' || !isCode) {
      throw invalid('Each status needs a POI id and a whole-number code (or null).')
    }
  }
}

function invalid(message: string): EngineError {
  return new EngineError('engine.invalidArgument', message)
}

/** A disc's tint: r, g, b, a 0–1. */
export type StatusTint = readonly [number, number, number, number]

/**
 * The device statuses of a POI layer (see `PoiStatusCommands`): which tint each POI's status
 * disc has, and whether it is an alarm (drawn larger, never clustered).
 */
export class PoiStatuses {
  private readonly codes = new Map<string, number>()
  private readonly tints = new Map<number, StatusTint>()
  private revision = 0
  /** The last `state()`, kept until the next change: the snapshot is read every frame. */
  private cachedState: PoiStatusState | undefined

  /** Applies entries; true when something changed. */
  set(entries: readonly PoiStatusEntry[], replace: boolean): boolean {
    let isChanged = replace && this.codes.size > 0
    if (replace) this.codes.clear()
    for (const { poiId, code } of entries) {
      if (code === null) {
        isChanged = this.codes.delete(poiId) || isChanged
      } else if (this.codes.get(poiId) !== code) {
        this.codes.set(poiId, code)
        isChanged = true
      }
    }
    if (isChanged) {
      this.revision++
      this.cachedState = undefined
    }
    return isChanged
  }

  /** The tint of a POI's status disc, or undefined when it has no status. */
  tintOf(poiId: string): StatusTint | undefined {
    const code = this.codes.get(poiId)
    if (code === undefined) return undefined
    let tint = this.tints.get(code)
    if (tint === undefined) {
      const [r, g, b] = poiStatusColourOf(code)
      tint = [r / 255, g / 255, b / 255, 1]
      this.tints.set(code, tint)
    }
    return tint
  }

  /** True when the POI's status is an alarm code. */
  isAlarm(poiId: string): boolean {
    const code = this.codes.get(poiId)
    return code !== undefined && poiAlarmCodes.includes(code)
  }

  /** Whether any POI has a status. */
  hasAny(): boolean {
    return this.codes.size > 0
  }

  /** The POI's status code, or undefined when it has none. */
  codeOf(poiId: string): number | undefined {
    return this.codes.get(poiId)
  }

  /** Changes with every status change. */
  currentRevision(): number {
    return this.revision
  }

  /** The snapshot part. */
  state(): PoiStatusState {
    if (this.cachedState !== undefined) return this.cachedState
    const alarmPoiIds: string[] = []
    for (const [poiId, code] of this.codes)
      if (poiAlarmCodes.includes(code)) alarmPoiIds.push(poiId)
    alarmPoiIds.sort()
    this.cachedState = {
      count: this.codes.size,
      alarmPoiIds: alarmPoiIds.slice(0, maxListedAlarmPois),
      revision: this.revision,
    }
    return this.cachedState
  }
}
