import type { FastifyInstance } from 'fastify'
import {
  addCaptureFieldsSchema,
  captureImageMaxBytes,
  captureSchema,
  visitRoutes,
} from '../../../contract/visit'
import type { ServerServices } from '../../deps'
import { AppError, fieldError } from '../../http/app-error'
import { defineRoute, documentedRouteOf, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { readMultipartForm } from '../../http/multipart'
import { callerOf } from './project-caller'

/** Visit mode: captures and the public preview's liveness check (issue 19). */
export function registerVisitRoutes(
  app: FastifyInstance,
  { captures }: Pick<ServerServices, 'captures'>,
): void {
  defineRoute(app, visitRoutes.findCaptureById, {
    handler: ({ body, user, request }) =>
      captures.list(callerOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, visitRoutes.updateCapture, {
    handler: ({ body, user }) =>
      captures.update(user, body.id, { name: body.name, dwellSeconds: body.dwell_seconds }),
  })
  defineRoute(app, visitRoutes.deleteCapture, {
    handler: ({ body, user }) => captures.remove(user, body.id),
  })
  defineRoute(app, visitRoutes.updateCaptureSeq, {
    handler: ({ body, user }) => captures.reorder(user, body.project_id, body.ids),
  })
  defineRoute(app, visitRoutes.checkProjectToken, {
    handler: ({ body, user, request }) =>
      captures.checkPreview(callerOf(request, user, body.project_token), body.project_id),
  })

  const addCapture = visitRoutes.addCapture
  app.openApi.add(documentedRouteOf(addCapture))
  // Not defineRoute: the PNG is checked in memory (≤ 8 MB) so a refused file is never stored.
  app.post(addCapture.path, { config: { auth: addCapture.auth } }, async (request) => {
    if (!request.isMultipart()) throw new AppError('validation', 'image.sendAsMultipart')
    let image: Uint8Array | undefined
    const fields = await readMultipartForm(request, {
      limits: {
        fileFields: ['file'],
        maxFiles: 1,
        maxFields: 10,
        maxFileSizeBytes: captureImageMaxBytes,
      },
      fileTooLargeError: () =>
        new AppError('tooLarge', 'visit.captureTooLarge', {
          maximum: captureImageMaxBytes / 1_048_576,
        }),
      async onFile(part) {
        image = await part.toBuffer()
      },
    })
    const body = parseInput(addCaptureFieldsSchema, fields)
    if (!image) throw fieldError('validation', 'file', 'validation.required')
    const capture = await captures.add(request.user!, {
      projectId: body.project_id,
      name: body.name,
      camera: body.camera,
      dwellSeconds: body.dwell_seconds,
      image,
    })
    return okEnvelope(captureSchema.parse(capture))
  })
}
