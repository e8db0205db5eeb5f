import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { resumableUploadPath } from '../../../contract/resumable-upload'
import { resumableUploadsOf } from '../../modules/resumable-uploads/resumable-uploads'

/** How often expired resumable uploads are looked for (also once when the app is ready). */
const expirySweepIntervalMs = 3_600_000

/**
 * The tus 1.0 endpoint `/web/upload/resumable` (contract/resumable-upload.ts). Not defineRoute:
 * tus answers with headers and plain text, not envelopes, and must read the request body itself
 * as a stream. The auth hook still runs first (editor), so an unauthorised PATCH is refused
 * before a byte of it is read.
 */
export function registerResumableUploadRoutes(app: FastifyInstance): void {
  const uploads = resumableUploadsOf(app)

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.user !== null) uploads.bindUser(request.raw, request.user.id)
    // tus writes the answer itself; Fastify must not send one too.
    reply.hijack()
    try {
      await uploads.handle(request.raw, reply.raw)
    } catch (error) {
      request.log.error({ err: error }, 'resumable upload request failed')
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain' })
      reply.raw.end('Internal error\n')
    }
  }

  // Encapsulated: the parsers below apply to these routes only.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    // The body stays an unread stream for tus (application/offset+octet-stream, or anything
    // else a client sends): nothing is buffered, so memory stays flat for any upload size.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined))
    for (const url of [resumableUploadPath, `${resumableUploadPath}/:uploadId`]) {
      scope.route({
        method: ['POST', 'HEAD', 'PATCH', 'DELETE'],
        url,
        config: { auth: 'editor' },
        handler: handle,
      })
      // Capability discovery (Tus-Version, Tus-Max-Size) needs no sign-in.
      scope.route({ method: 'OPTIONS', url, config: { auth: 'public' }, handler: handle })
    }
  })

  let timer: NodeJS.Timeout | undefined
  const sweep = async () => {
    try {
      const removed = await uploads.sweepExpired()
      if (removed > 0) app.log.info({ removed }, 'expired resumable uploads removed')
    } catch (error) {
      app.log.warn({ err: error }, 'sweep of expired resumable uploads failed')
    }
  }
  app.addHook('onReady', async () => {
    await sweep()
    timer = setInterval(sweep, expirySweepIntervalMs)
    timer.unref()
  })
  app.addHook('onClose', async () => {
    if (timer !== undefined) clearInterval(timer)
  })
}
