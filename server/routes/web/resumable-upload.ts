import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { resumableUploadPath } from '../../../contract/resumable-upload'
import type { ServerServices } from '../../deps'

/**
 * The tus 1.0 endpoint `/web/upload/resumable` (contract/resumable-upload.ts). Not defineRoute:
 * tus answers with headers and plain text, not envelopes, and must read the request body itself
 * as a stream. The auth hook still runs first (editor), so an unauthorised PATCH is refused
 * before a byte of it is read.
 */
export function registerResumableUploadRoutes(
  app: FastifyInstance,
  { resumableUploads: uploads }: Pick<ServerServices, 'resumableUploads'>,
): void {
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
}
