import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  fileRoutes,
  imageUploadMaxBytes,
  uploadJpgDatumSchema,
  uploadJpgFieldsSchema,
} from '../../../contract/files'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { documentedRouteOf, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { readMultipartForm } from '../../http/multipart'
import type { IncomingImage } from '../../modules/projects/uploads.service'
import { sendStoredFile } from '../../modules/tilesets/send-file'
import type { ServedStoredFile } from '../../plugins/storage'

/** The shared image upload (SPEC §7 `/upload/uploadJpg`) and the serving of uploaded files. */
export function registerUploadRoutes(
  app: FastifyInstance,
  { uploads }: Pick<ServerServices, 'uploads'>,
): void {
  const uploadJpg = fileRoutes.uploadJpg
  app.openApi.add(documentedRouteOf(uploadJpg))
  // Not defineRoute: that stores every file as it streams in, while an image is small enough
  // to check in memory first, so a refused file never touches the store.
  app.post(uploadJpg.path, { config: { auth: uploadJpg.auth } }, async (request) => {
    if (!request.isMultipart()) {
      throw new AppError('validation', 'image.sendAsMultipart')
    }
    const images: Partial<Record<'file' | 'thumbnail', IncomingImage>> = {}
    // In memory, bounded: two files of at most 2 MB each (readMultipartForm enforces both).
    const fields = await readMultipartForm(request, {
      limits: {
        fileFields: ['file', 'thumbnail'],
        maxFiles: 2,
        maxFields: 10,
        maxFileSizeBytes: imageUploadMaxBytes,
      },
      fileTooLargeError: () => new AppError('tooLarge', 'image.tooLarge'),
      async onFile(part) {
        images[part.fieldname as 'file' | 'thumbnail'] = {
          fileName: part.filename,
          bytes: await part.toBuffer(),
        }
      },
    })
    const body = parseInput(uploadJpgFieldsSchema, fields)
    const datum = await uploads.acceptImage({
      user: request.user!,
      image: images.file,
      thumbnail: images.thumbnail,
      projectId: body.project_id,
      purpose: body.purpose,
    })
    return okEnvelope(uploadJpgDatumSchema.parse(datum))
  })

  const send = (request: FastifyRequest, reply: FastifyReply, served: ServedStoredFile) =>
    // an upload's bytes never change under its uuid
    sendStoredFile(request, reply, app.deps.storage, {
      ...served,
      cacheControl: 'public, max-age=31536000, immutable',
    })

  // Raw bytes, not envelopes: `<img src>` loads these. Public, as the names are random uuids.
  app.get<{ Params: { name: string } }>(
    '/web/files/:name',
    { config: { auth: 'public' } },
    async (request, reply) =>
      send(request, reply, await uploads.openServed(request.params.name, 'image')),
  )
  app.get<{ Params: { name: string } }>(
    '/web/files/thumbs/:name',
    { config: { auth: 'public' } },
    async (request, reply) =>
      send(request, reply, await uploads.openServed(request.params.name, 'thumbnail')),
  )
}
