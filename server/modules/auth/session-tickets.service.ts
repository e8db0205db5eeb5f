import { randomUUID } from 'node:crypto'
import { type CreateTicketDatum, ticketLifetimeMs } from '../../../contract/auth'
import type { User } from '../../../contract/user'
import { AppError } from '../../http/app-error'
import type { AuthService } from './auth.service'
import { type Clock, timestampOf } from '../time/clock'
import type { SessionTicketsRepository } from './session-tickets.repository'
import type { SessionsRepository } from './sessions.repository'
import { createToken, hashToken, isWellFormedToken } from './tokens'
import type { UsersRepository } from '../accounts/users.repository'
import { toPublicUser } from '../accounts/users.service'

/**
 * One-time sign-in tickets: a signed-in session asks for a ticket (`/user/createTicket`), and
 * whoever presents it within 60 s gets a token of the same user (`GET /getTokenByTicket`), e.g.
 * a new window or an embedded page that must not see the token in its address. A ticket works
 * once, and the new session ends no later than the one that asked for it.
 */
export interface SessionTicketsService {
  create(sessionId: string): Promise<CreateTicketDatum>
  /** The new session's token and user; `sessionTimeout` for an unknown, used or expired ticket. */
  exchange(ticket: string): Promise<{ token: string; user: User }>
}

/** The one answer to a ticket that does not work, whatever the reason. */

/** Builds the session-tickets service. */
export function createSessionTicketsService(dependencies: {
  tickets: SessionTicketsRepository
  sessions: SessionsRepository
  users: UsersRepository
  auth: Pick<AuthService, 'startSession'>
  clock: Clock
}): SessionTicketsService {
  const { tickets, sessions, users, auth, clock } = dependencies
  const refuse = () => new AppError('sessionTimeout', 'auth.invalidTicket')
  return {
    async create(sessionId) {
      const ticket = createToken()
      const nowMs = clock.nowMs()
      const expiresAt = timestampOf(nowMs + ticketLifetimeMs)
      await tickets.insert({
        id: randomUUID(),
        ticket_hash: hashToken(ticket),
        session_id: sessionId,
        created_at: timestampOf(nowMs),
        expires_at: expiresAt,
        used_at: null,
      })
      return { ticket, expires_at: expiresAt }
    },

    async exchange(ticket) {
      if (!isWellFormedToken(ticket)) throw refuse()
      const nowMs = clock.nowMs()
      const used = await tickets.use(hashToken(ticket), timestampOf(nowMs))
      if (used === undefined) throw refuse()
      const session = await sessions.findById(used.session_id)
      if (session === undefined || session.revoked_at !== null) throw refuse()
      const remainingMs = Date.parse(session.expires_at) - nowMs
      if (remainingMs <= 0) throw refuse()
      const user = await users.findById(session.user_id)
      if (user === undefined || user.disabled) throw refuse()
      const token = await auth.startSession(user, { kind: session.kind, lifetimeMs: remainingMs })
      return { token, user: toPublicUser(user) }
    },
  }
}
