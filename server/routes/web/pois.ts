import type { FastifyInstance, FastifyRequest } from 'fastify'
import { batchCreatePoiFieldsSchema, poiLimits, poiRoutes as routes } from '../../../contract/pois'
import { poiBatchFileMaxBytes } from '../../../contract/template-files'
import type { ServerServices } from '../../deps'
import { AppError, fieldError } from '../../http/app-error'
import { defineRoute, documentedRouteOf, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { readMultipartForm } from '../../http/multipart'
import {
  type PoiListBody,
  type PoiListCall,
  poiListBodyLimitBytes,
  poiListBodySchemas,
  poiListInputLimits,
} from '../../modules/pois/poi-list-body'
import { callerOf } from './project-caller'

/** A JSON body of a list call as it arrived, parsed by the route (off the request thread). */
class RawJsonBody {
  constructor(readonly bytes: Buffer) {}
}

/** One POI may carry 200 custom properties of 500 characters and a few 4,000-character texts. */
const singleBodyLimitBytes = 1024 * 1024

const mebibyte = 1024 * 1024

/** POIs (issue 16, contract/pois.ts): the `/poi` calls and `/findModelByPoi`. */
export function registerPoiRoutes(
  app: FastifyInstance,
  { pois, poiBatch, poiListBodies }: Pick<ServerServices, 'pois' | 'poiBatch' | 'poiListBodies'>,
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
  app.register(async (lists) => {
    // The list calls' JSON bodies (up to 64 MiB) reach their route as bytes: a large one is
    // parsed and validated in a worker thread (modules/pois/poi-list-body-job.ts), not here.
    lists.removeContentTypeParser('application/json')
    lists.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, new RawJsonBody(body as Buffer)),
    )
    const parseListBody =
      <Call extends PoiListCall>(call: Call) =>
      async (raw: unknown, request: FastifyRequest): Promise<PoiListBody<Call>> => {
        if (raw instanceof RawJsonBody) {
          return poiListBodies.parse(request.user!.id, call, raw.bytes)
        }
        // form and multipart bodies are parsed already (and bounded by their own limits)
        const schema = poiListBodySchemas[call]
        return parseInput(schema, raw ?? {}, poiListInputLimits) as PoiListBody<Call>
      }
    defineRoute(lists, routes.creatPoiList, {
      bodyLimitBytes: poiListBodyLimitBytes,
      parseBody: parseListBody('creatPoiList'),
      handler: ({ body, query, user }) =>
        pois.createList(user, body.projectid, body.list, {
          isCopyProperties: query.isCopyProperties,
        }),
    })
    defineRoute(lists, routes.deletePoiList, {
      bodyLimitBytes: poiListBodyLimitBytes,
      parseBody: parseListBody('deletePoiList'),
      handler: ({ body, user }) => pois.removeList(user, body.ids),
    })
    defineRoute(lists, routes.updataPoiList, {
      bodyLimitBytes: poiListBodyLimitBytes,
      parseBody: parseListBody('updataPoiList'),
      handler: ({ body, user }) => pois.updateList(user, body.list),
    })
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
