/**
 * The address picker's geocoding as a service (decisions.md "Maps"): an optional online,
 * Nominatim-compatible geocoder in front of the offline one. The online one is a third party
 * that may be slow, down or unreachable, so every failure, timeout or empty answer falls back
 * to the offline answer, and after a failure the online one rests for a while so a dead
 * network does not make every search wait for the timeout.
 */
import {
  distanceMeters,
  type GeoLanguage,
  type GeoSearchOptions,
  type GeoSearchResult,
  type Geocoder,
  type LatLng,
  type ReverseGeocodeResult,
} from './geocoder'

/** Search and reverse geocoding, wherever the answers come from. */
export interface GeocodingService {
  search(query: string, options: GeoSearchOptions): Promise<GeoSearchResult[]>
  reverse(location: LatLng, language: GeoLanguage): Promise<ReverseGeocodeResult>
}

/** A geocoder reached over the network; it rejects when it cannot answer. */
export interface OnlineGeocoder {
  search(query: string, options: GeoSearchOptions, signal: AbortSignal): Promise<GeoSearchResult[]>
  /** Resolves to null when the service knows nothing at the point. */
  reverse(
    location: LatLng,
    language: GeoLanguage,
    signal: AbortSignal,
  ): Promise<ReverseGeocodeResult | null>
}

/** The offline geocoder as a service (the product's default). */
export function offlineGeocodingService(offline: () => Geocoder): GeocodingService {
  return {
    search: async (query, options) => offline().search(query, options),
    reverse: async (location, language) => offline().reverse(location, language),
  }
}

/** One Nominatim `jsonv2` result (only the fields we read). */
interface NominatimPlace {
  place_id?: number
  osm_type?: string
  osm_id?: number
  lat?: string
  lon?: string
  name?: string
  display_name?: string
  address?: { country?: string; country_code?: string }
  error?: string
}

/** Answers that are not JSON objects of the expected shape count as failures. */
class OnlineGeocoderError extends Error {
  override name = 'OnlineGeocoderError'
}

/**
 * A client of a Nominatim-compatible service (`<base>/search`, `<base>/reverse`, format
 * `jsonv2`), e.g. `https://nominatim.openstreetmap.org` or a self-hosted Nominatim/Photon
 * proxy. `userAgent` identifies the product, as Nominatim's usage policy asks.
 */
export function createNominatimGeocoder(options: {
  baseUrl: string
  userAgent: string
}): OnlineGeocoder {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`

  async function getJson(
    path: string,
    query: Record<string, string>,
    signal: AbortSignal,
  ): Promise<unknown> {
    const url = new URL(path, base)
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
    const response = await fetch(url, {
      signal,
      headers: { accept: 'application/json', 'user-agent': options.userAgent },
    })
    if (!response.ok) throw new OnlineGeocoderError(`geocoder answered HTTP ${response.status}`)
    return response.json()
  }

  const toLocation = (place: NominatimPlace): LatLng | null => {
    const lat = Number(place.lat)
    const lng = Number(place.lon)
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null
    return { lat, lng }
  }
  const idOf = (place: NominatimPlace) =>
    `n${place.osm_type?.[0] ?? ''}${place.osm_id ?? place.place_id ?? ''}`

  return {
    async search(query, { language, limit = 10 }, signal) {
      const answer = await getJson(
        'search',
        {
          q: query,
          format: 'jsonv2',
          addressdetails: '1',
          limit: String(Math.max(1, Math.min(limit, 50))),
          'accept-language': language,
        },
        signal,
      )
      if (!Array.isArray(answer)) throw new OnlineGeocoderError('geocoder search is not a list')
      const results: GeoSearchResult[] = []
      for (const place of answer as NominatimPlace[]) {
        const location = toLocation(place)
        const address = place.display_name?.trim() ?? ''
        if (!location || address === '') continue
        const [firstPart = address, ...rest] = address.split(',').map((part) => part.trim())
        results.push({
          id: idOf(place),
          kind: 'place',
          name: place.name?.trim() || firstPart,
          context: rest.join(', '),
          address,
          location,
          countryCode: (place.address?.country_code ?? '').toUpperCase(),
          precision: 'exact',
        })
      }
      return results
    },

    async reverse(location, language, signal) {
      const answer = (await getJson(
        'reverse',
        {
          lat: String(location.lat),
          lon: String(location.lng),
          format: 'jsonv2',
          addressdetails: '1',
          'accept-language': language,
        },
        signal,
      )) as NominatimPlace | null
      if (typeof answer !== 'object' || answer === null) {
        throw new OnlineGeocoderError('geocoder reverse is not an object')
      }
      // Nominatim answers `{"error":"Unable to geocode"}` for the open sea
      if (answer.error !== undefined) return null
      const address = answer.display_name?.trim() ?? ''
      const placeLocation = toLocation(answer)
      if (address === '' || !placeLocation) return null
      const countryCode = answer.address?.country_code?.toUpperCase() ?? null
      const [firstPart = address] = address.split(',').map((part) => part.trim())
      return {
        // the clicked point stays the pick; the service's place is only its name
        location,
        address,
        countryCode,
        countryName: answer.address?.country ?? null,
        nearestPlace: {
          id: idOf(answer),
          name: answer.name?.trim() || firstPart,
          distanceMeters: Math.round(distanceMeters(location, placeLocation)),
        },
      }
    },
  }
}

/** What the fallback reports about each online attempt that did not give the answer. */
export type OnlineGeocoderFailure = {
  operation: 'search' | 'reverse'
  reason: 'timeout' | 'error' | 'empty' | 'resting'
  error?: unknown
}

/**
 * Tries `online` first, within `timeoutMs`, and answers with `offline` when it fails, times
 * out or knows nothing. After a failure (not an empty answer) the online service is skipped for
 * `restAfterFailureMs`.
 */
export function createFallbackGeocodingService(options: {
  online: OnlineGeocoder
  offline: GeocodingService
  timeoutMs: number
  restAfterFailureMs?: number
  now?: () => number
  onFallback?: (failure: OnlineGeocoderFailure) => void
}): GeocodingService {
  const { online, offline, timeoutMs, restAfterFailureMs = 60_000 } = options
  const now = options.now ?? Date.now
  let restUntilMs = 0

  async function attempt<Answer>(
    operation: 'search' | 'reverse',
    run: (signal: AbortSignal) => Promise<Answer>,
    isEmpty: (answer: Answer) => boolean,
  ): Promise<Answer | undefined> {
    if (now() < restUntilMs) {
      options.onFallback?.({ operation, reason: 'resting' })
      return undefined
    }
    const signal = AbortSignal.timeout(timeoutMs)
    try {
      const answer = await run(signal)
      if (isEmpty(answer)) {
        options.onFallback?.({ operation, reason: 'empty' })
        return undefined
      }
      return answer
    } catch (error) {
      restUntilMs = now() + restAfterFailureMs
      options.onFallback?.({ operation, reason: signal.aborted ? 'timeout' : 'error', error })
      return undefined
    }
  }

  return {
    async search(query, searchOptions) {
      const answer = await attempt(
        'search',
        (signal) => online.search(query, searchOptions, signal),
        (results) => results.length === 0,
      )
      return answer ?? offline.search(query, searchOptions)
    },
    async reverse(location, language) {
      const answer = await attempt(
        'reverse',
        (signal) => online.reverse(location, language, signal),
        (result) => result === null,
      )
      return answer ?? offline.reverse(location, language)
    },
  }
}
