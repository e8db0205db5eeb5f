import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  buildingRoutes,
  conversionMaxFiles,
  conversionSourceMaxBytes,
  floorUploadMaxFiles,
  floorZipUploadMaxBytes,
  sbmUploadMaxBytes,
} from '../../../contract/building'
import type { ServerServices } from '../../deps'
import { AppError, fieldError } from '../../http/app-error'
import { defineRoute, type UploadedFile } from '../../http/define-route'
import type {
  FileReader,
  IncomingFile,
  ServedModelFile,
} from '../../modules/building/building.service'
import { readAll } from '../../modules/building/model-files'
import { claimResumableUpload } from '../../modules/resumable-uploads/claim-upload'
import { sendStoredFile } from '../../modules/tilesets/send-file'
import type { AuthUser } from '../../modules/accounts/users.service'
import { callerOf } from './project-caller'
import { createReadStream } from 'node:fs'

/**
 * The files of an upload request: its multipart files, or the finished resumable upload named
 * by `upload_id` (copied into the file store, then released), never both.
 */
async function incomingFilesOf(
  app: FastifyInstance,
  user: AuthUser,
  files: readonly UploadedFile[],
  uploadId: string | undefined,
): Promise<IncomingFile[]> {
  if (uploadId === undefined) {
    return files.map((file) => ({
      fileName: file.fileName,
      sha256: file.sha256,
      sizeBytes: file.sizeBytes,
    }))
  }
  if (files.length > 0) {
    await app.deps.services.building.releaseUnused(files.map((file) => file.sha256))
    throw fieldError('validation', 'upload_id', 'upload.filesOrUploadId')
  }
  const claimed = await claimResumableUpload(app, { userId: user.id, uploadId })
  try {
    const stored = await app.deps.storage.put(createReadStream(claimed.filePath))
    await claimed.release()
    return [{ fileName: claimed.fileName, sha256: stored.sha256, sizeBytes: stored.sizeBytes }]
  } catch (error) {
    await claimed.giveBack()
    throw error
  }
}

/** Who reads a file: the holder of a grant in its URL (what the engine's fetch has), else a caller. */
function fileReaderOf(request: FastifyRequest): FileReader {
  const grant = (request.query as { grant?: unknown } | undefined)?.grant
  if (typeof grant === 'string') return { grant }
  return callerOf(request, request.user, undefined, { fromQuery: true })
}

/**
 * Building models (SPEC §7 "Models", "Uploads"): the floor and shell uploads, model changes,
 * the scene description the engine loads, conversions, and the serving of model files.
 */
export function registerBuildingRoutes(
  app: FastifyInstance,
  { building, templateModels }: Pick<ServerServices, 'building' | 'templateModels'>,
): void {
  defineRoute(app, buildingRoutes.uploadZip, {
    files: {
      maxFiles: floorUploadMaxFiles,
      maxFileSizeBytes: floorZipUploadMaxBytes,
    },
    handler: async ({ body, user, files }) =>
      building.uploadFloorModels(
        user,
        body.project_id,
        await incomingFilesOf(app, user, files, body.upload_id),
      ),
  })

  defineRoute(app, buildingRoutes.configModelFileStructureReturnUrl, {
    // a model may come as a .gltf with its .bin and images; the manifest's 1 MB is checked later
    files: {
      maxFiles: conversionMaxFiles,
      maxFileSizeBytes: floorZipUploadMaxBytes,
    },
    handler: async ({ body, user, files }) =>
      building.uploadStructure(
        user,
        body.project_id,
        await incomingFilesOf(app, user, files, body.upload_id),
      ),
  })

  defineRoute(app, buildingRoutes.uploadandupdatemodel, {
    files: { maxFiles: 1, maxFileSizeBytes: sbmUploadMaxBytes },
    handler: async ({ body, user, files }) =>
      building.replaceModelFile(
        user,
        body.id,
        await incomingFilesOf(app, user, files, body.upload_id),
      ),
  })

  defineRoute(app, buildingRoutes.updateBimModel, {
    handler: ({ body, user }) => building.updateModel(user, body),
  })

  defineRoute(app, buildingRoutes.updateFloor, {
    handler: ({ body, user }) => building.updateFloor(user, body),
  })

  defineRoute(app, buildingRoutes.deleteBimModel, {
    handler: async ({ body, user }) => {
      await building.deleteModel(user, body.id)
      return null
    },
  })

  defineRoute(app, buildingRoutes.findModelInfo, {
    handler: ({ body, request }) =>
      building.modelInfo(
        callerOf(request, request.user, body.project_token, { fromQuery: true }),
        body.project_id,
      ),
  })

  defineRoute(app, buildingRoutes.createModelByCategory, {
    handler: ({ body, user }) => building.createFromConverted(user, body),
  })

  defineRoute(app, buildingRoutes.findmodelnum, {
    handler: ({ body, user }) => building.countModels(user, body.project_id),
  })

  defineRoute(app, buildingRoutes.updatemodelinfo, {
    handler: ({ body, user }) => building.updatePlacement(user, body),
  })

  defineRoute(app, buildingRoutes.uploadGltfForSbm, {
    files: {
      maxFiles: conversionMaxFiles,
      maxFileSizeBytes: conversionSourceMaxBytes,
    },
    handler: async ({ body, user, files }) => {
      const templateModelId = body.category_zip_uuid || undefined
      if (templateModelId !== undefined) {
        // a template model of someone else is refused before anything is converted
        try {
          await templateModels.checkOwned(user, templateModelId)
        } catch (error) {
          await building.releaseUnused(files.map((file) => file.sha256))
          throw error
        }
      }
      const datum = await building.convert(user, {
        kind: 'gltf',
        files: await incomingFilesOf(app, user, files, body.upload_id),
        projectId: body.project_id,
        categoryZipUuid: templateModelId,
      })
      if (templateModelId !== undefined) {
        // SPEC §7: with `category_zip_uuid` the SBM becomes that 3D template's model
        const converted = await building.openConvertedFile(datum.uuid)
        const sbm = await readAll(await app.deps.storage.open(converted.sha256))
        await templateModels.replaceSbm(user, templateModelId, datum.downloadName, sbm)
      }
      return datum
    },
  })

  defineRoute(app, buildingRoutes.convertSbm, {
    files: { maxFiles: 1, maxFileSizeBytes: conversionSourceMaxBytes },
    handler: async ({ body, user, files }) =>
      building.convert(user, {
        kind: 'daeOrFbx',
        files: await incomingFilesOf(app, user, files, body.upload_id),
        projectId: body.project_id,
      }),
  })

  registerModelFileRoutes(app, building)
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const sha256NamePattern = (extension: string) => new RegExp(`^([0-9a-f]{64})\\.${extension}$`)

function registerModelFileRoutes(app: FastifyInstance, building: ServerServices['building']): void {
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    served: ServedModelFile,
    isPrivate: boolean,
  ) =>
    sendStoredFile(request, reply, app.deps.storage, {
      ...served,
      // the address holds the content hash (or a random id), so the bytes never change under
      // it; files of a project stay out of shared caches
      cacheControl: `${isPrivate ? 'private' : 'public'}, max-age=31536000, immutable`,
    })
  const notFound = () => new AppError('notFound', 'file.notFound')

  // Raw bytes, not envelopes: the engine fetches these with the `grant` findModelInfo put in
  // their URLs; without one, the owner, a project-token holder (ProjectToken header or
  // ?project_token=) or anyone for a project case may read them.
  app.get<{ Params: { modelId: string; name: string } }>(
    '/web/model/files/:modelId/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      if (!uuidPattern.test(request.params.modelId)) throw notFound()
      const model = sha256NamePattern('sbm').exec(request.params.name)
      // the model's thumbnail sits beside its file, read by the same rules
      const preview = model ? null : sha256NamePattern('png').exec(request.params.name)
      if (!model && !preview) throw notFound()
      const served = model
        ? await building.openModelFile(fileReaderOf(request), request.params.modelId, model[1]!)
        : await building.openModelPreview(
            fileReaderOf(request),
            request.params.modelId,
            preview![1]!,
          )
      return send(request, reply, served, true)
    },
  )
  app.get<{ Params: { projectId: string; name: string } }>(
    '/web/model/structure/:projectId/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const match = sha256NamePattern('json').exec(request.params.name)
      if (!match || request.params.projectId.length > 64) throw notFound()
      const served = await building.openStructureFile(
        fileReaderOf(request),
        request.params.projectId,
        match[1]!,
      )
      return send(request, reply, served, true)
    },
  )
  // Converted library models are public by their random id, like uploaded images.
  app.get<{ Params: { name: string } }>(
    '/web/model/converted/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const match = /^(.+)\.sbm$/.exec(request.params.name)
      if (!match || !uuidPattern.test(match[1]!)) throw notFound()
      return send(request, reply, await building.openConvertedFile(match[1]!), false)
    },
  )
}
