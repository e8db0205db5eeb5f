import type { FastifyInstance } from 'fastify'
import { drawBodyMaxBytes, drawMaxPoints, drawRoutes } from '../../../contract/draw'
import { maxInputDepth, maxInputKeys } from '../../../contract/json-text'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOrNullOf } from './project-caller'
import { removeRecordById } from './record-handlers'

/**
 * A drawing's points are values of their own: 100,000 [lng, lat] pairs are 300,000 values (each
 * pair's array and its two numbers), past the API's default of 120,000 (contract/json-text.ts),
 * so add and update count to a bit more than that. Only editors reach these routes: the auth
 * hook refuses others first.
 */
const drawInputLimits = {
  maxDepth: maxInputDepth,
  maxKeys: maxInputKeys,
  maxValues: drawMaxPoints * 3 + 10_000,
}

/** Areas and paths of city projects (issue 18): `/areadraw/*` and `/findareadrawall`. */
export function registerDrawRoutes(app: FastifyInstance, services: ServerServices): void {
  const { draw } = services
  defineRoute(app, drawRoutes.areadrawAdd, {
    bodyLimitBytes: drawBodyMaxBytes,
    inputLimits: drawInputLimits,
    handler: ({ body, user }) => draw.add(user, body),
  })
  defineRoute(app, drawRoutes.areadrawUpdate, {
    bodyLimitBytes: drawBodyMaxBytes,
    inputLimits: drawInputLimits,
    handler: ({ body, user }) => draw.update(user, body),
  })
  defineRoute(app, drawRoutes.areadrawDel, {
    handler: removeRecordById(draw),
  })
  defineRoute(app, drawRoutes.areadrawFind, {
    handler: ({ body, user, request }) =>
      draw.find(callerOrNullOf(request, user, body.project_token), body.id),
  })
  defineRoute(app, drawRoutes.areadrawFindAll, {
    handler: ({ body, user, request }) =>
      draw.findAll(callerOrNullOf(request, user, body.project_token), body.project_id, body.kind),
  })
  defineRoute(app, drawRoutes.findAreaDrawAll, {
    handler: ({ body, user, request }) =>
      draw.names(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
}
