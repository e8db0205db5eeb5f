import type { FastifyInstance } from 'fastify'
import { investigationRoutes as routes } from '../../../contract/investigations'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOf } from './project-caller'

/** Inspection records of alarms and POIs (issue 17 item 7, contract/investigations.ts). */
export function registerInvestigationRoutes(
  app: FastifyInstance,
  { investigations }: Pick<ServerServices, 'investigations'>,
): void {
  defineRoute(app, routes.addInvestigation, {
    handler: ({ body, user }) => investigations.add(user, body),
  })
  defineRoute(app, routes.updateInvestigation, {
    handler: ({ body, user }) => investigations.update(user, body),
  })
  defineRoute(app, routes.deleteInvestigation, {
    handler: ({ body, user }) => investigations.remove(user, body.id),
  })
  defineRoute(app, routes.findInvestigations, {
    handler: ({ body, user, request }) =>
      investigations.find(callerOf(request, user, body.project_token), body),
  })
}
