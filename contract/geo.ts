import { findAreaJsonBodySchema, findAreaJsonDatumSchema } from './region'
import { keepMapRegionBodySchema, keepMapRegionDatumSchema } from './city'
import { z } from 'zod'
import { formInteger, formNumber } from './form-fields'
import { webRoute } from './route'

/**
 * Offline geocoding for the map address picker (decisions.md "Maps"): place search and reverse
 * geocoding over data shipped with the product, and the data of the offline map style.
 */

/** The languages results can be named in. */
export const geoLanguageSchema = z.enum(['ko', 'zh', 'en'])
export type GeoLanguage = z.infer<typeof geoLanguageSchema>

/** `POST /web/geo/search` input. */
export const geoSearchBodySchema = z.object({
  q: z.string().trim().min(1).max(100),
  language: geoLanguageSchema.default('en'),
  limit: formInteger({ min: 1, max: 50 }).default(10),
})
export type GeoSearchBody = z.input<typeof geoSearchBodySchema>

const latLngSchema = z.object({ lat: z.number(), lng: z.number() })

/** One search hit. */
export const geoSearchResultSchema = z.object({
  id: z.string(),
  kind: z.enum(['place', 'region']),
  name: z.string(),
  /** Where it is, to tell same-named places apart ('Jiangsu, China'). */
  context: z.string(),
  /** Name and context as one address line. */
  address: z.string(),
  location: latLngSchema,
  countryCode: z.string(),
  /** 'approximate': the location is the nearest located parent region's (streets, districts). */
  precision: z.enum(['exact', 'approximate']),
  regionCode: z.string().optional(),
})
export type GeoSearchResult = z.infer<typeof geoSearchResultSchema>

/** `POST /web/geo/search` answer. */
export const geoSearchDatumSchema = z.array(geoSearchResultSchema)

/** `POST /web/geo/reverse` input: a clicked point. */
export const geoReverseBodySchema = z.object({
  lat: formNumber(z.number().min(-90).max(90)),
  lng: formNumber(z.number().min(-180).max(180)),
  language: geoLanguageSchema.default('en'),
})
export type GeoReverseBody = z.input<typeof geoReverseBodySchema>

/** `POST /web/geo/reverse` answer. */
export const geoReverseDatumSchema = z.object({
  location: latLngSchema,
  /** A readable address; the coordinates when the point is in no country and near no place. */
  address: z.string(),
  countryCode: z.string().nullable(),
  countryName: z.string().nullable(),
  nearestPlace: z
    .object({ id: z.string(), name: z.string(), distanceMeters: z.number() })
    .nullable(),
})
export type GeoReverseDatum = z.infer<typeof geoReverseDatumSchema>

/**
 * `GET /web/publicselect/mapConfig` answer (public): the map style the picker uses. `styleUrl`
 * is the configured MAP_STYLE_URL through the server's map proxy (a signed address relative to
 * the server, `/web/mapproxy/…`), or null for the offline style.
 */
export const mapConfigDatumSchema = z.object({ styleUrl: z.string().nullable() })
export type MapConfigDatum = z.infer<typeof mapConfigDatumSchema>

/**
 * Colours of the offline map style (decisions.md "Maps"), drawn by the console's MapLibre style
 * (src/components/map-picker/offline-style.ts) and by the offline package's viewer.
 */
export const offlineMapColors = {
  water: '#c6dbee',
  land: '#f5f2eb',
  border: '#a79f92',
  place: '#51606f',
  label: '#2c3640',
  halo: '#ffffff',
} as const

/** Where the offline map style's GeoJSON sources are served (GET, public, cacheable). */
export const offlineMapDataPaths = {
  countries: '/web/maps/countries.geojson',
  places: '/web/maps/places.geojson',
} as const

/** Properties of each feature of `/web/maps/places.geojson`. */
export interface MapPlaceProperties {
  id: string
  nameEn: string
  nameZh: string
  nameKo: string
  population: number
  /** 0 for capitals and megacities … 3 for small places, to size circles and pick labels. */
  rank: number
}

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const geoRoutes = {
  findAreaJson: webRoute({
    method: 'POST',
    path: '/web/publicselect/findAreaJson',
    auth: 'public',
    summary: 'The child regions of a code (0: the provinces), China’s official divisions',
    description:
      'Four levels (province, city, district, street/town); a city without districts lists its ' +
      'towns directly. Data: NBS 2023 codes (modood/Administrative-divisions-of-China, WTFPL).',
    body: findAreaJsonBodySchema,
    datum: findAreaJsonDatumSchema,
  }),
  search: webRoute({
    method: 'POST',
    path: '/web/geo/search',
    auth: 'user',
    summary: 'Find places and China’s divisions by name',
    description:
      'Offline over shipped data; with GEOCODER_URL set, the online geocoder answers first ' +
      'and the offline one when it fails, times out or finds nothing.',
    body: geoSearchBodySchema,
    datum: geoSearchDatumSchema,
  }),
  reverse: webRoute({
    method: 'POST',
    path: '/web/geo/reverse',
    auth: 'user',
    summary: 'The address of a point: nearest place and the country containing it',
    description: 'Online first when GEOCODER_URL is set, offline otherwise or on failure.',
    body: geoReverseBodySchema,
    datum: geoReverseDatumSchema,
  }),
  mapConfig: webRoute({
    method: 'GET',
    path: '/web/publicselect/mapConfig',
    auth: 'public',
    summary: 'How the map picker draws: an online style address, or null for the offline style',
    description:
      'The address is MAP_STYLE_URL through the map proxy (`/web/mapproxy/…`, signed): the page may only talk to this server.',
    datum: mapConfigDatumSchema,
  }),
  keepRegion: webRoute({
    method: 'POST',
    path: '/web/mapproxy/keepRegion',
    auth: 'editor',
    summary:
      'Keep an online style’s tiles over an area and zoom range in the map cache (for offline use)',
    description:
      'Fetches the style, its TileJSON and every tile of its raster and vector sources inside the area into DATA_DIR/map-cache, within MAP_KEEP_REGION_MAX_TILES and MAP_CACHE_LIMIT_MB; the region is then drawn with no network.',
    body: keepMapRegionBodySchema,
    datum: keepMapRegionDatumSchema,
  }),
}
