import type { FastifyInstance } from 'fastify'
import { viewTourRoutes } from '../../../contract/view-tour'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { listProjectRecords, removeRecordById } from './record-handlers'

/** The city's view tour (issue 18): `/viewTour/findall|add|del`. */
export function registerViewTourRoutes(app: FastifyInstance, services: ServerServices): void {
  const { viewTour } = services
  defineRoute(app, viewTourRoutes.viewTourFindAll, {
    handler: listProjectRecords(viewTour),
  })
  defineRoute(app, viewTourRoutes.viewTourAdd, {
    handler: ({ body, user }) => viewTour.add(user, body),
  })
  defineRoute(app, viewTourRoutes.viewTourDel, {
    handler: removeRecordById(viewTour),
  })
}
