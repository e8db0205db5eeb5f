import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyInstance } from 'fastify'
import {
  findGmlPathBodySchema,
  findGmlPathDatumSchema,
  updateGmlPlacementBodySchema,
  uploadGmlBodySchema,
  uploadGmlDatumSchema,
} from '../../../contract/gml'
import { AppError } from '../../http/app-error'
import { defineRoute, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { nestFormPairs } from '../../http/form-body'
import { createGmlService, type GmlService, isGmlFileRefusal } from '../../modules/gml/gml.service'
import { claimResumableUpload } from '../../modules/resumable-uploads/claim-upload'
import { callerOf } from './project-caller'
import { projectAreaOf } from './project-area'

const services = new WeakMap<FastifyInstance, GmlService>()

/** The GML service of an app, made once; its project hooks join the project area's. */
export function gmlServiceOf(app: FastifyInstance): GmlService {
  let service = services.get(app)
  if (!service) {
    const { database, storage, clock, config } = app.deps
    const area = projectAreaOf(app)
    service = createGmlService({
      database,
      storage,
      clock,
      access: area.access,
      maxSizeBytes: config.gmlUploadLimitBytes,
      onWarning: (message, error) => app.log.warn({ err: error }, message),
    })
    area.lifecycleHooks.push(service.lifecycleHook)
    services.set(app, service)
  }
  return service
}

/** Leftovers of uploads cut short by a crash are removed at start when older than this. */
const staleIncomingAgeMs = 3_600_000

/**
 * The GML path of building projects (issue #6): upload (multipart or a finished resumable
 * upload), find, placement, and serving the file.
 */
export function registerGmlRoutes(app: FastifyInstance): void {
  const gml = gmlServiceOf(app)
  const incomingDir = join(app.deps.config.dataDir, 'incoming-gml')

  const description =
    'Multipart: `project_id` and one `file` (an IndoorGML document), or form/JSON `project_id` ' +
    'and `upload_id` of a finished resumable upload. The file is parsed on the server first; ' +
    "a refusal names the parser's reason (not XML, DOCTYPE, no navigation network…). It " +
    'replaces the project’s previous GML file in one step.'
  app.openApi.add({
    method: 'POST',
    url: '/web/upload/uploadGml',
    auth: 'editor',
    summary: 'Upload the IndoorGML navigation network of a building project',
    description,
    tags: ['upload'],
    body: uploadGmlBodySchema,
    datum: uploadGmlDatumSchema,
    fileFields: ['file'],
  })
  // Not defineRoute: that puts every file into the shared store as it streams in, while a GML
  // file is checked first from a private temporary file, so a refused file never enters it.
  app.post(
    '/web/upload/uploadGml',
    { config: { auth: 'editor' }, bodyLimit: 1_048_576 },
    async (request) => {
      const user = request.user!
      const acceptClaimed = async (projectId: string, uploadId: string) => {
        // A wrong project id must not cost the user a re-upload of a large file.
        await gml.checkUploadAllowed(user, projectId)
        const claimed = await claimResumableUpload(app, { userId: user.id, uploadId })
        let datum: Awaited<ReturnType<GmlService['accept']>>
        try {
          datum = await gml.accept(user, projectId, {
            filePath: claimed.filePath,
            fileName: claimed.fileName,
            sizeBytes: claimed.sizeBytes,
          })
        } catch (error) {
          // A refused file is of no further use; anything else may succeed when tried again.
          if (isGmlFileRefusal(error)) await claimed.release()
          else claimed.giveBack()
          throw error
        }
        await claimed.release()
        return okEnvelope(uploadGmlDatumSchema.parse(datum))
      }
      if (!request.isMultipart()) {
        const body = parseInput(uploadGmlBodySchema, request.body ?? {})
        if (body.upload_id === undefined) {
          throw new AppError('validation', 'upload_id: Required (or send the file as multipart).', [
            { field: 'upload_id', message: 'Required' },
          ])
        }
        return acceptClaimed(body.project_id, body.upload_id)
      }

      await mkdir(incomingDir, { recursive: true })
      const temporaryPath = join(incomingDir, randomUUID())
      try {
        const fields: Array<[string, string]> = []
        let file: { fileName: string; sizeBytes: number } | undefined
        const maxSizeBytes = app.deps.config.gmlUploadLimitBytes
        const parts = request.parts({ limits: { files: 2, fields: 10, fileSize: maxSizeBytes } })
        try {
          for await (const part of parts) {
            if (part.type === 'field') {
              fields.push([part.fieldname, String(part.value)])
              continue
            }
            if (part.fieldname !== 'file' || file !== undefined) {
              part.file.resume()
              throw new AppError('validation', `${part.fieldname}: only one file field 'file'.`)
            }
            // Fields sent before the file (as the web client does) let a wrong project be
            // refused before the file's bytes are read.
            const projectId = fields.find(([name]) => name === 'project_id')?.[1]
            if (projectId !== undefined) {
              await gml.checkUploadAllowed(user, projectId).catch((error: unknown) => {
                part.file.resume()
                throw error
              })
            }
            await pipeline(part.file, createWriteStream(temporaryPath, { flags: 'wx' }))
            file = { fileName: part.filename, sizeBytes: (await stat(temporaryPath)).size }
          }
        } catch (error) {
          // The multipart parser reports the limit from the part stream or from the iterator.
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError(
              'tooLarge',
              `The GML file is larger than ${Math.round(maxSizeBytes / 1_048_576)} MB.`,
            )
          }
          throw error
        }
        const body = parseInput(uploadGmlBodySchema, nestFormPairs(fields))
        if (file === undefined) {
          if (body.upload_id !== undefined)
            return await acceptClaimed(body.project_id, body.upload_id)
          throw new AppError('validation', 'file: Required', [
            { field: 'file', message: 'Required' },
          ])
        }
        const datum = await gml.accept(user, body.project_id, { ...file, filePath: temporaryPath })
        return okEnvelope(uploadGmlDatumSchema.parse(datum))
      } finally {
        await rm(temporaryPath, { force: true })
      }
    },
  )

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/findGmlPath',
    auth: 'public',
    summary: "A building project's GML file, its counts and placement, or null",
    description: 'A signed-in reader, or a project token (body `project_token` or header).',
    body: findGmlPathBodySchema,
    datum: findGmlPathDatumSchema,
    handler: ({ body, user, request }) =>
      gml.find(callerOf(request, user, body.project_token), body.project_id),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/updateGmlPlacement',
    auth: 'editor',
    summary: 'Save how the GML network is placed on the model and how it is shown',
    body: updateGmlPlacementBodySchema,
    datum: uploadGmlDatumSchema,
    handler: ({ body, user }) =>
      gml.updatePlacement(user, {
        projectId: body.project_id,
        placement: body.placement,
        displayMode: body.display_mode,
      }),
  })

  // Raw bytes for the engine's fetch, which sends no headers: the `grant` findGmlPath put in the
  // address opens it (bound to the reader's project token, so revoking the token ends it).
  app.get<{ Params: { name: string }; Querystring: { grant?: unknown } }>(
    '/web/gml/files/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const grant = request.query?.grant
      const served = await gml.openFile(
        request.params.name,
        typeof grant === 'string' ? grant : undefined,
      )
      reply.type('application/gml+xml')
      reply.header('content-length', served.sizeBytes)
      reply.header('cache-control', 'private, max-age=31536000, immutable')
      return reply.send(served.stream)
    },
  )

  app.addHook('onReady', async () => {
    // Temporary files of uploads cut short by a crash.
    const cutoffMs = Date.now() - staleIncomingAgeMs
    const names = await readdir(incomingDir).catch(() => [] as string[])
    for (const name of names) {
      const path = join(incomingDir, name)
      const info = await stat(path).catch(() => undefined)
      if (info !== undefined && info.mtimeMs < cutoffMs) await rm(path, { force: true })
    }
  })
}
