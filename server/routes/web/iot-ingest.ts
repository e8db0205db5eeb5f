import type { FastifyError, FastifyInstance } from 'fastify'
import { iotLimits } from '../../../contract/iot'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { okEnvelope } from '../../http/envelope'
import { parseIngestJson } from '../../modules/iot/ingest-payload'
import { sendError } from '../../plugins/errors'

/** The device API's paths (ThingsBoard's, so existing gateways can point at the product). */
export const deviceApiPaths = {
  telemetry: '/api/v1/:token/telemetry',
  attributes: '/api/v1/:token/attributes',
} as const

/**
 * The device HTTP API (issue 17, contract/iot.ts): `POST /api/v1/{token}/telemetry` and
 * `/attributes`. Devices authenticate by the token in the path, not a user token, and send JSON
 * whatever content type their HTTP stack sets (curl's default is form-encoded), so these routes
 * live in their own scope with one parser that takes any body as text, at most
 * {@link iotLimits.maxBodyBytes}. Answers are the envelope with honest HTTP statuses (200,
 * 400, 401, 413, 429), which is all ThingsBoard clients look at.
 */
export function registerIotIngestRoutes(
  app: FastifyInstance,
  { ingest }: Pick<ServerServices, 'ingest'>,
): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body)
    })
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      // the limit named, rather than the generic "body too large"
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        sendError(
          request,
          reply,
          new AppError('tooLarge', 'iot.bodyTooLarge', { maximum: iotLimits.maxBodyBytes }),
        )
        return
      }
      sendError(request, reply, error)
    })
    const bodyOf = (body: unknown) => parseIngestJson(typeof body === 'string' ? body : '')
    scope.post<{ Params: { token: string } }>(
      deviceApiPaths.telemetry,
      { bodyLimit: iotLimits.maxBodyBytes },
      async (request) =>
        okEnvelope(await ingest.telemetry(request.params.token, bodyOf(request.body))),
    )
    scope.post<{ Params: { token: string } }>(
      deviceApiPaths.attributes,
      { bodyLimit: iotLimits.maxBodyBytes },
      async (request) =>
        okEnvelope(await ingest.attributes(request.params.token, bodyOf(request.body))),
    )
  })
}
