import type { FastifyInstance } from 'fastify'
import { modelCopyRoutes as routes } from '../../../contract/model-copy'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'

/** Model copy (contract/model-copy.ts): a city model copied with its POIs. */
export function registerModelCopyRoutes(
  app: FastifyInstance,
  { modelCopy }: Pick<ServerServices, 'modelCopy'>,
): void {
  defineRoute(app, routes.copyModel, {
    handler: ({ body, user }) => modelCopy.copy(user, body),
  })
}
