import type { FastifyInstance } from 'fastify'
import {
  mergeMaxFloors,
  mergeMaxMaps,
  modelConfigRoutes,
  modelDetailRoutes,
  modelDocumentFilesRoot,
  modelDocumentMaxBytes,
  modelDocumentMaxFilesPerUpload,
  structureAddRoutes,
} from '../../../contract/model-config'
import { conversionSourceMaxBytes } from '../../../contract/building'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { attachmentDisposition } from '../../http/attachment'
import { defineRoute } from '../../http/define-route'
import { sendNamedFile, sendStoredFile } from '../../modules/tilesets/send-file'
import { removeRecordById } from './record-handlers'

const uuidPattern = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.zip$/
const documentIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Model configuration tools (SPEC §2 /modelConfig): the structure merge and the structure add
 * as jobs with their status (the add's preview before it), and the download of a finished
 * merge's ZIP; model details with their documents, and a document's download.
 */
export function registerModelConfigRoutes(
  app: FastifyInstance,
  {
    structureMerges,
    structureMergeFiles,
    structureAdds,
    modelDetails,
  }: Pick<
    ServerServices,
    'structureMerges' | 'structureMergeFiles' | 'structureAdds' | 'modelDetails'
  >,
): void {
  defineRoute(app, modelDetailRoutes.findCompanyAndModel, {
    handler: ({ body, user }) => modelDetails.companiesAndModels(user, body.project_id),
  })
  defineRoute(app, modelDetailRoutes.findModelInfoOne, {
    handler: ({ body, user }) => modelDetails.findOne(user, body.model_id),
  })
  defineRoute(app, modelDetailRoutes.addModelDetail, {
    handler: ({ body, user }) => modelDetails.add(user, body),
  })
  defineRoute(app, modelDetailRoutes.updateModelDetail, {
    handler: ({ body, user }) => modelDetails.update(user, body),
  })
  defineRoute(app, modelDetailRoutes.deleteModelDetail, {
    handler: removeRecordById(modelDetails),
  })
  defineRoute(app, modelDetailRoutes.uploadModelDocument, {
    files: { maxFiles: modelDocumentMaxFilesPerUpload, maxFileSizeBytes: modelDocumentMaxBytes },
    handler: ({ body, user, files }) => modelDetails.attachDocuments(user, body.detail_id, files),
  })
  defineRoute(app, modelDetailRoutes.deleteModelDocument, {
    handler: ({ body, user }) => modelDetails.removeDocument(user, body.id),
  })
  // Raw bytes, not an envelope: a plain link downloads a document with the grant the details
  // answer put in its address; without one, a signed-in caller who may change the project.
  // The address holds no name (route parameters are capped at 100 characters, and a Korean
  // character takes 9 once encoded): the name comes with Content-Disposition.
  app.get<{ Params: { id: string }; Querystring: { grant?: unknown } }>(
    `${modelDocumentFilesRoot}:id`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      if (!documentIdPattern.test(request.params.id)) {
        throw new AppError('notFound', 'file.notFound')
      }
      const grant = request.query?.grant
      const reader =
        typeof grant === 'string' ? { grant } : request.user ? { user: request.user } : null
      if (!reader) throw new AppError('sessionTimeout', 'auth.sessionTimeout')
      const served = await modelDetails.openDocument(reader, request.params.id)
      // saved, and if a browser shows it anyway, sandboxed: a hostile PDF or SVG-laden office
      // file cannot run as the console on this origin (a redirect sends it from the store's)
      reply.header('content-security-policy', 'sandbox')
      // a document's row never changes its bytes; a new version is a new document
      return sendStoredFile(request, reply, app.deps.storage, {
        ...served,
        cacheControl: 'private, max-age=31536000, immutable',
      })
    },
  )

  defineRoute(app, modelConfigRoutes.merge, {
    files: {
      // the shell, the preview, the floors and the maps of both
      maxFiles: 2 + mergeMaxFloors + mergeMaxMaps,
      maxFileSizeBytes: conversionSourceMaxBytes,
    },
    handler: ({ body, user, files }) => structureMerges.start(user, body, files),
  })

  defineRoute(app, structureAddRoutes.addPreview, {
    handler: ({ body, user }) => structureAdds.preview(user, body),
  })
  defineRoute(app, structureAddRoutes.add, {
    files: {
      // the shell, the floors and the maps of both
      maxFiles: 1 + mergeMaxFloors + mergeMaxMaps,
      maxFileSizeBytes: conversionSourceMaxBytes,
    },
    handler: ({ body, user, files }) => structureAdds.start(user, body, files),
  })
  defineRoute(app, structureAddRoutes.addStatus, {
    handler: ({ body, user }) => structureAdds.status(user, body.id),
  })

  defineRoute(app, modelConfigRoutes.mergeStatus, {
    handler: ({ body, user }) => structureMerges.status(user, body.id),
  })

  // Raw bytes, not an envelope: the ZIP of a finished merge, public by its random id like a
  // converted model, so a plain link downloads it.
  app.get<{ Params: { name: string } }>(
    '/web/modelConfig/files/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const match = uuidPattern.exec(request.params.name)
      if (!match) throw new AppError('notFound', 'file.notFound')
      const result = await structureMerges.resultFile(match[1]!)
      // from the store, with Range (a large ZIP's download resumes), or a signed redirect
      return sendNamedFile(request, reply, structureMergeFiles, {
        name: result.name,
        contentType: 'application/zip',
        contentDisposition: attachmentDisposition(result.downloadName),
        cacheControl: 'private, max-age=31536000, immutable',
        etagSeed: match[1]!.slice(0, 8),
        missing: 'file.notFound',
      })
    },
  )
}
