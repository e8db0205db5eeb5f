import type { FastifyInstance } from 'fastify'
import {
  getSbkFilePath,
  getSbkFileQuerySchema,
  offlinePackageRoutes,
} from '../../../contract/offline-package'
import type { ServerServices } from '../../deps'
import { defineRoute, parseInput } from '../../http/define-route'
import { sendNamedFile } from '../../modules/tilesets/send-file'

/**
 * The offline package (issue 20 item 6, SPEC §7 "Download"): its state and build, and the zip
 * itself with Range support, so an interrupted download of a large package resumes.
 */
export function registerOfflinePackageRoutes(
  app: FastifyInstance,
  { offlinePackages }: Pick<ServerServices, 'offlinePackages'>,
): void {
  defineRoute(app, offlinePackageRoutes.checkSbkDownloadState, {
    handler: ({ body, user }) => offlinePackages.state(user, body.project_id),
  })
  defineRoute(app, offlinePackageRoutes.buildSbkFile, {
    handler: ({ body, user }) => offlinePackages.build(user, body.project_id, body.variant),
  })
  defineRoute(app, offlinePackageRoutes.cancelSbkBuild, {
    handler: ({ body, user }) => offlinePackages.cancel(user, body.project_id, body.package_id),
  })

  // Raw bytes, not an envelope: a plain link (no token header) opens it, so the signed
  // `grant` of the address checkSbkDownloadState handed out is what admits the reader.
  app.get(getSbkFilePath, { config: { auth: 'public' } }, async (request, reply) => {
    const query = parseInput(getSbkFileQuerySchema, request.query)
    const file = await offlinePackages.openFile({
      projectId: query.project_id,
      reqPaths: query.reqPaths,
      grant: query.grant,
    })
    const disposition = query.enController === '0' ? 'inline' : 'attachment'
    // from the store: proxied with Range and ETag, or redirected to its signed address, which
    // answers the same type, caching and name (and Range) itself
    return sendNamedFile(request, reply, file.files, {
      name: file.name,
      contentType: 'application/zip',
      contentDisposition: `${disposition}; filename="${file.fileName}"`,
      // a package's file never changes (a rebuild is a new file name)
      cacheControl: 'private, max-age=0, must-revalidate',
      etagSeed: file.packageId.slice(0, 8),
      missing: 'file.notFound',
    })
  })
}
