import { proxy, subscribe } from 'valtio'

/** Where the choice is kept, per browser (like the language cookie, not per account). */
export const developerMetricsStorageKey = 'twinscape.showDeveloperMetrics'

function readStored(): boolean {
  try {
    return globalThis.localStorage?.getItem(developerMetricsStorageKey) === '1'
  } catch {
    return false
  }
}

/**
 * Preferences for developers (issue 12 item 17): the scene status bars show draw calls,
 * triangles and frame times only when `showsMetrics` is on. Off by default, kept in
 * localStorage so it survives reloads.
 */
export const developerSettings = proxy({ showsMetrics: readStored() })

subscribe(developerSettings, () => {
  try {
    if (developerSettings.showsMetrics) {
      globalThis.localStorage?.setItem(developerMetricsStorageKey, '1')
    } else globalThis.localStorage?.removeItem(developerMetricsStorageKey)
  } catch {
    // Storage may be full or blocked; the choice then lasts for this page only.
  }
})
