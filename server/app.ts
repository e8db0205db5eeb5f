import { randomUUID } from 'node:crypto'
import fastifyMultipart from '@fastify/multipart'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from './config'
import { composeServer, type ServerRole } from './composition'
import { AppError } from './http/app-error'
import { defaultFormLimits, parseFormBody } from './http/form-body'
import { checkJsonText, shapeError } from './http/input-shape'
import { OpenApiRegistry } from './http/openapi'
import { embeddedFrameOrigins } from './modules/iot/embedded-products'
import { type Clock, systemClock } from './modules/time/clock'
import { registerAuthHook } from './plugins/auth'
import { openProcessCoordination } from './plugins/coordination'
import { openDatabase } from './plugins/db'
import { answerClientError, registerErrorHandling, sendError } from './plugins/errors'
import {
  createRefusalBudget,
  createRefusalHolds,
  earlyRefusalServerFactory,
  registerRefusalBudget,
} from './plugins/refusal-budget'
import { openFileStorage } from './plugins/open-storage'
import { isWebApiPath, registerSecurityHeaders, registerWebApp } from './plugins/web-app'
import { registerWebRoutes } from './routes/web'

/** Options for tests and embedding; production uses the defaults. */
export interface BuildAppOptions {
  /** Time source for sessions and timestamps; tests pass a clock they can move. */
  clock?: Clock
  /** Where log lines go (default stdout); tests capture them to check what is logged. */
  logStream?: { write(line: string): void }
  /** What the process is for (default `api`); see {@link ServerRole}. */
  role?: ServerRole
}

/**
 * Largest JSON or form body a route takes unless it declares more (`bodyLimitBytes` in
 * defineRoute): the real bodies of most calls are well under 10 KB. Fastify refuses a larger
 * Content-Length before reading a byte, so an anonymous client can make the server parse at
 * most this much per request; the few calls that need more (a GIS model's feature ids, a
 * project's tile list, a notice) are for signed-in users, whose token is checked before the
 * body is read. Uploads go through multipart, which has its own limits.
 */
export const bodyLimitBytes = 64 * 1024

/** Marks a query string that could not be parsed; the error is answered once routing is done. */
const queryError = Symbol('queryError')

function parseQueryString(text: string): Record<string, unknown> {
  try {
    return parseFormBody(text, defaultFormLimits)
  } catch (error) {
    return { [queryError]: error }
  }
}

export { isWebApiPath }

/**
 * Builds the whole server without listening, so tests drive it with `app.inject()`. Opens the
 * database (not migrated: serve.ts and the test app do that) and the file store; closing the
 * app closes them.
 */
export async function buildApp(
  config: Config,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const refusalBudget = createRefusalBudget(config.refusalBudget, options.clock ?? systemClock)
  const refusalHolds = createRefusalHolds(config.refusalBudget.holdMs ?? 0)
  const app = Fastify({
    // Without a trusted proxy, a client out of its budget of refused requests is held a while,
    // then answered before Fastify builds anything for its request (a flood's requests are
    // almost all such).
    ...(config.trustProxy
      ? {}
      : { serverFactory: earlyRefusalServerFactory(refusalBudget, refusalHolds) }),
    logger: {
      level: config.logLevel,
      ...(options.logStream === undefined ? {} : { stream: options.logStream }),
      redact: {
        paths: [
          'req.headers.token',
          'req.headers.authorization',
          'req.headers.cookie',
          'password',
          '*.password',
          'token',
          '*.token',
        ],
        censor: '[redacted]',
      },
      serializers: {
        // The path only: query strings may carry tickets and tokens.
        req: (request: { method: string; url: string; ip?: string }) => ({
          method: request.method,
          path: request.url.split('?')[0],
          remoteAddress: request.ip,
        }),
      },
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { querystringParser: parseQueryString },
    // Errors before routing (a malformed address) get the envelope too.
    frameworkErrors: (error, request, reply) => sendError(request, reply, error),
    // What Node's parser refuses before a request exists (a URL over 16 KB) gets one too.
    clientErrorHandler: answerClientError,
  })

  // Held requests are answered at once: closing waits for every request in flight.
  app.addHook('preClose', async () => {
    refusalHolds.releaseAll()
  })
  const database = openDatabase(config.database)
  // what the processes sharing this database agree on: locks on a connection of its own
  const coordination = openProcessCoordination(config.database)
  app.addHook('onClose', async () => {
    await database.close()
    await coordination.close()
  })
  try {
    // the folder DATA_DIR/files, or an S3-compatible bucket shared by every server process
    const storage = await openFileStorage(
      config.storage.kind === 's3'
        ? { kind: 's3', settings: config.storage, spoolDirectory: config.filesDir }
        : { kind: 'folder', directory: config.filesDir },
      { onStoreError: (error) => app.log.warn({ err: error }, 'the object store failed') },
    )
    app.addHook('onClose', async () => {
      storage.close()
    })
    // every service, hook and timer of the app (server/composition.ts)
    const deps = composeServer(app, {
      config,
      clock: options.clock ?? systemClock,
      database,
      storage,
      coordination,
      role: options.role ?? 'api',
    })
    app.decorate('deps', deps)
    const openApi = new OpenApiRegistry()
    app.decorate('openApi', openApi)
    app.addHook('onRoute', (route) => {
      if (!isWebApiPath(route.url)) return
      for (const method of [route.method].flat()) openApi.noteServed(method, route.url)
    })

    registerErrorHandling(app)
    // First of the request hooks: a client out of budget is refused before any other work.
    registerRefusalBudget(app, refusalBudget)
    registerBodyParsers(app)
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: config.uploadLimitBytes, fields: defaultFormLimits.maxPairs },
    })
    registerSecurityHeaders(app, {
      extraOrigins: config.cspExtraOrigins,
      frameOrigins: embeddedFrameOrigins(config.embeddedProducts),
      hstsMaxAgeSeconds: config.hstsMaxAgeSeconds,
    })
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id)
      // Path parameters and query values reach lookups unvalidated; none may hold a NUL.
      if (/%00/i.test(request.url)) throw new AppError('validation', 'request.addressNulText')
      const query = request.query as Record<symbol, unknown> | undefined
      if (query?.[queryError] !== undefined) throw query[queryError]
    })
    registerAuthHook(app, deps.services.auth)
    registerWebRoutes(app, deps.services)

    const webAppFallback = await registerWebApp(app, config.webDir)
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/'
      const isPageRequest = request.method === 'GET' || request.method === 'HEAD'
      if (isPageRequest && !isWebApiPath(path) && !path.startsWith('/assets/')) {
        return webAppFallback(reply)
      }
      sendError(
        request,
        reply,
        new AppError('notFound', 'request.routeNotFound', { method: request.method, path }),
      )
    })
  } catch (error) {
    await app.close()
    throw error
  }
  return app
}

/** JSON (an empty body counts as no body) and form-encoded bodies with nested keys. */
function registerBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // Clients send `findUserName` and the like with a JSON content type and no body at all.
    if (body === '') {
      done(null, undefined)
      return
    }
    // A cheap scan of the text before JSON.parse builds anything: depth, keys and values.
    // a route taking long lists of objects raises the limits (define-route's `inputLimits`)
    const limits = request.routeOptions.config.inputLimits
    const problem = checkJsonText(body as string, limits)
    if (problem !== undefined) {
      done(shapeError(problem, limits), undefined)
      return
    }
    parseJson(request, body as string, done)
  })
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseFormBody(body as string))
      } catch (error) {
        done(error as Error, undefined)
      }
    },
  )
}
