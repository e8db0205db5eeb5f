import { join } from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  poiBatchFileMaxBytes,
  poiBatchTemplateBodySchema,
  templateModelDatumSchema,
  templateModelFilesRoot,
  templateZipFieldsSchema,
  templateZipMaxBytes,
  uploadPoiTemplateDatumSchema,
  uploadPoiTemplateFieldsSchema,
} from '../../../contract/template-files'
import { AppError, fieldError } from '../../http/app-error'
import { parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { readMultipartForm } from '../../http/multipart'
import { receiveUpload } from '../../http/upload-route'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import { createBatchTemplateSource } from '../../modules/template-files/batch-template-source'
import {
  createPoiBatchFilesService,
  type PoiBatchFilesService,
} from '../../modules/template-files/poi-batch-files.service'
import { seedTemplateModels } from '../../modules/template-files/seed-template-models'
import {
  createTemplateModelsService,
  type TemplateModelsService,
} from '../../modules/template-files/template-models.service'
import { sendFile } from '../../modules/tilesets/send-file'
import { buildingAreaOf } from './building'

/** The template file area's services, made once per app. */
export interface TemplateFilesArea {
  models: TemplateModelsService
  batchFiles: PoiBatchFilesService
  /** Where received zips wait while they are inspected. */
  incomingDirectory: string
}

const areas = new WeakMap<FastifyInstance, TemplateFilesArea>()

/** The template file services of an app (the templates area checks `category_zip_uuid` here). */
export function templateFilesAreaOf(app: FastifyInstance): TemplateFilesArea {
  let area = areas.get(app)
  if (!area) {
    const { database, jobs, clock, config } = app.deps
    const models = createTemplateModelsService({
      database,
      jobs,
      clock,
      conversions: buildingAreaOf(app).conversions,
      directory: join(config.dataDir, 'template-models'),
    })
    const batchFiles = createPoiBatchFilesService({
      database,
      clock,
      directory: join(config.dataDir, 'poi-batch-files'),
      templates: createBatchTemplateSource(database.db),
    })
    area = {
      models,
      batchFiles,
      incomingDirectory: join(config.dataDir, 'incoming', 'template-files'),
    }
    areas.set(app, area)
  }
  return area
}

const mebibyte = 1024 * 1024

/**
 * SPEC §7 "Template uploads": the 3D template zip (`/upload/upload3DPoi`, and
 * `/upload/upload3DGLBFPoi` for glTF/GLB models only), the template model files, and the
 * batch-POI template file (download; `/poi/uploadPoiTemplate`).
 */
export function registerTemplateFileRoutes(app: FastifyInstance): void {
  const area = templateFilesAreaOf(app)
  app.addHook('onClose', async () => {
    await area.models.close()
  })
  // once the database is migrated (the app is ready): the system library on an empty database
  app.addHook('onReady', async () => {
    const seeded = await seedTemplateModels({ database: app.deps.database, models: area.models })
    if (seeded > 0) app.log.info({ templateModels: seeded }, 'template models seeded')
  })

  const registerZipUpload = (url: string, gltfOnly: boolean) => {
    app.openApi.add({
      method: 'POST',
      url,
      auth: 'editor',
      summary: gltfOnly
        ? 'Make a 3D template model from a zip holding a glTF/GLB model'
        : 'Make a 3D template model from a zip holding a glTF, GLB, DAE or FBX model',
      description:
        'Multipart: one `file`, a zip (checked by content: anything else is refused with ' +
        '"Only zip can be uploaded."), or `upload_id` of a finished resumable upload. The zip is ' +
        'inspected before anything is extracted (unsafe names, links, zip bombs); its one model is ' +
        'converted to SBM in a worker thread and a preview PNG is rendered from it. Files are ' +
        'served at `rootPath` + `sbmName` / `jpgName` / `xmlName`; a template saves `uuid` as ' +
        'its `category_zip_uuid`.',
      tags: ['upload'],
      body: templateZipFieldsSchema,
      datum: templateModelDatumSchema,
      fileFields: ['file'],
    })
    // Not defineRoute: that puts files into the shared store, while a zip only passes through.
    app.post(url, { config: { auth: 'editor' } }, async (request) => {
      const user = request.user!
      const { fields, file } = await receiveUpload(app, request, {
        incomingDirectory: area.incomingDirectory,
        maxFileBytes: templateZipMaxBytes,
        tooLargeError: () =>
          new AppError('tooLarge', 'templateModel.tooLarge', {
            limitMb: templateZipMaxBytes / mebibyte,
          }),
      })
      let outcome: 'done' | 'refused' | 'failed' = 'failed'
      try {
        parseInput(templateZipFieldsSchema, fields)
        if (!file) throw fieldError('validation', 'file', 'templateModel.chooseZip')
        const datum = await area.models.createFromZip(
          user,
          { path: file.path, fileName: file.fileName, sizeBytes: file.sizeBytes },
          { gltfOnly },
        )
        outcome = 'done'
        return okEnvelope(templateModelDatumSchema.parse(datum))
      } catch (error) {
        if (error instanceof AppError) outcome = 'refused'
        throw error
      } finally {
        await file?.dispose(outcome)
      }
    })
  }
  registerZipUpload('/web/upload/upload3DPoi', false)
  registerZipUpload('/web/upload/upload3DGLBFPoi', true)

  // Raw bytes: the engine and <img> load these. Public like /web/files/: the ids are random
  // uuids, and templates are shown in shared projects and project cases.
  app.get<{ Params: { uuid: string; name: string } }>(
    `${templateModelFilesRoot}:uuid/:name`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      const file = await area.models.openFile(request.params.uuid, request.params.name)
      return sendFile(request, reply, {
        path: file.path,
        contentType: file.contentType,
        // a model's files change only through uploadGltfForSbm, which the ETag follows
        cacheControl: 'public, max-age=0, must-revalidate',
        etagSeed: request.params.name,
      })
    },
  )

  app.openApi.add({
    method: 'POST',
    url: '/web/poi/downloadPoiTemplate',
    auth: 'editor',
    summary: 'Download the batch-POI template file (XLSX) of a POI template',
    description:
      'Form or JSON `pid`: the template (SPEC\'s "POI category"). Answers the .xlsx itself ' +
      "(not an envelope): sheet 1 has the column keys (the POI fields, then the template's " +
      'static attributes), sheet 2 explains each column in the language of the `language` ' +
      'cookie (ko when none). Without `pid`: "Select the POI category".',
    tags: ['poi'],
    body: poiBatchTemplateBodySchema,
    datum: uploadPoiTemplateDatumSchema,
  })
  app.post(
    '/web/poi/downloadPoiTemplate',
    { config: { auth: 'editor' } },
    async (request, reply) => {
      const body = parseBatchTemplateBody(request)
      const file = await area.batchFiles.buildTemplateFile(
        request.user!,
        body.pid,
        messageLanguageOf(request.headers.cookie),
      )
      const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
      reply.header(
        'content-disposition',
        `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      )
      reply.header('cache-control', 'no-store')
      reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      return reply.send(file.bytes)
    },
  )

  app.openApi.add({
    method: 'POST',
    url: '/web/poi/uploadPoiTemplate',
    auth: 'editor',
    summary: 'Upload a filled batch-POI file: validated and stored, no POI is created yet',
    description:
      'Multipart: `pid` (the template the file was made for) and one `file` (.xlsx ≤ 10 MB). ' +
      'The workbook is checked before it is parsed (zip sizes and ratios), then read as a ' +
      'stream: row 1 must hold the keys of the downloaded file, at most 5,000 rows, no formulas, ' +
      'every cell valid for its column. Any bad cell refuses the whole file, listing each ' +
      '`{ row, column, messageId }` in `datum.details`; a valid file is stored and its `uuid` ' +
      'answered.',
    tags: ['poi'],
    body: uploadPoiTemplateFieldsSchema,
    datum: uploadPoiTemplateDatumSchema,
    fileFields: ['file'],
  })
  app.post('/web/poi/uploadPoiTemplate', { config: { auth: 'editor' } }, async (request) => {
    if (!request.isMultipart()) throw new AppError('validation', 'request.notMultipart')
    let upload: { fileName: string; bytes: Buffer } | undefined
    // In memory, bounded by poiBatchFileMaxBytes (readMultipartForm enforces it).
    const fields = await readMultipartForm(request, {
      limits: {
        fileFields: ['file'],
        maxFiles: 1,
        maxFields: 10,
        maxFileSizeBytes: poiBatchFileMaxBytes,
      },
      fileTooLargeError: () =>
        new AppError('tooLarge', 'poiBatch.tooLarge', { limitMb: poiBatchFileMaxBytes / mebibyte }),
      async onFile(part) {
        upload = { fileName: part.filename || 'poi-batch.xlsx', bytes: await part.toBuffer() }
      },
    })
    const body = parseUploadBody(fields)
    if (!upload) throw fieldError('validation', 'file', 'poiBatch.chooseFile')
    const datum = await area.batchFiles.acceptFilledFile(request.user!, body.pid, upload)
    return okEnvelope(uploadPoiTemplateDatumSchema.parse(datum))
  })
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
