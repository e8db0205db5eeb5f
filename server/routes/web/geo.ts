import type { FastifyInstance } from 'fastify'
import {
  geoReverseBodySchema,
  geoReverseDatumSchema,
  geoSearchBodySchema,
  geoSearchDatumSchema,
  type MapPlaceProperties,
  offlineMapDataPaths,
} from '../../../contract/geo'
import { findAreaJsonBodySchema, findAreaJsonDatumSchema } from '../../../contract/region'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { type Place, shippedGeocoderInstance } from '../../modules/geocoder'
import { shippedRegions } from '../../modules/regions'

/** Rank for map styling: 0 capitals and megacities … 3 small places. */
function placeRank(place: Place): number {
  if (place.featureClass.startsWith('Admin-0 capital') || place.population >= 10_000_000) return 0
  if (place.population >= 3_000_000) return 1
  if (place.population >= 500_000) return 2
  return 3
}

/** Region cascade (SPEC §7 `/publicselect/findAreaJson`), offline geocoding and map data. */
export function registerGeoRoutes(app: FastifyInstance): void {
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
      if (!children) throw new AppError('notFound', `No region has the code ${body.codeid}.`)
      return children
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/geo/search',
    auth: 'user',
    summary: 'Find places and China’s divisions by name, offline',
    body: geoSearchBodySchema,
    datum: geoSearchDatumSchema,
    handler: ({ body }) =>
      shippedGeocoderInstance().search(body.q, { language: body.language, limit: body.limit }),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/geo/reverse',
    auth: 'user',
    summary: 'The address of a point: nearest place and the country containing it, offline',
    body: geoReverseBodySchema,
    datum: geoReverseDatumSchema,
    handler: ({ body }) =>
      shippedGeocoderInstance().reverse({ lat: body.lat, lng: body.lng }, body.language),
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
