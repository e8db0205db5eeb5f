import { type Clock, timestampOf } from '../time/clock'
import type { GuestsService } from './guests.service'
import type { OutboxRepository } from '../messaging/outbox.repository'
import type { RateLimitsRepository } from '../auth/rate-limits.repository'
import type { SessionTicketsRepository } from '../auth/session-tickets.repository'
import type { VerificationCodesRepository } from '../auth/verification-codes.repository'

/** Kept this long after they stop mattering, for an operator looking into an incident. */
const keepAfterUseMs = 24 * 3_600_000
/** The local outbox is a log of what was sent; older messages go. */
const outboxRetentionMs = 30 * 24 * 3_600_000

/** What one sweep removed, per kind. */
export interface AccountSweepResult {
  rateLimitEvents: number
  lockouts: number
  codes: number
  tickets: number
  guests: number
  outboxMessages: number
}

/**
 * Deletes what the account features leave behind once it can no longer matter: rate-limit
 * events and unlocked lockouts a day old, codes and tickets a day after they expired, guests
 * whose session has ended, outbox messages after 30 days.
 */
export async function sweepAccountLeftovers(dependencies: {
  rateLimits: RateLimitsRepository
  codes: VerificationCodesRepository
  tickets: SessionTicketsRepository
  outbox: OutboxRepository
  guests: Pick<GuestsService, 'removeEnded'>
  clock: Clock
}): Promise<AccountSweepResult> {
  const { rateLimits, codes, tickets, outbox, guests, clock } = dependencies
  const nowMs = clock.nowMs()
  const dayAgo = timestampOf(nowMs - keepAfterUseMs)
  return {
    rateLimitEvents: await rateLimits.deleteEventsBefore(dayAgo),
    lockouts: await rateLimits.deleteLockoutsBefore(dayAgo, timestampOf(nowMs)),
    codes: await codes.deleteExpiredBefore(dayAgo),
    tickets: await tickets.deleteExpiredBefore(dayAgo),
    guests: await guests.removeEnded(),
    outboxMessages: await outbox.deleteBefore(timestampOf(nowMs - outboxRetentionMs)),
  }
}
