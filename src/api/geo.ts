import type {
  GeoLanguage,
  GeoReverseDatum,
  GeoSearchResult,
  MapConfigDatum,
} from '../../contract/geo'
import type { RegionOption } from '../../contract/region'
import { api } from './index'
import { geoRoutes } from '../../contract/geo'

export type {
  GeoLanguage,
  GeoReverseDatum,
  GeoSearchResult,
  MapConfigDatum,
} from '../../contract/geo'
export type { RegionOption } from '../../contract/region'

/** `POST /web/publicselect/findAreaJson`: the children of a region code ('0' for provinces). */
export async function findAreaJson(codeid: string, signal?: AbortSignal): Promise<RegionOption[]> {
  const { datum } = await api.call(geoRoutes.findAreaJson, { codeid }, signal ? { signal } : {})
  return datum
}

/** `GET /web/publicselect/mapConfig`: the online style to draw, or null for the offline one. */
export async function fetchMapConfig(signal?: AbortSignal): Promise<MapConfigDatum> {
  const { datum } = await api.call(geoRoutes.mapConfig, undefined, signal ? { signal } : {})
  return datum
}

/** `POST /web/geo/search`: places and China's divisions by name (offline unless configured). */
export async function searchPlaces(
  q: string,
  language: GeoLanguage,
  signal?: AbortSignal,
): Promise<GeoSearchResult[]> {
  const { datum } = await api.call(
    geoRoutes.search,
    { q, language, limit: 8 },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/geo/reverse`: the address of a clicked point (offline unless configured). */
export async function reverseGeocode(
  location: { lat: number; lng: number },
  language: GeoLanguage,
  signal?: AbortSignal,
): Promise<GeoReverseDatum> {
  const { datum } = await api.call(
    geoRoutes.reverse,
    { ...location, language },
    signal ? { signal } : {},
  )
  return datum
}
