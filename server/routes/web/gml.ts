import type { FastifyInstance } from 'fastify'
import type { ServerServices } from '../../deps'
import { AppError, fieldError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { defineUploadRoute } from '../../http/upload-route'
import { sendStoredFile } from '../../modules/tilesets/send-file'
import { gmlIncomingDirectory, isGmlFileRefusal } from '../../modules/gml/gml.service'
import { callerOf } from './project-caller'
import { gmlRoutes } from '../../../contract/gml'

/**
 * The GML path of building projects (issue #6): upload (multipart or a finished resumable
 * upload), find, placement, and serving the file.
 */
export function registerGmlRoutes(
  app: FastifyInstance,
  { gml }: Pick<ServerServices, 'gml'>,
): void {
  const incomingDir = gmlIncomingDirectory(app.deps.config.dataDir)
  const maxSizeBytes = app.deps.config.gmlUploadLimitBytes
  // Not defineRoute: that puts every file into the shared store as it streams in, while a GML
  // file is checked first from a private temporary file, so a refused file never enters it.
  defineUploadRoute(app, gmlRoutes.uploadGml, {
    bodyLimit: 1_048_576,
    receive: (request) => ({
      incomingDirectory: incomingDir,
      maxFileBytes: maxSizeBytes,
      tooLargeError: () =>
        new AppError('tooLarge', 'gml.tooLarge', {
          limitMb: Math.round(maxSizeBytes / 1_048_576),
        }),
      // Fields sent before the file (as the web client does) let a wrong project be refused
      // before the file's bytes are read, or before a resumable upload is claimed.
      beforeFile: async (fieldsBefore) => {
        const projectId = fieldsBefore.find(([name]) => name === 'project_id')?.[1]
        if (projectId !== undefined) await gml.checkUploadAllowed(request.user!, projectId)
      },
    }),
    missingFileError: (request) =>
      request.isMultipart()
        ? fieldError('validation', 'file', 'validation.required')
        : fieldError('validation', 'upload_id', 'gml.uploadIdOrFile'),
    // A refused file is of no further use; anything else may succeed when tried again.
    isRefusal: isGmlFileRefusal,
    handler: ({ body, file, user }) =>
      gml.accept(user, body.project_id, {
        filePath: file.path,
        fileName: file.fileName,
        sizeBytes: file.sizeBytes,
      }),
  })

  defineRoute(app, gmlRoutes.findGmlPath, {
    handler: ({ body, user, request }) =>
      gml.find(callerOf(request, user, body.project_token), body.project_id),
  })

  defineRoute(app, gmlRoutes.updateGmlPlacement, {
    handler: ({ body, user }) =>
      gml.updatePlacement(user, {
        projectId: body.project_id,
        placement: body.placement,
        displayMode: body.display_mode,
      }),
  })

  // Raw bytes for the engine's fetch, which sends no headers: the `grant` findGmlPath put in the
  // address opens it (bound to the reader's project token, so revoking the token ends it).
  app.get<{ Params: { name: string }; Querystring: { grant?: unknown } }>(
    '/web/gml/files/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const grant = request.query?.grant
      const served = await gml.openFile(
        request.params.name,
        typeof grant === 'string' ? grant : undefined,
      )
      return sendStoredFile(request, reply, app.deps.storage, {
        ...served,
        cacheControl: 'private, max-age=31536000, immutable',
      })
    },
  )
}
