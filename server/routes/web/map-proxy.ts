import type { FastifyInstance } from 'fastify'
import type { CityServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { mapProxyPrefix } from '../../modules/map-proxy/style-rewrite'
import { geoRoutes } from '../../../contract/geo'

/**
 * The map proxy's one route: `GET /web/mapproxy/<grant>/<kind>/<origin>/<upstream path>?<query>`.
 * The page's CSP lets the browser talk only to this server, so online styles, their TileJSON,
 * sprites, glyphs and tiles come through here, fetched and cached by the server
 * (server/modules/map-proxy). Public like the tile addresses: the signed grant in the path is
 * what makes it answer, and only allowed, public hosts are ever contacted.
 */
export function registerMapProxyRoutes(
  app: FastifyInstance,
  { mapProxy }: Pick<CityServices, 'mapProxy'>,
): void {
  defineRoute(app, geoRoutes.keepRegion, {
    handler: async ({ body }) => {
      const kept = await mapProxy.keepRegion({
        styleUrl: body.style_url,
        west: body.west,
        south: body.south,
        east: body.east,
        north: body.north,
        minZoom: body.min_zoom,
        maxZoom: body.max_zoom,
      })
      return { tiles: kept.tiles, failed: kept.failed, cache_bytes: kept.cacheBytes }
    },
  })

  app.get<{ Params: { grant: string; kind: string; origin: string; '*': string } }>(
    `${mapProxyPrefix}/:grant/:kind/:origin/*`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      const { grant, kind, origin } = request.params
      // the raw path and query: MapLibre's percent-encoded font stacks must reach upstream as sent
      const head = `${mapProxyPrefix}/${grant}/${kind}/${origin}`
      const rawUrl = request.raw.url ?? ''
      const rest = rawUrl.startsWith(head) ? rawUrl.slice(head.length) : `/${request.params['*']}`
      const served = await mapProxy.serve({
        grant,
        kindSegment: kind,
        originSegment: origin,
        rest,
        serverOrigin: `${request.protocol}://${request.host}`,
      })
      if (served.isStale) reply.header('x-map-cache', 'stale')
      return reply
        .type(served.contentType)
        .header('cache-control', kind === 'r' ? 'private, max-age=86400' : 'private, max-age=600')
        .header('x-content-type-options', 'nosniff')
        .send(served.body)
    },
  )
}
