import type { GeoLanguage, GeoReverseDatum, GeoSearchResult } from '../../contract/geo'
import type { RegionOption } from '../../contract/region'
import { api } from './index'

export type { GeoLanguage, GeoReverseDatum, GeoSearchResult } from '../../contract/geo'
export type { RegionOption } from '../../contract/region'

/** `POST /web/publicselect/findAreaJson`: the children of a region code ('0' for provinces). */
export async function findAreaJson(codeid: string, signal?: AbortSignal): Promise<RegionOption[]> {
  const { datum } = await api.post<RegionOption[]>(
    '/publicselect/findAreaJson',
    { codeid },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/geo/search`: places and China's divisions by name, answered offline. */
export async function searchPlaces(
  q: string,
  language: GeoLanguage,
  signal?: AbortSignal,
): Promise<GeoSearchResult[]> {
  const { datum } = await api.post<GeoSearchResult[]>(
    '/geo/search',
    { q, language, limit: 8 },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/geo/reverse`: the address of a clicked point, answered offline. */
export async function reverseGeocode(
  location: { lat: number; lng: number },
  language: GeoLanguage,
  signal?: AbortSignal,
): Promise<GeoReverseDatum> {
  const { datum } = await api.post<GeoReverseDatum>(
    '/geo/reverse',
    { ...location, language },
    signal ? { signal } : {},
  )
  return datum
}
