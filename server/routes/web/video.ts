import type { FastifyInstance } from 'fastify'
import { videoRoutes as routes } from '../../../contract/video'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOf } from './project-caller'

/** Surveillance video (issue 17, contract/video.ts). */
export function registerVideoRoutes(
  app: FastifyInstance,
  { cameras }: Pick<ServerServices, 'cameras'>,
): void {
  defineRoute(app, routes.findCameras, {
    handler: ({ body, user, request }) =>
      cameras.list(callerOf(request, user, body.project_token), body.projectid),
  })
}
