import type { FastifyInstance } from 'fastify'
import {
  mergeMaxFloors,
  mergeMaxMaps,
  modelConfigRoutes,
  modelDetailRoutes,
  structureAddRoutes,
} from '../../../contract/model-config'
import { conversionSourceMaxBytes } from '../../../contract/building'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { removeRecordById } from './record-handlers'

const uuidPattern = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.zip$/

/**
 * Model configuration tools (SPEC §2 /modelConfig): the structure merge and the structure add
 * as jobs with their status (the add's preview before it), and the download of a finished
 * merge's ZIP.
 */
export function registerModelConfigRoutes(
  app: FastifyInstance,
  {
    structureMerges,
    structureAdds,
    modelDetails,
  }: Pick<ServerServices, 'structureMerges' | 'structureAdds' | 'modelDetails'>,
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
      const result = await structureMerges.openResult(match[1]!)
      const ascii = result.downloadName.replace(/[^\x20-\x7e]|["\\]/g, '_')
      reply.type('application/zip')
      reply.header(
        'content-disposition',
        `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(result.downloadName)}`,
      )
      reply.header('content-length', result.sizeBytes)
      reply.header('cache-control', 'private, max-age=31536000, immutable')
      return reply.send(result.stream)
    },
  )
}
