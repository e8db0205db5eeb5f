import type { FastifyInstance } from 'fastify'
import { viewTourRoutes } from '../../../contract/view-tour'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOrNullOf } from './project-caller'

/** The city's view tour (issue 18): `/viewTour/findall|add|del`. */
export function registerViewTourRoutes(app: FastifyInstance, services: ServerServices): void {
  const { viewTour } = services
  defineRoute(app, viewTourRoutes.viewTourFindAll, {
    handler: ({ body, user, request }) =>
      viewTour.list(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, viewTourRoutes.viewTourAdd, {
    handler: ({ body, user }) => viewTour.add(user, body),
  })
  defineRoute(app, viewTourRoutes.viewTourDel, {
    handler: async ({ body, user }) => {
      await viewTour.remove(user, body.id)
      return null
    },
  })
}
