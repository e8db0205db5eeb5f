import type { FastifyInstance } from 'fastify'
import { geoRoutes, offlineMapDataPaths, type MapPlaceProperties } from '../../../contract/geo'
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

  defineRoute(app, geoRoutes.findAreaJson, {
    handler: ({ body }) => {
      const children = shippedRegions().childrenOf(body.codeid)
      if (!children) throw new AppError('notFound', 'region.notFound', { code: body.codeid })
      return children
    },
  })

  defineRoute(app, geoRoutes.search, {
    handler: ({ body }) => geocoding.search(body.q, { language: body.language, limit: body.limit }),
  })

  defineRoute(app, geoRoutes.reverse, {
    handler: ({ body }) => geocoding.reverse({ lat: body.lat, lng: body.lng }, body.language),
  })

  defineRoute(app, geoRoutes.mapConfig, {
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
