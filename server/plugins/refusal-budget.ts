import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyServerFactory } from 'fastify'
import { errorCatalogue } from '../../contract/errors'
import { systemRoutes } from '../../contract/system'
import { AppError } from '../http/app-error'
import { errorEnvelope } from '../http/envelope'
import type { RefusalBudgetSettings } from '../config'
import type { Clock } from '../modules/time/clock'
import { sendError } from './errors'
import { isWebApiPath } from './web-app'

/**
 * A per-client budget of refused requests (issue 13, class 1): an answer of 400, 413 or 415
 * costs its client one token, and a client with no token left gets the 429 envelope before
 * anything of its request is read. A hostile body costs the server a parse and a validation to
 * refuse (about 1 ms of CPU for the worst ones); a client repeating them without pause would
 * take the event loop from every other client, and a 429 decided from one Map lookup costs
 * almost nothing. A real client meets refusals one at a time (a form with a mistake), far
 * below the budget.
 */
export interface RefusalBudget {
  /**
   * Takes one token from the client (an answer refused its request); true when that was its
   * last one.
   */
  charge(address: string): boolean
  /**
   * Seconds until the client has a token again, or 0 when it has one now (its request may
   * be read).
   */
  waitSeconds(address: string): number
  /** How many clients are remembered (bounded by `maxAddresses`). */
  clientCount(): number
  /**
   * Counts a request answered 429 for want of budget (such answers are not logged one by one:
   * a flood would fill the log) and gives the count so far.
   */
  countRefusal(): number
}

interface Bucket {
  tokens: number
  /** When `tokens` was last brought up to date. */
  atMs: number
}

const defaultMaxAddresses = 10_000

/** A budget held in memory, per address (IPv6 per /64: one host holds a whole /64). */
export function createRefusalBudget(settings: RefusalBudgetSettings, clock: Clock): RefusalBudget {
  const maxAddresses = settings.maxAddresses ?? defaultMaxAddresses
  const tokensPerMs = settings.perMinute / 60_000
  const buckets = new Map<string, Bucket>()
  let refusalCount = 0

  /** Tokens of a bucket now (refilled since it was last seen, never above the burst). */
  const tokensOf = (bucket: Bucket, nowMs: number) =>
    Math.min(settings.burst, bucket.tokens + (nowMs - bucket.atMs) * tokensPerMs)

  /** Room for one more address: full buckets first (they mean nothing), then the oldest. */
  const makeRoom = (nowMs: number) => {
    for (const [key, bucket] of buckets) {
      if (tokensOf(bucket, nowMs) >= settings.burst) buckets.delete(key)
    }
    // Forget a tenth at once, so a client cycling through many addresses does not make every
    // new one pay for a walk over all the others.
    const excess = buckets.size - Math.floor(maxAddresses * 0.9)
    let removed = 0
    for (const key of buckets.keys()) {
      if (removed >= excess) break
      buckets.delete(key)
      removed++
    }
  }

  return {
    charge(address) {
      if (settings.burst === 0) return false
      const key = clientKeyOf(address)
      const nowMs = clock.nowMs()
      const bucket = buckets.get(key)
      if (bucket === undefined) {
        if (buckets.size >= maxAddresses) makeRoom(nowMs)
        buckets.set(key, { tokens: settings.burst - 1, atMs: nowMs })
        return settings.burst === 1
      }
      const tokens = tokensOf(bucket, nowMs)
      bucket.tokens = Math.max(0, tokens - 1)
      bucket.atMs = nowMs
      return tokens >= 1 && bucket.tokens < 1
    },
    waitSeconds(address) {
      if (settings.burst === 0 || buckets.size === 0) return 0
      const bucket = buckets.get(clientKeyOf(address))
      if (bucket === undefined) return 0
      const tokens = tokensOf(bucket, clock.nowMs())
      if (tokens >= 1) return 0
      return Math.max(1, Math.ceil((1 - tokens) / tokensPerMs / 1000))
    },
    clientCount: () => buckets.size,
    countRefusal: () => ++refusalCount,
  }
}

/**
 * The key a client is counted under: its IPv4 address (an IPv4-mapped IPv6 address counts as
 * the IPv4 one), or the first 64 bits of its IPv6 address, since a single host is commonly
 * given a whole /64 and could otherwise take a fresh address for every request.
 */
export function clientKeyOf(address: string): string {
  if (!address.includes(':')) return address
  const withoutZone = address.split('%')[0] ?? address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(withoutZone)
  if (mapped?.[1] !== undefined) return mapped[1]
  const [head = '', tail] = withoutZone.toLowerCase().split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const zeros = Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0')
  const groups = [...headGroups, ...zeros, ...tailGroups]
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/** Answers that refuse what the client sent: they cost the client a token. */
const refusedStatuses: ReadonlySet<number> = new Set([400, 413, 415])

/** True when a request announces a body (read or not). */
function hasBody(request: IncomingMessage): boolean {
  const { headers } = request
  const length = headers['content-length']
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/** The error of a client out of budget for `waitSeconds`. */
function overBudgetError(waitSeconds: number): AppError {
  return new AppError(
    'rateLimited',
    'request.tooManyRefused',
    { seconds: waitSeconds },
    { datum: { retryAfterSeconds: waitSeconds } },
  )
}

/** The 429 bodies answered so far, by seconds to wait (a handful of values: 1 to 60/perMinute). */
const overBudgetBodies = new Map<number, Buffer>()

/** The 429 envelope for `waitSeconds`, as bytes, built once per value. */
function overBudgetBody(waitSeconds: number): Buffer {
  let body = overBudgetBodies.get(waitSeconds)
  if (body === undefined) {
    const error = overBudgetError(waitSeconds)
    body = Buffer.from(
      JSON.stringify(
        errorEnvelope({
          kind: error.kind,
          message: error.message,
          serverMessage: error.serverMessage,
          ...(error.datum === undefined ? {} : { datum: error.datum }),
        }),
      ),
    )
    if (overBudgetBodies.size < 1_000) overBudgetBodies.set(waitSeconds, body)
  }
  return body
}

/** Most requests held at once from one client, and from all clients together. */
const maxHeldPerClient = 4
const maxHeldInAll = 256

/**
 * Requests of clients out of budget held unread for a while before their 429 is sent (see
 * {@link answerOverBudget}). A flooding client waits for each answer before its next request,
 * so holding them is what slows it down: answered at once, it would reconnect and send again in
 * a tight loop, and the kernel's and both processes' work per request (a connection opened and
 * closed, hundreds of kilobytes of body written and thrown away) would take the cores from
 * every other client however little the server itself does. A held request costs a paused
 * socket and a timer; a few per client and a few hundred in all are held, beyond which requests
 * are answered at once as before.
 */
export interface RefusalHolds {
  /**
   * Holds a request of client `key` on `socket` (paused, so no more of its body is read) and
   * calls `answer` after the hold; false, with nothing done, when the client or the server
   * already holds as many as it may (or holding is off).
   */
  hold(key: string, socket: Socket, answer: () => void): boolean
  /** Answers every held request now (the server is closing). */
  releaseAll(): void
  /** How many requests are held now. */
  heldCount(): number
}

/** Holds of `holdMs` each (0: never hold, answer at once). */
export function createRefusalHolds(holdMs: number): RefusalHolds {
  const perClient = new Map<string, number>()
  const releases = new Set<() => void>()
  return {
    hold(key, socket, answer) {
      const heldOfClient = perClient.get(key) ?? 0
      if (holdMs <= 0 || heldOfClient >= maxHeldPerClient || releases.size >= maxHeldInAll) {
        return false
      }
      perClient.set(key, heldOfClient + 1)
      let isOver = false
      const end = (isAnswered: boolean) => {
        if (isOver) return
        isOver = true
        clearTimeout(timer)
        socket.off('close', onClose)
        releases.delete(release)
        const left = (perClient.get(key) ?? 1) - 1
        if (left === 0) perClient.delete(key)
        else perClient.set(key, left)
        if (isAnswered) answer()
      }
      const release = () => end(true)
      // The connection ended (an error, a timeout): nothing to answer, its place is free again.
      const onClose = () => end(false)
      const timer = setTimeout(release, holdMs)
      socket.once('close', onClose)
      releases.add(release)
      socket.pause()
      return true
    },
    releaseAll() {
      for (const release of [...releases]) release()
    },
    heldCount: () => releases.size,
  }
}

/**
 * Answers a request of a client out of budget straight on Node's request, before Fastify makes
 * anything of it (its request and reply objects, route, hooks, logger, an Error with its stack,
 * the envelope's serialization): the same 429 envelope the hook below gives, as bytes built
 * once, after holding it in `holds` when there is room (else at once). A flooding client's
 * requests are almost all of this kind, so what one costs is what the flood takes from
 * everyone else's requests. True when it answered or will answer. `address` is the client's
 * address as the app sees it (without a trusted proxy: the socket's peer).
 */
export function answerOverBudget(
  budget: RefusalBudget,
  address: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
  holds?: RefusalHolds,
): boolean {
  if (address === undefined) return false
  const waitSeconds = budget.waitSeconds(address)
  if (waitSeconds === 0) return false
  const url = request.url ?? ''
  if (!isWebApiPath(url)) return false
  const queryAt = url.indexOf('?')
  if ((queryAt < 0 ? url : url.slice(0, queryAt)) === systemRoutes.health.path) return false
  budget.countRefusal()
  const answer = () => {
    const body = overBudgetBody(waitSeconds)
    const headers: Record<string, string | number> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.byteLength,
      'retry-after': String(waitSeconds),
      'cache-control': 'no-store',
    }
    // Reading and throwing away the body would cost what the budget saves.
    if (hasBody(request)) headers.connection = 'close'
    response.writeHead(errorCatalogue.rateLimited.httpStatus, headers)
    response.end(body)
  }
  if (holds?.hold(clientKeyOf(address), request.socket, answer) !== true) answer()
  return true
}

/**
 * Fastify's `serverFactory` for an app without a trusted proxy (the client is the socket's
 * peer): the HTTP server Fastify would make (same timeouts), whose requests from clients out of
 * budget are held in `holds` and answered by {@link answerOverBudget} before they reach
 * Fastify. Behind a trusted proxy the client's address comes from its headers, which only
 * Fastify reads: the hook of {@link registerRefusalBudget} answers then (as it does for
 * `inject`), at once.
 */
export function earlyRefusalServerFactory(
  budget: RefusalBudget,
  holds: RefusalHolds,
): FastifyServerFactory {
  return (handler, options) => {
    const server: Server = createServer(options.http ?? {}, (request, response) => {
      if (!answerOverBudget(budget, request.socket.remoteAddress, request, response, holds)) {
        handler(request, response)
      }
    })
    // Fastify types these options as unknown; it hands over the numbers it was configured with.
    const numberOption = (name: string) =>
      typeof options[name] === 'number' ? (options[name] as number) : undefined
    const keepAliveTimeout = numberOption('keepAliveTimeout')
    const requestTimeout = numberOption('requestTimeout')
    const maxRequestsPerSocket = numberOption('maxRequestsPerSocket') ?? 0
    if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout
    if (requestTimeout !== undefined) server.requestTimeout = requestTimeout
    server.setTimeout(numberOption('connectionTimeout') ?? 0)
    if (maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket
    return server
  }
}

/**
 * Holds every client to its budget of refused requests: each 400, 413 or 415 answer charges
 * the client's address (after the answer is sent), and a /web/ request of a client without
 * budget is answered 429 (`rateLimited`, `Retry-After`) in the first hook, before its body is
 * read, and its connection is closed when a body was coming. `/web/health` is never refused,
 * so monitoring from a crowded address keeps working. Register it before the other
 * `onRequest` hooks: a refused request then costs no more than its routing.
 */
export function registerRefusalBudget(app: FastifyInstance, budget: RefusalBudget): void {
  app.addHook('onRequest', async (request, reply) => {
    const waitSeconds = budget.waitSeconds(request.ip)
    if (waitSeconds === 0) return
    if (request.routeOptions.url === systemRoutes.health.path) return
    if (!isWebApiPath(request.url)) return
    budget.countRefusal()
    // Reading and throwing away the body would cost what the budget saves.
    if (hasBody(request.raw)) reply.header('connection', 'close')
    sendError(request, reply, overBudgetError(waitSeconds), { isLogged: false })
    return reply
  })
  app.addHook('onResponse', async (request, reply) => {
    if (!refusedStatuses.has(reply.statusCode)) return
    if (budget.charge(request.ip)) {
      // Once per emptied budget, not per refused request: a flood would fill the log.
      request.log.warn(
        { remoteAddress: request.ip },
        'client out of its budget of refused requests: its calls are answered 429 for now',
      )
    }
  })
}
