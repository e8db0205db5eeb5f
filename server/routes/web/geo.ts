import type { FastifyInstance } from 'fastify'
import { geoRoutes, offlineMapDataPaths } from '../../../contract/geo'
import { AppError } from '../../http/app-error'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { offlineMapData } from '../../modules/geo/offline-map-data'
import { shippedRegions } from '../../modules/geo/regions'

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
  app.get(offlineMapDataPaths.countries, { config: { auth: 'public' } }, async (_request, reply) =>
    reply
      .type('application/geo+json')
      .header('cache-control', 'public, max-age=86400')
      .send(offlineMapData.countries()),
  )
  app.get(offlineMapDataPaths.places, { config: { auth: 'public' } }, async (_request, reply) =>
    reply
      .type('application/geo+json')
      .header('cache-control', 'public, max-age=86400')
      .send(offlineMapData.places()),
  )
}
