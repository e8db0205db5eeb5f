import type { FastifyInstance } from 'fastify'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { appVersion } from '../../version'
import { embeddedProductRoutes } from '../../../contract/embedded-products'
import { systemRoutes } from '../../../contract/system'
import { embeddedProductsOf } from '../../modules/iot/embedded-products'

/**
 * How long a database that answered a health check counts as up: health is the one call no
 * budget refuses (server/plugins/refusal-budget.ts), so a client asking it in a loop costs the
 * database at most one query a second, and a monitor polling every second still sees every
 * outage within a second.
 */
const databaseUpForMs = 1_000

/** Health, the API description and the embedded products' addresses. */
export function registerSystemRoutes(app: FastifyInstance): void {
  let databaseAnsweredAtMs = Number.NEGATIVE_INFINITY
  defineRoute(app, systemRoutes.health, {
    handler: async () => {
      const { database, clock } = app.deps
      if (clock.nowMs() - databaseAnsweredAtMs >= databaseUpForMs) {
        try {
          await database.ping()
        } catch (error) {
          app.log.error({ err: error }, 'health check: database does not answer')
          throw new AppError('unavailable', 'system.databaseDown')
        }
        databaseAnsweredAtMs = clock.nowMs()
      }
      const mqtt = app.deps.services.mqtt.status()
      return {
        status: 'ok' as const,
        database: database.dialect,
        version: appVersion,
        iot: {
          http: true as const,
          mqtt: mqtt.state,
          mqttPort: mqtt.port ?? null,
          mqttReason: mqtt.reason ?? null,
        },
      }
    },
  })

  // the console's /tbPage pages and the shadow-render editor page (issue 17 item 9)
  defineRoute(app, embeddedProductRoutes.embeddedProducts, {
    handler: async () => embeddedProductsOf(app.deps.config.embeddedProducts),
  })

  // Served raw, not in an envelope: OpenAPI tools read the document itself.
  app.get('/web/openapi.json', { config: { auth: 'public' } }, async () =>
    app.openApi.document({ title: 'Twinscape /web/ API', version: appVersion }),
  )
}
