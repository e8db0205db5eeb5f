import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../http/define-route'
import { authRoutes } from '../../../contract/auth'

/** Other ways into a session: guest sign-in and one-time tickets (SPEC §6, §7). */
export function registerSessionEntryRoutes(app: FastifyInstance): void {
  const { guests, sessionTickets } = app.deps.services

  defineRoute(app, authRoutes.guest, {
    handler: ({ request }) => guests.start(request.ip),
  })

  defineRoute(app, authRoutes.createTicket, {
    handler: ({ request }) => sessionTickets.create(request.sessionId as string),
  })

  defineRoute(app, authRoutes.getTokenByTicket, {
    handler: ({ query }) => sessionTickets.exchange(query.ticket),
  })
}
