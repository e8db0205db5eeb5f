import { randomUUID } from 'node:crypto'
import { formatServerMessage } from '../../../contract/messages'
import { AppError } from '../../http/app-error'
import { type Clock, timestampOf } from '../time/clock'
import { hashPassword, needsRehash, verifyPassword } from './passwords'
import type { SessionRow, SessionsRepository } from './sessions.repository'
import { createToken, hashToken, isWellFormedToken } from './tokens'
import type { UserRow, UsersRepository } from '../accounts/users.repository'
import { type AuthUser, toAuthUser } from '../accounts/users.service'

/** The one answer to a failed sign-in, whether the name exists or not. */
/** The one answer to a wrong name or password, so neither tells which one was wrong. */
export const badCredentialsMessage = formatServerMessage('auth.badCredentials')

/** A valid session found from a token. */
export interface AuthenticatedSession {
  user: AuthUser
  sessionId: string
  kind: SessionRow['kind']
}

/** Sessions: sign-in, token checks, refresh and sign-out. */
export interface AuthService {
  /** Checks a name and password and opens a session; `badCredentials` otherwise. */
  login(name: string, password: string): Promise<{ token: string; user: UserRow }>
  /**
   * Opens a session for a user already proven (sign-in, sign-up, guest) and returns its token.
   * `lifetimeMs` shortens the absolute lifetime, e.g. for guest sessions.
   */
  startSession(
    user: UserRow,
    options?: { kind?: SessionRow['kind']; lifetimeMs?: number },
  ): Promise<string>
  /**
   * The session a token belongs to, or undefined when it is unknown, revoked, idle too long,
   * past its lifetime, or its user is gone or disabled. Counts as activity.
   */
  authenticate(token: string): Promise<AuthenticatedSession | undefined>
  /** Starts the idle window again (`/refreshToken`). */
  refresh(sessionId: string): Promise<void>
  /** Revokes a session (sign-out). */
  logout(sessionId: string): Promise<void>
}

/** Session timing, from the configuration. */
export interface SessionPolicy {
  idleMs: number
  lifetimeMs: number
}

/** Builds the auth service. */
export function createAuthService(dependencies: {
  users: UsersRepository
  sessions: SessionsRepository
  clock: Clock
  policy: SessionPolicy
}): AuthService {
  const { users, sessions, clock, policy } = dependencies
  // Each request refreshes last_seen_at at most this often, to save a write per request;
  // the idle window may then close up to this much early, which nobody notices.
  const activityWriteIntervalMs = Math.min(60_000, policy.idleMs / 10)
  // Verifying against a throwaway hash when the name is unknown makes a failed sign-in take as
  // long whether the account exists or not.
  let decoyHash: Promise<string> | undefined

  const startSession: AuthService['startSession'] = async (user, options = {}) => {
    const token = createToken()
    const nowMs = clock.nowMs()
    const lifetimeMs = Math.min(options.lifetimeMs ?? policy.lifetimeMs, policy.lifetimeMs)
    await sessions.insert({
      id: randomUUID(),
      user_id: user.id,
      token_hash: hashToken(token),
      kind: options.kind ?? 'user',
      created_at: timestampOf(nowMs),
      last_seen_at: timestampOf(nowMs),
      expires_at: timestampOf(nowMs + lifetimeMs),
      revoked_at: null,
    })
    return token
  }

  return {
    async login(name, password) {
      const user = await users.findByName(name)
      if (user === undefined) {
        decoyHash ??= hashPassword('decoy password never used')
        await verifyPassword(password, await decoyHash)
        throw new AppError('badCredentials', 'auth.badCredentials')
      }
      if (!(await verifyPassword(password, user.password_hash))) {
        throw new AppError('badCredentials', 'auth.badCredentials')
      }
      if (user.disabled) throw new AppError('forbidden', 'auth.accountDisabled')
      if (needsRehash(user.password_hash)) {
        // The only moment the plain password is at hand: move the hash to today's cost.
        await users.update(user.id, { password_hash: await hashPassword(password) })
      }
      return { token: await startSession(user), user }
    },

    startSession,

    async authenticate(token) {
      if (!isWellFormedToken(token)) return undefined
      const session = await sessions.findByTokenHash(hashToken(token))
      if (session === undefined || session.revoked_at !== null) return undefined
      const nowMs = clock.nowMs()
      const lastSeenMs = Date.parse(session.last_seen_at)
      if (nowMs >= Date.parse(session.expires_at) || nowMs >= lastSeenMs + policy.idleMs) {
        return undefined
      }
      const user = await users.findById(session.user_id)
      if (user === undefined || user.disabled) return undefined
      if (nowMs - lastSeenMs >= activityWriteIntervalMs) {
        await sessions.touch(session.id, timestampOf(nowMs))
      }
      return { user: toAuthUser(user), sessionId: session.id, kind: session.kind }
    },

    async refresh(sessionId) {
      await sessions.touch(sessionId, timestampOf(clock.nowMs()))
    },

    async logout(sessionId) {
      await sessions.revoke(sessionId, timestampOf(clock.nowMs()))
    },
  }
}
