import type { CityBasemapFailure } from '../api/city-snapshot'

/**
 * Sorts a basemap error (MapLibre's AJAXError with the HTTP status our map proxy answered, a
 * style validation error, a PMTiles read error …) into a kind the UI words in the user's
 * language. The map proxy's statuses: 403 refused address, 413 too large, 404 missing,
 * 415 not a style, 502/503/504 upstream unreachable (server/modules/map-proxy).
 */
export function basemapFailureOf(error: unknown): CityBasemapFailure {
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number') {
    if (status === 401 || status === 403) return 'notAllowed'
    if (status === 413) return 'tooLarge'
    if (status === 404 || status === 410) return 'notFound'
    if (status === 415) return 'notStyle'
    // 0: the browser could not connect at all (offline, refused by the CSP)
    if (status === 0 || status >= 500) return 'unreachable'
    return 'failed'
  }
  const message = error instanceof Error ? error.message : String(error)
  if (/Failed to fetch|NetworkError|network/i.test(message)) return 'unreachable'
  if (/JSON|style|validat|version/i.test(message)) return 'notStyle'
  return 'failed'
}
