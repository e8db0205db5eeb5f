import type { FastifyInstance } from 'fastify'
import { batchCreatePoiFieldsSchema, poiLimits, poiRoutes as routes } from '../../../contract/pois'
import { maxInputDepth } from '../../../contract/json-text'
import { poiBatchFileMaxBytes } from '../../../contract/template-files'
import type { ServerServices } from '../../deps'
import { AppError, fieldError } from '../../http/app-error'
import { defineRoute, documentedRouteOf, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { readMultipartForm } from '../../http/multipart'
import { callerOf } from './project-caller'

/**
 * Bodies of the list calls may carry up to 100,000 POIs: ~600 bytes of JSON each at most for a
 * create or update item with long texts, so 64 MiB; the lists are counted before any item is
 * read (contract/pois.ts), so a longer one is refused cheaply.
 */
const listBodyLimitBytes = 64 * 1024 * 1024

/**
 * Their shape limits likewise: up to ~40 keys per POI (every field, a few custom properties),
 * counted in the text before it is parsed (the API's default is 10,000 keys per body).
 */
const listInputLimits = { maxDepth: maxInputDepth, maxKeys: 4_000_000, maxValues: 5_000_000 }

/** One POI may carry 200 custom properties of 500 characters and a few 4,000-character texts. */
const singleBodyLimitBytes = 1024 * 1024

const mebibyte = 1024 * 1024

/** POIs (issue 16, contract/pois.ts): the `/poi` calls and `/findModelByPoi`. */
export function registerPoiRoutes(
  app: FastifyInstance,
  { pois, poiBatch }: Pick<ServerServices, 'pois' | 'poiBatch'>,
): void {
  defineRoute(app, routes.creatPoi, {
    bodyLimitBytes: singleBodyLimitBytes,
    handler: ({ body, user }) => pois.create(user, body),
  })
  defineRoute(app, routes.deletePoi, {
    handler: ({ body, user }) => pois.remove(user, body.id),
  })
  defineRoute(app, routes.updataPoi, {
    bodyLimitBytes: singleBodyLimitBytes,
    handler: ({ body, user }) => pois.update(user, body),
  })
  defineRoute(app, routes.selectCustomByPoi, {
    handler: ({ body, user, request }) =>
      pois.customs(callerOf(request, user, body.project_token), body.id),
  })
  defineRoute(app, routes.selectPoisBymodel, {
    handler: ({ body, user, request }) =>
      pois.poisOfModel(callerOf(request, user, body.project_token), body.model_id),
  })
  defineRoute(app, routes.addPoi, {
    handler: ({ body, user }) => pois.linkToModel(user, body.model_id, body.ids),
  })
  defineRoute(app, routes.findPoi, {
    handler: ({ body, query, user, request }) =>
      pois.page(callerOf(request, user, body.project_token), body, query),
  })
  defineRoute(app, routes.findPoiDetail, {
    handler: ({ body, user, request }) =>
      pois.detail(callerOf(request, user, body.project_token), body.id),
  })
  defineRoute(app, routes.findProjectPoiDetail, {
    handler: ({ body, user, request }) =>
      pois.projectColumns(callerOf(request, user, body.project_token), body.projectid),
  })
  defineRoute(app, routes.findmodelidbypoi, {
    handler: ({ body, user, request }) =>
      pois.modelIds(callerOf(request, user, body.project_token), body.id),
  })
  defineRoute(app, routes.creatPoiList, {
    bodyLimitBytes: listBodyLimitBytes,
    inputLimits: listInputLimits,
    handler: ({ body, query, user }) =>
      pois.createList(user, body.projectid, body.list, {
        isCopyProperties: query.isCopyProperties,
      }),
  })
  defineRoute(app, routes.deletePoiList, {
    bodyLimitBytes: listBodyLimitBytes,
    inputLimits: listInputLimits,
    handler: ({ body, user }) => pois.removeList(user, body.ids),
  })
  defineRoute(app, routes.updataPoiList, {
    bodyLimitBytes: listBodyLimitBytes,
    inputLimits: listInputLimits,
    handler: ({ body, user }) => pois.updateList(user, body.list),
  })
  defineRoute(app, routes.findModelByPoi, {
    handler: ({ body, user, request }) =>
      pois.modelsOf(callerOf(request, user, body.project_token), body.id),
  })

  // Not defineRoute: that stores files as they stream in, while a batch file is checked in
  // memory (≤ 10 MB) and never stored by this call.
  const batch = routes.batchCreatPoi
  app.openApi.add(documentedRouteOf(batch))
  app.post(batch.path, { config: { auth: batch.auth } }, async (request) => {
    if (!request.isMultipart()) throw new AppError('validation', 'request.notMultipart')
    let file: { fileName: string; bytes: Buffer } | undefined
    const fields = await readMultipartForm(request, {
      limits: {
        fileFields: ['file'],
        maxFiles: 1,
        maxFields: 10,
        maxFileSizeBytes: Math.max(poiBatchFileMaxBytes, poiLimits.csvMaxBytes),
      },
      fileTooLargeError: () =>
        new AppError('tooLarge', 'poiBatch.tooLarge', {
          limitMb: poiBatchFileMaxBytes / mebibyte,
        }),
      async onFile(part) {
        file = { fileName: part.filename || 'poi-batch', bytes: await part.toBuffer() }
      },
    })
    if (fields.pid === undefined || fields.pid === '') {
      throw fieldError('validation', 'pid', 'poi.selectCategory')
    }
    const body = parseInput(batchCreatePoiFieldsSchema, fields)
    if (file === undefined && body.uuid === undefined) {
      throw fieldError('validation', 'file', 'poiBatch.chooseFileOrCsv')
    }
    const datum = await poiBatch.createFromFile(request.user!, {
      projectId: body.projectid,
      templateId: body.pid,
      ...(file === undefined ? {} : { file }),
      ...(body.uuid === undefined ? {} : { uuid: body.uuid }),
      isDryRun: body.isDryRun,
    })
    return okEnvelope(batch.datum.parse(datum))
  })
}
