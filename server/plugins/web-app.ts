import { existsSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join, relative, sep } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import helmet from 'helmet'

/** Answers a browser path that is not a file: the app's index.html, or how to build it. */
export type WebAppFallback = (reply: FastifyReply) => FastifyReply

/** What `/` says when `vite build` has not been run. */
export const webAppMissingMessage =
  'The Twinscape web app is not built yet. Run `npm run build`, then restart the server.\n'

/**
 * Serves the built web app (`vite build` into WEB_DIR). Hashed files under /assets/ never change,
 * so browsers keep them for a year; index.html and other unhashed files are revalidated on
 * every load, so a new build shows up at once. The build writes brotli and gzip copies beside
 * each text file (tools/vite-precompress.ts); a browser that accepts one gets it, with
 * `Content-Encoding` and `Vary: Accept-Encoding`, and nothing is compressed per request.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDir: string,
): Promise<WebAppFallback> {
  if (!existsSync(join(webDir, 'index.html'))) {
    return (reply) => reply.code(503).type('text/plain; charset=utf-8').send(webAppMissingMessage)
  }
  await app.register(fastifyStatic, {
    root: webDir,
    // One route per built file instead of a catch-all, so unknown /web/ calls stay 404 envelopes.
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      const isHashedAsset = relative(webDir, path).startsWith(`assets${sep}`)
      reply.header(
        'cache-control',
        isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
    },
  })
  return (reply) => reply.sendFile('index.html')
}

/**
 * Security headers on every answer: `Cache-Control: no-store` on /web/ answers that do not set
 * their own, and `Strict-Transport-Security` on answers to https requests (HSTS_MAX_AGE_SECONDS). The CSP lets the app run what it needs: WebAssembly
 * decoders ('wasm-unsafe-eval'), workers and decoded media from blob: URLs, data: images,
 * WebGL (no directive needed), inline style attributes set by UI libraries; `extraOrigins`
 * (CSP_EXTRA_ORIGINS) adds map, video and embedded-page servers; `frameOrigins` (the configured
 * ThingsBoard and shadow-render editor) may only be framed, nothing more.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: {
    extraOrigins: readonly string[]
    frameOrigins?: readonly string[]
    hstsMaxAgeSeconds: number
  },
): void {
  const securityHeaders = helmetHeadersOf(options.extraOrigins, options.frameOrigins ?? [])
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders)
    done()
  })
  const hsts = options.hstsMaxAgeSeconds > 0 ? `max-age=${options.hstsMaxAgeSeconds}` : undefined
  app.addHook('onSend', async (request, reply, payload) => {
    // The protocol the client used: X-Forwarded-Proto counts only with TRUST_PROXY.
    if (hsts !== undefined && request.protocol === 'https') {
      reply.header('strict-transport-security', hsts)
    }
    // API answers carry tokens and personal data: no cache may keep them, unless the route
    // said it is cacheable (uploaded images, region data, tiles set their own Cache-Control).
    if (isWebApiPath(request.url.split('?')[0] ?? '') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store')
    }
    return payload
  })
}

/**
 * Helmet's headers, worked out once. Every one of them is the same for every answer (no
 * nonces, no per-request directives); @fastify/helmet rebuilt helmet, parsing the whole CSP
 * again, on every request (about 0.05 ms each, health checks included).
 */
function helmetHeadersOf(
  extraOrigins: readonly string[],
  frameOrigins: readonly string[],
): Record<string, string> {
  const remote = [...extraOrigins]
  const framed = [...new Set([...remote, ...frameOrigins])]
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        childSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...remote],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'blob:', 'data:', ...remote],
        mediaSrc: ["'self'", 'blob:', ...remote],
        frameSrc: ["'self'", ...framed],
        frameAncestors: ["'self'", ...remote],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    // Served over plain HTTP on a LAN as often as behind TLS: HSTS only on https (below).
    strictTransportSecurity: false,
  })
  const headers: Record<string, string> = {}
  // What helmet would set on a response (it only sets headers, or removes X-Powered-By,
  // which Fastify never sends).
  const collector = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value
    },
    removeHeader() {},
  }
  middleware({} as IncomingMessage, collector as unknown as ServerResponse, (error) => {
    if (error) throw error
  })
  return headers
}

/** True for paths of the JSON API. */
export function isWebApiPath(path: string): boolean {
  return path === '/web' || path.startsWith('/web/')
}
