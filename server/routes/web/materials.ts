import type { FastifyInstance } from 'fastify'
import {
  materialRoutes,
  materialTextureMaxBytes,
  uploadFileDatumSchema,
  uploadFileQuerySchema,
} from '../../../contract/materials'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { defineRoute, documentedRouteOf, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { readMultipartForm } from '../../http/multipart'
import type { IncomingImage } from '../../modules/projects/uploads.service'
import { removeRecordById } from './record-handlers'

/** The material library (SPEC §7 `/materialManager/*`) and its texture upload (`uploadFile?type=4`). */
export function registerMaterialRoutes(
  app: FastifyInstance,
  { materials }: Pick<ServerServices, 'materials'>,
): void {
  defineRoute(app, materialRoutes.addMaterial, {
    handler: ({ body, user }) => materials.save(user, body),
  })
  defineRoute(app, materialRoutes.delMaterial, {
    handler: removeRecordById(materials),
  })
  defineRoute(app, materialRoutes.findMaterial, {
    handler: ({ body, user }) => materials.find(user, body.project_id),
  })
  defineRoute(app, materialRoutes.addBuilding, {
    handler: ({ body, user }) => materials.assign(user, body),
  })

  const uploadFile = materialRoutes.uploadFile
  app.openApi.add(documentedRouteOf(uploadFile))
  // Not defineRoute: that stores every file as it streams in, while a texture is checked in
  // memory first (content, declared pixels), so a refused file never touches the store.
  app.post(uploadFile.path, { config: { auth: uploadFile.auth } }, async (request) => {
    parseInput(uploadFileQuerySchema, request.query)
    if (!request.isMultipart()) throw new AppError('validation', 'image.sendAsMultipart')
    let image: IncomingImage | undefined
    await readMultipartForm(request, {
      limits: {
        fileFields: ['file'],
        maxFiles: 1,
        maxFields: 4,
        maxFileSizeBytes: materialTextureMaxBytes,
      },
      fileTooLargeError: () =>
        new AppError('tooLarge', 'material.textureTooLarge', { maxBytes: materialTextureMaxBytes }),
      async onFile(part) {
        image = { fileName: part.filename, bytes: await part.toBuffer() }
      },
    })
    const datum = await materials.uploadTexture(request.user!, image)
    return okEnvelope(uploadFileDatumSchema.parse(datum))
  })
}
