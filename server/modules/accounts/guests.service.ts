import { randomBytes, randomUUID } from 'node:crypto'
import type { User } from '../../../contract/user'
import { isUniqueViolation } from '../../plugins/db'
import type { AuthService } from '../auth/auth.service'
import { type Clock, timestampOf } from '../time/clock'
import { hourMs, type RateLimiter } from '../auth/rate-limiter'
import type { UserRow, UsersRepository } from './users.repository'
import { toPublicUser } from './users.service'

/**
 * Guest sign-in (decisions.md "Accounts"): every guest gets a fresh user row of role `guest`
 * (no shared static account) with a session that ends after GUEST_SESSION_MINUTES. The row has
 * no usable password, so nobody signs into it again, and is deleted once its time is over.
 */
export interface GuestsService {
  start(clientAddress: string): Promise<{ token: string; user: User }>
  /** Deletes guests whose sessions can no longer be live; resolves to how many. */
  removeEnded(): Promise<number>
}

/** Not a scrypt hash: verifyPassword never matches it (server/modules/passwords.ts). */
const unusablePasswordHash = '!guest'

function guestRow(now: string): UserRow {
  return {
    id: randomUUID(),
    name: `guest-${randomBytes(6).toString('hex')}`,
    nickname: 'Guest',
    sex: null,
    tel: null,
    email: null,
    birthday: null,
    job_title: null,
    company: null,
    avatar: null,
    password_hash: unusablePasswordHash,
    role: 'guest',
    disabled: 0,
    created_at: now,
    updated_at: now,
  }
}

/** Builds the guests service. */
export function createGuestsService(dependencies: {
  users: UsersRepository
  auth: Pick<AuthService, 'startSession'>
  limiter: RateLimiter
  clock: Clock
  settings: { guestSessionMs: number; guestSessionsPerIpPerHour: number }
}): GuestsService {
  const { users, auth, limiter, clock, settings } = dependencies
  return {
    async start(clientAddress) {
      await limiter.take(
        `guest:ip:${clientAddress}`,
        settings.guestSessionsPerIpPerHour,
        hourMs,
        'auth.tooManyGuestSessions',
      )
      const now = timestampOf(clock.nowMs())
      let row: UserRow | undefined
      // 48 random bits make a clash with an existing name (someone may sign up as
      // "guest-…") unlikely, not impossible: draw again rather than fail.
      for (let attempt = 0; row === undefined; attempt++) {
        const candidate = guestRow(now)
        try {
          await users.insert(candidate)
          row = candidate
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 2) throw error
        }
      }
      const token = await auth.startSession(row, {
        kind: 'guest',
        lifetimeMs: settings.guestSessionMs,
      })
      return { token, user: toPublicUser(row) }
    },

    removeEnded() {
      // A guest's sessions end at most guestSessionMs after the row was made (tickets included).
      const cutoff = timestampOf(clock.nowMs() - settings.guestSessionMs - hourMs)
      return users.deleteGuestsCreatedBefore(cutoff)
    },
  }
}
