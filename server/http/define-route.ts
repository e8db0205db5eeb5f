import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { emptyBodySchema } from '../../contract/common'
import type { ValidationIssue } from '../../contract/envelope'
import {
  formatServerMessage,
  isMessageId,
  type MessageId,
  type MessageParam,
  type MessageParams,
} from '../../contract/messages'
import type { AuthUser } from '../modules/accounts/users.service'
import type { FileStorage } from '../plugins/storage'
import { okEnvelope } from './envelope'
import { readMultipartForm } from './multipart'
import { checkInputShape, type JsonTextLimits, shapeError } from './input-shape'
import type { RouteAuth, RouteDescriptor } from '../../contract/route'
import type { DocumentedRoute } from './openapi'
import { AppError } from './app-error'

export type { RouteAuth, RouteMethod } from '../../contract/route'

/** A file a multipart request carried, already stored (server/plugins/storage.ts). */
export interface UploadedFile {
  fieldName: string
  /** The name the client gave; only for display, never a path. */
  fileName: string
  /** The type the client claimed; check the content before trusting it. */
  mimeType: string
  sha256: string
  sizeBytes: number
}

/** Server-side limits of a multipart route's files (the field names are in its descriptor). */
export interface FileLimits {
  maxFiles: number
  /** Per file; also capped by UPLOAD_LIMIT_MB. */
  maxFileSizeBytes: number
}

/** Multipart file fields a route accepts. */
interface FileFieldsOptions extends FileLimits {
  /** Field names that may carry files; others are refused. */
  fields: readonly string[]
}

/** What a handler receives: validated input, the caller, and the raw request when needed. */
export interface RouteContext<Body, Query, Auth extends RouteAuth> {
  body: Body
  query: Query
  /** Always set on routes that need a sign-in; on public routes only when a valid token came. */
  user: Auth extends 'public' ? AuthUser | null : AuthUser
  /** Files of a multipart request, empty otherwise. */
  files: UploadedFile[]
  request: FastifyRequest
  reply: FastifyReply
}

/** What a handler gets for a schema of the descriptor: its output, or `{}` when there is none. */
type InputOf<Schema extends z.ZodType | undefined> = Schema extends z.ZodType
  ? z.output<Schema>
  : z.output<typeof emptyBodySchema>

/** The server's half of a route: its handler and server-only limits. */
export interface RouteImplementation<
  BodySchema extends z.ZodType | undefined,
  QuerySchema extends z.ZodType | undefined,
  DatumSchema extends z.ZodType,
  Auth extends RouteAuth,
> {
  /** Limits of the files a multipart route accepts on its descriptor's `fileFields`. */
  files?: FileLimits
  /**
   * Raises the server's 64 KiB limit (server/app.ts) for this route's JSON and form bodies;
   * the size comes from the contract beside the schema that needs it, whose big lists must be
   * cheap to check (contract/form-fields.ts `checkedList`).
   */
  bodyLimitBytes?: number
  /**
   * Raises the input shape limits (contract/json-text.ts: keys and values of a body) for a route
   * whose contract takes long lists of objects, e.g. 100,000 POIs of one list call. Set only on
   * routes for signed-in editors: the auth hook refuses others before the body is read.
   */
  inputLimits?: JsonTextLimits
  /**
   * Parses and validates the body itself instead of the contract schema on the request thread,
   * e.g. in a worker thread for a route taking lists of 100,000 items (server/routes/web/pois.ts);
   * gets what the content-type parser gave (the raw bytes for such a route's JSON bodies).
   */
  parseBody?(raw: unknown, request: FastifyRequest): Promise<InputOf<BodySchema>>
  handler(
    context: RouteContext<InputOf<BodySchema>, InputOf<QuerySchema>, Auth>,
  ): Promise<z.input<DatumSchema>> | z.input<DatumSchema>
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by defineRoute; read by the auth hook (server/plugins/auth.ts). */
    auth?: RouteAuth
    /** Set by defineRoute from `inputLimits`; read by the JSON body parser (server/app.ts). */
    inputLimits?: JsonTextLimits
  }
}

/** What the OpenAPI document says of a route, from its descriptor. */
export function documentedRouteOf(route: RouteDescriptor): DocumentedRoute {
  return {
    method: route.method,
    url: route.path,
    auth: route.auth,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: route.tags === undefined ? [route.path.split('/')[2] ?? 'web'] : [...route.tags],
    ...(route.body === undefined ? {} : { body: route.body }),
    ...(route.query === undefined ? {} : { query: route.query }),
    datum: route.datum,
    ...(route.fileFields === undefined ? {} : { fileFields: route.fileFields }),
  }
}

/**
 * Registers a /web/ route from its descriptor in contract/ (method, path, auth, schemas) and
 * its handler: the input is validated (a failure answers `validation` naming each field), the
 * auth hook checks the caller before the body is read, the handler's datum is wrapped in the
 * envelope, and the route joins the OpenAPI document.
 *
 * ```ts
 * defineRoute(app, noticeRoutes.createNotice, {
 *   handler: ({ body, user }) => notices.createNotice(user.id, body),
 * })
 * ```
 */
export function defineRoute<
  DatumSchema extends z.ZodType,
  Auth extends RouteAuth,
  BodySchema extends z.ZodType | undefined,
  QuerySchema extends z.ZodType | undefined,
>(
  app: FastifyInstance,
  route: RouteDescriptor<DatumSchema, Auth, BodySchema, QuerySchema>,
  implementation: RouteImplementation<BodySchema, QuerySchema, DatumSchema, Auth>,
): void {
  app.openApi.add(documentedRouteOf(route))
  const files: FileFieldsOptions | undefined =
    route.fileFields === undefined
      ? undefined
      : {
          fields: route.fileFields,
          maxFiles: implementation.files?.maxFiles ?? 0,
          maxFileSizeBytes: implementation.files?.maxFileSizeBytes ?? 0,
        }
  type Body = InputOf<BodySchema>
  type Query = InputOf<QuerySchema>

  app.route({
    method: route.method,
    url: route.path,
    config: {
      auth: route.auth,
      ...(implementation.inputLimits === undefined
        ? {}
        : { inputLimits: implementation.inputLimits }),
    },
    ...(implementation.bodyLimitBytes === undefined
      ? {}
      : { bodyLimit: implementation.bodyLimitBytes }),
    handler: async (request, reply) => {
      let rawBody: unknown = request.body
      let uploaded: UploadedFile[] = []
      if (request.isMultipart()) {
        const multipart = await readMultipart(request, files, app.deps.storage, {
          uploadLimitBytes: app.deps.config.uploadLimitBytes,
        })
        rawBody = multipart.fields
        uploaded = multipart.files
      }
      let body: Body
      let query: Query
      try {
        body = (
          route.body === undefined
            ? {}
            : implementation.parseBody !== undefined
              ? await implementation.parseBody(rawBody, request)
              : parseInput(route.body, rawBody ?? {}, implementation.inputLimits)
        ) as Body
        query = (
          route.query === undefined ? {} : parseInput(route.query, request.query ?? {})
        ) as Query
      } catch (error) {
        await removeNewFiles(app.deps.storage, uploaded)
        throw error
      }
      const result = await implementation.handler({
        body,
        query,
        user: request.user as RouteContext<unknown, unknown, Auth>['user'],
        files: uploaded,
        request,
        reply,
      })
      const datum = route.datum.safeParse(result)
      if (!datum.success) {
        // A handler answering outside its contract is our bug, never the caller's.
        throw new Error(
          `${route.method} ${route.path} answered a datum outside its contract: ${datum.error.message}`,
        )
      }
      return okEnvelope(datum.data)
    },
  })
}

/**
 * Names a missing field's issue by the message id 'validation.required' rather than zod's
 * "expected string, received undefined" (only the error map sees the input).
 */
const requiredFieldMessages: z.core.$ZodErrorMap = (issue) =>
  issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')
    ? ('validation.required' satisfies MessageId)
    : undefined

/**
 * Validates input with a contract schema. Throws a `validation` AppError naming the wrong fields,
 * whose details list `{ field, message, messageId, params }` for each, so a form can point at
 * the field and the console can say the problem in the user's language.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  limits?: JsonTextLimits,
): z.output<Schema> {
  // Depth, size and NUL first, in one iterative pass: zod's walk is recursive and allocates
  // per value, so it would pay for a hostile shape before refusing it.
  const problem = checkInputShape(value, limits)
  if (problem !== undefined) {
    if (problem.kind === 'nulText') {
      throw invalidFieldsError([{ field: problem.field, ...issueText('validation.nulText', {}) }])
    }
    throw shapeError(problem, limits)
  }
  const result = schema.safeParse(value, { error: requiredFieldMessages })
  if (result.success) return result.data
  throw validationErrorOf(result.error.issues)
}

/** The validation AppError for a list of zod issues. */
export function validationErrorOf(issues: readonly z.core.$ZodIssue[]): AppError {
  // A body of thousands of wrong items gives thousands of issues: the answer lists the first few.
  return invalidFieldsError(
    issues.slice(0, maxReportedIssues).map((issue) => ({
      field: issue.path.map(String).join('.'),
      ...issueMessage(issue),
    })),
    issues.length,
  )
}

/** Most issues listed in a validation answer's details. */
const maxReportedIssues = 20

/**
 * The validation AppError for wrong fields: its message id names them ('Please check these
 * fields: name, password.'), its details say what is wrong with each, and its English message
 * lists both (`name: Required; password: At least 8 characters`) for logs and API tools.
 */
export function invalidFieldsError(
  details: ValidationIssue[],
  issueCount = details.length,
): AppError {
  const fields = [...new Set(details.map((detail) => detail.field || '-'))]
  const shown = details
    .slice(0, 3)
    .map((detail) => (detail.field === '' ? detail.message : `${detail.field}: ${detail.message}`))
  const more = issueCount > 3 ? ` (and ${issueCount - 3} more)` : ''
  return new AppError(
    'validation',
    'validation.invalidFields',
    { fields: fields.join(', ') },
    { details, englishText: `${shown.join('; ')}${more}` },
  )
}

/** A catalogue message as a validation detail carries it. */
export function issueText<Id extends MessageId>(
  id: Id,
  params: MessageParams<Id>,
): Pick<ValidationIssue, 'message' | 'messageId' | 'params'> {
  const values = params as Record<string, MessageParam>
  return { message: formatServerMessage(id, values), messageId: id, params: values }
}

/** Zod's expected type names → what a person is told the field needs. */
const expectedTypeMessages: Partial<
  Record<string, Extract<MessageId, `validation.expected${string}`>>
> = {
  number: 'validation.expectedNumber',
  int: 'validation.expectedInteger',
  bigint: 'validation.expectedInteger',
  string: 'validation.expectedText',
  boolean: 'validation.expectedBoolean',
  array: 'validation.expectedList',
  tuple: 'validation.expectedList',
  object: 'validation.expectedObject',
  record: 'validation.expectedObject',
}

/**
 * The catalogue message of one zod issue. A contract refinement may name its message by id
 * (`.refine(check, 'validation.jsonObject')`); zod's own issues map by their code.
 */
function issueMessage(
  issue: z.core.$ZodIssue,
): Pick<ValidationIssue, 'message' | 'messageId' | 'params'> {
  if (isMessageId(issue.message)) {
    const params = (issue.code === 'custom' ? issue.params : undefined) ?? {}
    return {
      message: formatServerMessage(issue.message, params as Record<string, MessageParam>),
      messageId: issue.message,
      params: params as Record<string, MessageParam>,
    }
  }
  switch (issue.code) {
    case 'invalid_type':
      return issueText(expectedTypeMessages[issue.expected] ?? 'validation.invalid', {})
    case 'too_small': {
      const minimum = Number(issue.minimum)
      if (issue.origin === 'string') return issueText('validation.tooShort', { minimum })
      if (issue.origin === 'array' || issue.origin === 'set')
        return issueText('validation.tooFewItems', { minimum })
      return issue.inclusive === false
        ? issueText('validation.notAbove', { minimum })
        : issueText('validation.tooSmall', { minimum })
    }
    case 'too_big': {
      const maximum = Number(issue.maximum)
      if (issue.origin === 'string') return issueText('validation.tooLong', { maximum })
      if (issue.origin === 'array' || issue.origin === 'set')
        return issueText('validation.tooManyItems', { maximum })
      return issue.inclusive === false
        ? issueText('validation.notBelow', { maximum })
        : issueText('validation.tooBig', { maximum })
    }
    case 'invalid_format':
      return issue.format === 'email'
        ? issueText('validation.invalidEmail', {})
        : issueText('validation.invalidFormat', {})
    case 'invalid_value':
      return issueText('validation.oneOf', { values: issue.values.map(String).join(', ') })
    case 'not_multiple_of':
      return issueText('validation.notMultipleOf', { divisor: Number(issue.divisor) })
    case 'unrecognized_keys':
      return issueText('validation.unknownFields', { fields: issue.keys.join(', ') })
    default:
      return issueText('validation.invalid', {})
  }
}

/** Most plain (non-file) multipart fields per request, matching the form-body limit. */
const maxMultipartFields = 2_000

async function readMultipart(
  request: FastifyRequest,
  options: FileFieldsOptions | undefined,
  storage: FileStorage,
  limits: { uploadLimitBytes: number },
): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  const files: UploadedFile[] = []
  const maxFileSizeBytes = Math.min(options?.maxFileSizeBytes ?? 0, limits.uploadLimitBytes)
  try {
    const fields = await readMultipartForm(request, {
      limits: {
        fileFields: options?.fields ?? [],
        maxFiles: options?.maxFiles ?? 0,
        maxFields: maxMultipartFields,
        maxFileSizeBytes,
      },
      fileTooLargeError: () => new AppError('tooLarge', 'request.fileTooLarge'),
      async onFile(part) {
        const stored = await storage.put(part.file, { maxSizeBytes: maxFileSizeBytes })
        files.push({
          fieldName: part.fieldname,
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we drop
          fileName: part.filename.replace(/[\u0000-\u001f\u007f]/g, ''),
          mimeType: part.mimetype,
          sha256: stored.sha256,
          sizeBytes: stored.sizeBytes,
          ...(stored.isNew ? { [newFileMark]: true } : {}),
        })
      },
    })
    return { fields, files }
  } catch (error) {
    await removeNewFiles(storage, files)
    throw error
  }
}

/** Marks uploads that created their stored file, so a refused request can take them back. */
const newFileMark = Symbol('newFile')

async function removeNewFiles(storage: FileStorage, files: UploadedFile[]): Promise<void> {
  // Content-addressed files may be shared: only files this request created are removed.
  for (const file of files) {
    if ((file as UploadedFile & { [newFileMark]?: boolean })[newFileMark]) {
      await storage.remove(file.sha256)
    }
  }
}
