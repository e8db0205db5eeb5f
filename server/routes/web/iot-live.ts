import type { FastifyInstance } from 'fastify'
import {
  iotLivePath,
  iotLiveQuerySchema,
  type LiveEvent,
  liveHeartbeatMs,
  liveRetryMs,
} from '../../../contract/iot-live'
import type { ServerServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { parseInput } from '../../http/define-route'
import { tokenOf } from '../../plugins/auth'

/** Open streams one user may hold (tabs, reconnects racing their old stream's close). */
export const liveStreamsPerUser = 16
/** Open streams of the whole server. */
export const liveStreamsMax = 2000

/** Timing of the stream's checks (tests shorten it). */
export interface LiveRouteOptions {
  heartbeatMs?: number
}

/**
 * The live stream of a project's devices (contract/iot-live.ts): `GET /web/iot/live` for a
 * signed-in user who may read the project. Every heartbeat the session and the access are
 * checked again, so signing out or losing the project ends the stream within one heartbeat.
 * A raw route: the auth hook and refusals before the stream starts are the usual envelopes,
 * after that the answer is `text/event-stream`.
 */
export function registerIotLiveRoutes(
  app: FastifyInstance,
  { live, access, auth }: Pick<ServerServices, 'live' | 'access' | 'auth'>,
  options: LiveRouteOptions = {},
): void {
  const heartbeatMs = options.heartbeatMs ?? liveHeartbeatMs
  const streamsByUser = new Map<string, number>()
  const openStreams = new Set<(reason: 'shutdown') => void>()

  // Open streams would keep the server from closing: they end first, telling the readers why.
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end('shutdown')
  })

  app.get(iotLivePath, { config: { auth: 'user' } }, async (request, reply) => {
    const user = request.user!
    const { projectid } = parseInput(iotLiveQuerySchema, request.query)
    await access.requireReadable(user, projectid)
    const userStreams = streamsByUser.get(user.id) ?? 0
    if (userStreams >= liveStreamsPerUser || openStreams.size >= liveStreamsMax) {
      throw new AppError('rateLimited', 'iot.tooManyStreams', { maximum: liveStreamsPerUser })
    }
    const token = tokenOf(request)
    const header = request.headers['last-event-id']
    const lastEventId = Array.isArray(header) ? header[0] : header

    reply.hijack()
    const response = reply.raw
    response.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // proxies that buffer answers (nginx) would hold the events back
      'x-accel-buffering': 'no',
    })
    response.write(`retry: ${liveRetryMs}\n\n`)
    streamsByUser.set(user.id, userStreams + 1)

    let isEnded = false
    const subscription = live.subscribe(projectid, lastEventId, {
      write: (text) => response.write(text),
      onDrain: (listener) => response.once('drain', listener),
    })
    const end = (reason?: Extract<LiveEvent, { type: 'closed' }>['reason']) => {
      if (isEnded) return
      isEnded = true
      clearInterval(heartbeat)
      subscription.close()
      openStreams.delete(end)
      const count = (streamsByUser.get(user.id) ?? 1) - 1
      if (count > 0) streamsByUser.set(user.id, count)
      else streamsByUser.delete(user.id)
      if (reason !== undefined && !response.destroyed) {
        response.end(`data: ${JSON.stringify({ type: 'closed', reason })}\n\n`)
      } else if (!response.destroyed) {
        response.end()
      }
    }
    openStreams.add(end)
    const heartbeat = setInterval(async () => {
      response.write(': heartbeat\n\n')
      try {
        const session = token === undefined ? undefined : await auth.authenticate(token)
        if (session === undefined) {
          end('signedOut')
          return
        }
        await access.requireReadable(session.user, projectid)
      } catch (error) {
        if (error instanceof AppError) end('noAccess')
        else request.log.warn({ err: error }, 'live stream access check failed')
      }
    }, heartbeatMs)
    heartbeat.unref()
    request.raw.on('close', () => end())
    response.on('error', () => end())
  })
}
