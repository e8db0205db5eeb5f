import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  cityModelMaxBytes,
  cityModelMaxFiles,
  cityModelRoutes,
} from '../../../contract/city-models'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { sendStoredFile } from '../../modules/tilesets/send-file'
import type { CityModelFileReader } from '../../modules/city-models/city-models.service'
import { callerOf } from './project-caller'
import { listProjectRecords, removeRecordById } from './record-handlers'

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const fileNamePattern = /^([0-9a-f]{64})\.glb$/

/** A grant from `findAll`, or the caller (owner, project-token holder, anyone for a case). */
function readerOf(request: FastifyRequest): CityModelFileReader {
  const grant = (request.query as { grant?: unknown } | undefined)?.grant
  if (typeof grant === 'string') return { grant }
  return callerOf(request, request.user, undefined, { fromQuery: true })
}

/** The city model library (issue 21 item 6): uploads, places, animation settings, the files. */
export function registerCityModelRoutes(
  app: FastifyInstance,
  { cityModels }: Pick<ServerServices, 'cityModels'>,
): void {
  defineRoute(app, cityModelRoutes.uploadCityModel, {
    files: { maxFiles: cityModelMaxFiles, maxFileSizeBytes: cityModelMaxBytes },
    handler: ({ body, user, files }) => cityModels.upload(user, body, files),
  })
  defineRoute(app, cityModelRoutes.findCityModels, {
    handler: listProjectRecords(cityModels),
  })
  defineRoute(app, cityModelRoutes.updateCityModel, {
    handler: ({ body, user }) => cityModels.update(user, body),
  })
  defineRoute(app, cityModelRoutes.deleteCityModel, {
    handler: removeRecordById(cityModels),
  })
  // Raw bytes, not an envelope: the engine fetches them with the grant findAll put in the URL.
  app.get<{ Params: { id: string; name: string } }>(
    '/web/cityModel/files/:id/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const match = fileNamePattern.exec(request.params.name)
      if (!match || !uuidPattern.test(request.params.id)) {
        throw new AppError('notFound', 'file.notFound')
      }
      const served = await cityModels.openFile(readerOf(request), request.params.id, match[1]!)
      // the address holds the content hash: the bytes never change under it
      return sendStoredFile(request, reply, app.deps.storage, {
        ...served,
        cacheControl: 'private, max-age=31536000, immutable',
      })
    },
  )
}
