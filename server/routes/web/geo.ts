import type { FastifyInstance } from 'fastify'
import {
  geoReverseBodySchema,
  geoReverseDatumSchema,
  geoSearchBodySchema,
  geoSearchDatumSchema,
  type MapPlaceProperties,
  mapConfigDatumSchema,
  offlineMapDataPaths,
} from '../../../contract/geo'
import { findAreaJsonBodySchema, findAreaJsonDatumSchema } from '../../../contract/region'
import { AppError } from '../../http/app-error'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { type Place, shippedGeocoderInstance } from '../../modules/geo/geocoder'
import { shippedRegions } from '../../modules/geo/regions'

/** Rank for map styling: 0 capitals and megacities … 3 small places. */
function placeRank(place: Place): number {
  if (place.featureClass.startsWith('Admin-0 capital') || place.population >= 10_000_000) return 0
  if (place.population >= 3_000_000) return 1
  if (place.population >= 500_000) return 2
  return 3
}

/**
 * Region cascade (SPEC §7 `/publicselect/findAreaJson`), geocoding for the map picker (through
 * `geocoding`: offline, or online with an offline fallback) and the offline map's data.
 */
export function registerGeoRoutes(
  app: FastifyInstance,
  { geocoding, mapProxy }: Pick<ServerServices, 'geocoding' | 'mapProxy'>,
): void {
  const { mapStyleUrl } = app.deps.config

  defineRoute(app, {
    method: 'POST',
    url: '/web/publicselect/findAreaJson',
    auth: 'public',
    summary: 'The child regions of a code (0: the provinces), China’s official divisions',
    description:
      'Four levels (province, city, district, street/town); a city without districts lists its ' +
      'towns directly. Data: NBS 2023 codes (modood/Administrative-divisions-of-China, WTFPL).',
    body: findAreaJsonBodySchema,
    datum: findAreaJsonDatumSchema,
    handler: ({ body }) => {
      const children = shippedRegions().childrenOf(body.codeid)
      if (!children) throw new AppError('notFound', 'region.notFound', { code: body.codeid })
      return children
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/geo/search',
    auth: 'user',
    summary: 'Find places and China’s divisions by name',
    description:
      'Offline over shipped data; with GEOCODER_URL set, the online geocoder answers first ' +
      'and the offline one when it fails, times out or finds nothing.',
    body: geoSearchBodySchema,
    datum: geoSearchDatumSchema,
    handler: ({ body }) => geocoding.search(body.q, { language: body.language, limit: body.limit }),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/geo/reverse',
    auth: 'user',
    summary: 'The address of a point: nearest place and the country containing it',
    description: 'Online first when GEOCODER_URL is set, offline otherwise or on failure.',
    body: geoReverseBodySchema,
    datum: geoReverseDatumSchema,
    handler: ({ body }) => geocoding.reverse({ lat: body.lat, lng: body.lng }, body.language),
  })

  defineRoute(app, {
    method: 'GET',
    url: '/web/publicselect/mapConfig',
    auth: 'public',
    summary: 'How the map picker draws: an online style address, or null for the offline style',
    description:
      'The address is MAP_STYLE_URL through the map proxy (`/web/mapproxy/…`, signed): the page may only talk to this server.',
    datum: mapConfigDatumSchema,
    handler: async () => {
      if (mapStyleUrl === undefined) return { styleUrl: null }
      return { styleUrl: mapProxy.styleAddress(mapStyleUrl) }
    },
  })

  // GeoJSON sources of the offline map style, built once and cached by browsers for a day.
  let countriesJson: string | undefined
  let placesJson: string | undefined
  app.get(
    offlineMapDataPaths.countries,
    { config: { auth: 'public' } },
    async (_request, reply) => {
      countriesJson ??= JSON.stringify(shippedGeocoderInstance().countriesGeoJson())
      return reply
        .type('application/geo+json')
        .header('cache-control', 'public, max-age=86400')
        .send(countriesJson)
    },
  )
  app.get(offlineMapDataPaths.places, { config: { auth: 'public' } }, async (_request, reply) => {
    placesJson ??= JSON.stringify({
      type: 'FeatureCollection',
      features: shippedGeocoderInstance()
        .places()
        .map((place) => ({
          type: 'Feature',
          properties: {
            id: place.id,
            nameEn: place.nameEn,
            nameZh: place.nameZh,
            nameKo: place.nameKo,
            population: place.population,
            rank: placeRank(place),
          } satisfies MapPlaceProperties,
          geometry: { type: 'Point', coordinates: [place.lng, place.lat] },
        })),
    })
    return reply
      .type('application/geo+json')
      .header('cache-control', 'public, max-age=86400')
      .send(placesJson)
  })
}
