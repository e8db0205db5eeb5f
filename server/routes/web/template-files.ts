import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  poiBatchFileMaxBytes,
  poiBatchTemplateBodySchema,
  templateFileRoutes,
  templateModelFilesRoot,
  templateZipMaxBytes,
  uploadPoiTemplateFieldsSchema,
} from '../../../contract/template-files'
import type { ServerServices } from '../../deps'
import { AppError, fieldError } from '../../http/app-error'
import { attachmentDisposition } from '../../http/attachment'
import { documentedRouteOf, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { readMultipartForm } from '../../http/multipart'
import { defineUploadRoute } from '../../http/upload-route'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import { sendNamedFile } from '../../modules/tilesets/send-file'

const mebibyte = 1024 * 1024

/**
 * SPEC §7 "Template uploads": the 3D template zip (`/upload/upload3DPoi`, and
 * `/upload/upload3DGLBFPoi` for glTF/GLB models only), the template model files, and the
 * batch-POI template file (download; `/poi/uploadPoiTemplate`). The services, the seed of the
 * system models and their closing are made in server/composition.ts.
 */
export function registerTemplateFileRoutes(
  app: FastifyInstance,
  {
    templateModels,
    templateModelFiles,
    poiBatchFiles,
    templateFileDirectories,
  }: Pick<
    ServerServices,
    'templateModels' | 'templateModelFiles' | 'poiBatchFiles' | 'templateFileDirectories'
  >,
): void {
  for (const [route, gltfOnly] of [
    [templateFileRoutes.upload3DPoi, false],
    [templateFileRoutes.upload3DGLBFPoi, true],
  ] as const) {
    // a pass-through upload: the zip goes to a private file, never into the shared store
    defineUploadRoute(app, route, {
      receive: () => ({
        incomingDirectory: templateFileDirectories.incoming,
        maxFileBytes: templateZipMaxBytes,
        tooLargeError: () =>
          new AppError('tooLarge', 'templateModel.tooLarge', {
            limitMb: templateZipMaxBytes / mebibyte,
          }),
      }),
      missingFileError: () => fieldError('validation', 'file', 'templateModel.chooseZip'),
      handler: ({ file, user }) =>
        templateModels.createFromZip(
          user,
          { path: file.path, fileName: file.fileName, sizeBytes: file.sizeBytes },
          { gltfOnly },
        ),
    })
  }

  // Raw bytes: the engine and <img> load these. Public like /web/files/: the ids are random
  // uuids, and templates are shown in shared projects and project cases.
  app.get<{ Params: { uuid: string; name: string } }>(
    `${templateModelFilesRoot}:uuid/:name`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      const file = await templateModels.openFile(request.params.uuid, request.params.name)
      // from the store (a folder or a bucket; a signed redirect with STORAGE_SERVE=redirect)
      return sendNamedFile(request, reply, templateModelFiles, {
        name: file.name,
        contentType: file.contentType,
        // a model's files change only through uploadGltfForSbm, which the ETag follows
        cacheControl: 'public, max-age=0, must-revalidate',
        etagSeed: request.params.name,
        missing: 'file.notFound',
      })
    },
  )

  // The XLSX itself, not an envelope (so not in the route table): sheet 1 has the column keys,
  // sheet 2 explains them in the language of the `language` cookie (ko when none).
  app.post(
    '/web/poi/downloadPoiTemplate',
    { config: { auth: 'editor' } },
    async (request, reply) => {
      const body = parseBatchTemplateBody(request)
      const file = await poiBatchFiles.buildTemplateFile(
        request.user!,
        body.pid,
        messageLanguageOf(request.headers.cookie),
      )
      reply.header('content-disposition', attachmentDisposition(file.fileName))
      reply.header('cache-control', 'no-store')
      reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      return reply.send(file.bytes)
    },
  )

  const uploadPoiTemplate = templateFileRoutes.uploadPoiTemplate
  app.openApi.add(documentedRouteOf(uploadPoiTemplate))
  // Not defineRoute: that stores files as they stream in, while a filled file is checked in
  // memory first (≤ 10 MB), so a refused file is never stored.
  app.post(
    uploadPoiTemplate.path,
    { config: { auth: uploadPoiTemplate.auth } },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('validation', 'request.notMultipart')
      let upload: { fileName: string; bytes: Buffer } | undefined
      const fields = await readMultipartForm(request, {
        limits: {
          fileFields: ['file'],
          maxFiles: 1,
          maxFields: 10,
          maxFileSizeBytes: poiBatchFileMaxBytes,
        },
        fileTooLargeError: () =>
          new AppError('tooLarge', 'poiBatch.tooLarge', {
            limitMb: poiBatchFileMaxBytes / mebibyte,
          }),
        async onFile(part) {
          upload = { fileName: part.filename || 'poi-batch.xlsx', bytes: await part.toBuffer() }
        },
      })
      const body = parseUploadBody(fields)
      if (!upload) throw fieldError('validation', 'file', 'poiBatch.chooseFile')
      const datum = await poiBatchFiles.acceptFilledFile(request.user!, body.pid, upload)
      return okEnvelope(uploadPoiTemplate.datum.parse(datum))
    },
  )
}

/** `pid` of the download, with the SPEC's own words when it is missing. */
function parseBatchTemplateBody(request: FastifyRequest) {
  const body = (request.body ?? {}) as Record<string, unknown>
  if (body.pid === undefined || body.pid === '') {
    throw fieldError('validation', 'pid', 'poiBatch.selectCategory')
  }
  return parseInput(poiBatchTemplateBodySchema, body)
}

function parseUploadBody(fields: Record<string, unknown>) {
  if (fields.pid === undefined || fields.pid === '') {
    throw fieldError('validation', 'pid', 'poiBatch.selectCategory')
  }
  return parseInput(uploadPoiTemplateFieldsSchema, fields)
}
