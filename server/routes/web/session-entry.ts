import type { FastifyInstance } from 'fastify'
import {
  createTicketDatumSchema,
  getTokenByTicketDatumSchema,
  getTokenByTicketQuerySchema,
  guestLoginDatumSchema,
} from '../../../contract/auth'
import { defineRoute } from '../../http/define-route'

/** Other ways into a session: guest sign-in and one-time tickets (SPEC §6, §7). */
export function registerSessionEntryRoutes(app: FastifyInstance): void {
  const { guests, sessionTickets } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/login/guest',
    auth: 'public',
    tags: ['auth'],
    summary: 'Sign in as a guest: a short-lived, read-only session',
    description:
      'Each call makes a new guest (no shared account) whose session ends after ' +
      'GUEST_SESSION_MINUTES. Guests are refused (`forbidden`) every call that changes data. ' +
      'Limited per client address per hour.',
    datum: guestLoginDatumSchema,
    handler: ({ request }) => guests.start(request.ip),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/user/createTicket',
    auth: 'user',
    summary: 'A one-time ticket for GET /web/getTokenByTicket, valid 60 s',
    datum: createTicketDatumSchema,
    handler: ({ request }) => sessionTickets.create(request.sessionId as string),
  })

  defineRoute(app, {
    method: 'GET',
    url: '/web/getTokenByTicket',
    auth: 'public',
    tags: ['auth'],
    summary: 'Exchange a one-time ticket for a token of its user',
    description:
      'A ticket works once and for 60 s; the new session ends no later than the one that ' +
      'asked for the ticket. Anything else answers `2011`.',
    query: getTokenByTicketQuerySchema,
    datum: getTokenByTicketDatumSchema,
    handler: ({ query }) => sessionTickets.exchange(query.ticket),
  })
}
