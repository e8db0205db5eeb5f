import type { FastifyInstance } from 'fastify'
import { locationRoutes } from '../../../contract/location'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOrNullOf } from './project-caller'
import { removeRecordById } from './record-handlers'

/** Anchor points of building models and city tilesets (issue 18): the `/poi` location mapping. */
export function registerLocationRoutes(app: FastifyInstance, services: ServerServices): void {
  const { locationAnchors } = services
  defineRoute(app, locationRoutes.getLocationMapping, {
    handler: ({ body, user, request }) =>
      locationAnchors.list(
        callerOrNullOf(request, user, body.project_token),
        body.project_id,
        body.target,
      ),
  })
  defineRoute(app, locationRoutes.addLocationMapping, {
    handler: ({ body, user }) => locationAnchors.add(user, body),
  })
  defineRoute(app, locationRoutes.updateLocationMapping, {
    handler: ({ body, user }) => locationAnchors.update(user, body),
  })
  defineRoute(app, locationRoutes.deleteLocationMapping, {
    handler: removeRecordById(locationAnchors),
  })
}
