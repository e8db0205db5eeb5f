import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { RouteDescriptor } from '../../contract/route'
import type { AuthUser } from '../modules/accounts/users.service'
import { claimResumableUpload } from '../modules/resumable-uploads/claim-upload'
import { AppError, fieldError } from './app-error'
import { documentedRouteOf, parseInput } from './define-route'
import { okEnvelope } from './envelope'
import { readMultipartForm } from './multipart'

/**
 * The shared shape of the upload routes whose file only passes through on its way to a service
 * (tileset archives, PMTiles basemaps, IndoorGML): the file arrives in a multipart `file`
 * field and is streamed to a private file (never held in memory, never put into the shared
 * content-addressed store before it is checked), or it is a finished resumable upload named by
 * an `upload_id` field. Not defineRoute, which stores files as they stream in.
 */

/** An upload's file: received now into the incoming folder, or a claimed resumable upload. */
export interface ReceivedUpload {
  path: string
  /** The name the client gave; for display only, never a path. */
  fileName: string
  sizeBytes: number
  /**
   * Called once, when the route is done with the file: `done` and `refused` (it will never be
   * accepted) delete it; `failed` gives a resumable upload back so the client may retry.
   */
  dispose(outcome: 'done' | 'refused' | 'failed'): Promise<void>
}

/** Options of {@link receiveUpload}. */
export interface ReceiveUploadOptions {
  /** Private folder for files received now; created when needed. */
  incomingDirectory: string
  maxFileBytes: number
  tooLargeError: () => AppError
  /**
   * Checks the fields that came before the file (all fields, for a resumable upload) before a
   * byte of the file is read or a resumable upload is claimed, e.g. that the caller may upload
   * to the project named: a wrong project must not cost the user a large transfer.
   */
  beforeFile?(fields: ReadonlyArray<readonly [string, string]>): Promise<void>
}

/** Most plain fields of an upload form; real ones have three or four. */
const maxUploadFields = 50

/**
 * Reads an upload request: multipart fields plus at most one `file`, or form/JSON fields with the
 * `upload_id` of a resumable upload (also accepted in a multipart body without a file).
 * `file` is undefined when neither came; the route says which is required.
 */
export async function receiveUpload(
  app: FastifyInstance,
  request: FastifyRequest,
  options: ReceiveUploadOptions,
): Promise<{ fields: Record<string, unknown>; file: ReceivedUpload | undefined }> {
  if (!request.isMultipart()) {
    const fields = (request.body ?? {}) as Record<string, unknown>
    return { fields, file: await claimUploadField(app, request, fields, options) }
  }
  await mkdir(options.incomingDirectory, { recursive: true })
  let file: ReceivedUpload | undefined
  let fields: Record<string, unknown>
  try {
    fields = await readMultipartForm(request, {
      limits: {
        fileFields: ['file'],
        maxFiles: 1,
        maxFields: maxUploadFields,
        maxFileSizeBytes: options.maxFileBytes,
      },
      fileTooLargeError: options.tooLargeError,
      async onFile(part, fieldsBefore) {
        await options.beforeFile?.(fieldsBefore)
        const path = join(options.incomingDirectory, `${randomUUID()}.upload`)
        const received: ReceivedUpload = {
          path,
          fileName: part.filename || 'upload',
          sizeBytes: 0,
          dispose: () => rm(path, { force: true }),
        }
        file = received
        const output = createWriteStream(path, { flags: 'wx' })
        await pipeline(part.file, output)
        received.sizeBytes = output.bytesWritten
      },
    })
  } catch (error) {
    await file?.dispose('failed')
    throw error
  }
  return { fields, file: file ?? (await claimUploadField(app, request, fields, options)) }
}

/** Claims the resumable upload named by the `upload_id` field, if there is one. */
async function claimUploadField(
  app: FastifyInstance,
  request: FastifyRequest,
  fields: Record<string, unknown>,
  options: ReceiveUploadOptions,
): Promise<ReceivedUpload | undefined> {
  const uploadId = fields.upload_id
  if (typeof uploadId !== 'string') return undefined
  await options.beforeFile?.(
    Object.entries(fields).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value] as const] : [],
    ),
  )
  const claimed = await claimResumableUpload(app, {
    userId: request.user!.id,
    uploadId,
    // refused (and deleted) before a bucket's copy of it is fetched
    refuseSize: (sizeBytes) =>
      sizeBytes > options.maxFileBytes ? options.tooLargeError() : undefined,
  })
  return {
    path: claimed.filePath,
    fileName: claimed.fileName,
    sizeBytes: claimed.sizeBytes,
    async dispose(outcome) {
      if (outcome === 'failed') await claimed.giveBack()
      else await claimed.release()
    },
  }
}

/**
 * The server's half of a pass-through upload route; method, path, auth, the fields' and the
 * answer's schemas and the file field are in its descriptor (contract/).
 */
export interface UploadRouteImplementation<Body extends z.ZodType, Datum extends z.ZodType> {
  /** Largest JSON or form body, for routes that take less than the app's default. */
  bodyLimit?: number
  /** Where the file goes and how large it may be, for this request. */
  receive(request: FastifyRequest): ReceiveUploadOptions
  /** The refusal when neither a file nor `upload_id` came (default: `upload.fileOrUploadId`). */
  missingFileError?(request: FastifyRequest): AppError
  /** Whether an error means the file will never be accepted, so it is deleted (default: any AppError). */
  isRefusal?(error: unknown): boolean
  /** Hands the checked fields and the received file to the service; returns the datum. */
  handler(input: {
    body: z.output<Body>
    file: ReceivedUpload
    user: AuthUser
    request: FastifyRequest
  }): Promise<z.input<Datum>>
}

/**
 * Registers a pass-through upload route from its descriptor (an editors' route with a body and
 * one `file` field): documents it for OpenAPI, receives the file, validates the fields, calls
 * the handler and answers the envelope; the file is deleted when it is done with or refused,
 * and a resumable upload is given back when the call failed.
 */
export function defineUploadRoute<Body extends z.ZodType, Datum extends z.ZodType>(
  app: FastifyInstance,
  route: RouteDescriptor<Datum, 'editor', Body, undefined>,
  implementation: UploadRouteImplementation<Body, Datum>,
): void {
  app.openApi.add(documentedRouteOf(route))
  const body = route.body as Body
  const isRefusal = implementation.isRefusal ?? ((error: unknown) => error instanceof AppError)
  const options = {
    config: { auth: route.auth },
    ...(implementation.bodyLimit === undefined ? {} : { bodyLimit: implementation.bodyLimit }),
  }
  app.route({
    method: route.method,
    url: route.path,
    ...options,
    handler: async (request) => {
      const { fields, file } = await receiveUpload(app, request, implementation.receive(request))
      let outcome: 'done' | 'refused' | 'failed' = 'failed'
      try {
        const input = parseInput(body, fields)
        if (file === undefined) {
          throw (
            implementation.missingFileError?.(request) ??
            fieldError('validation', 'file', 'upload.fileOrUploadId')
          )
        }
        const datum = await implementation.handler({
          body: input,
          file,
          user: request.user!,
          request,
        })
        outcome = 'done'
        return okEnvelope(route.datum.parse(datum))
      } catch (error) {
        if (isRefusal(error)) outcome = 'refused'
        throw error
      } finally {
        await file?.dispose(outcome)
      }
    },
  })
}
