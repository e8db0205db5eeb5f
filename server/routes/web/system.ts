import type { FastifyInstance } from 'fastify'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { appVersion } from '../../version'
import { systemRoutes } from '../../../contract/system'

/** Health and the API description. */
export function registerSystemRoutes(app: FastifyInstance): void {
  defineRoute(app, systemRoutes.health, {
    handler: async () => {
      const { database } = app.deps
      try {
        await database.ping()
      } catch (error) {
        app.log.error({ err: error }, 'health check: database does not answer')
        throw new AppError('unavailable', 'system.databaseDown')
      }
      return { status: 'ok' as const, database: database.dialect, version: appVersion }
    },
  })

  // Served raw, not in an envelope: OpenAPI tools read the document itself.
  app.get('/web/openapi.json', { config: { auth: 'public' } }, async () =>
    app.openApi.document({ title: 'Twinscape /web/ API', version: appVersion }),
  )
}
