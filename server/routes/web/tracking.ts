import type { FastifyError, FastifyInstance } from 'fastify'
import { trackingRoutes } from '../../../contract/tracking'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { sendError } from '../../plugins/errors'
import { callerOrNullOf } from './project-caller'

/** Where positioned objects report (beside the device API's telemetry and attributes). */
export const positionReportPath = '/api/v1/:token/position'

/** A position report is a few numbers: 4 KiB is plenty. */
const positionBodyMaxBytes = 4096

/**
 * Electronic fences and GPS positioning (issue 18): `/web/fence/*`, the location POIs
 * (`/web/poi/creatLocationPoi|selLocationPoi|delLocationPoi`), `/web/tracked/track`, and the
 * position reports of `POST /api/v1/{token}/position`, which authenticate by the token in the
 * path and take any content type as JSON text (as the telemetry route does).
 */
export function registerTrackingRoutes(app: FastifyInstance, services: ServerServices): void {
  const { tracking } = services
  defineRoute(app, trackingRoutes.fenceSet, {
    handler: async ({ body, user }) => {
      await tracking.setFence(user, body.draw_id, body.is_fence)
      return null
    },
  })
  defineRoute(app, trackingRoutes.fenceFindAll, {
    handler: ({ body, user, request }) =>
      tracking.fences(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, trackingRoutes.fenceEvents, {
    handler: ({ body, user, request }) =>
      tracking.events(
        callerOrNullOf(request, user, body.project_token),
        body.project_id,
        body.limit,
      ),
  })
  defineRoute(app, trackingRoutes.creatLocationPoi, {
    handler: ({ body, user }) => tracking.addObject(user, body),
  })
  defineRoute(app, trackingRoutes.delLocationPoi, {
    handler: async ({ body, user }) => {
      await tracking.removeObject(user, body.id)
      return null
    },
  })
  defineRoute(app, trackingRoutes.selLocationPoi, {
    handler: ({ body, user, request }) =>
      tracking.objects(callerOrNullOf(request, user, body.project_token), body.project_id, body),
  })
  defineRoute(app, trackingRoutes.trackedTrack, {
    handler: ({ body, user, request }) =>
      tracking.track(callerOrNullOf(request, user, body.project_token), body.id, body),
  })

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body)
    })
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        sendError(request, reply, new AppError('tooLarge', 'tracking.badReport'))
        return
      }
      sendError(request, reply, error)
    })
    scope.post<{ Params: { token: string } }>(
      positionReportPath,
      { bodyLimit: positionBodyMaxBytes },
      async (request) => {
        const text = typeof request.body === 'string' ? request.body : ''
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          body = undefined
        }
        return okEnvelope(await tracking.report(request.params.token, body))
      },
    )
  })
}
