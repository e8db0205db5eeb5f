import { randomUUID } from 'node:crypto'
import type { PlainMessageId } from '../../../contract/messages'
import { AppError } from '../../http/app-error'
import { type Clock, timestampOf } from '../time/clock'
import type { RateLimitsRepository } from './rate-limits.repository'

/** One hour, the window of every per-hour budget. */
export const hourMs = 3_600_000

/** Whole seconds until a moment, at least 1, for `retryAfterSeconds`. */
export function secondsUntil(momentMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((momentMs - nowMs) / 1_000))
}

/** The `rateLimited` error with the wait in `datum.retryAfterSeconds` (contract/auth.ts). */
export function rateLimitedError(message: PlainMessageId, retryAfterSeconds: number): AppError {
  return new AppError('rateLimited', message, {}, { datum: { retryAfterSeconds } })
}

/** Budgets over sliding windows, kept in the database so they hold across restarts. */
export interface RateLimiter {
  /**
   * Counts one action in `bucket`. When the window already holds `limit` actions the action is
   * not counted and `rateLimited` is thrown, saying when the oldest one leaves the window.
   * Counting first and checking after makes parallel requests see distinct counts.
   * Resolves to the event's id, for `giveBack`.
   */
  take(bucket: string, limit: number, windowMs: number, message: PlainMessageId): Promise<string>
  /** Uncounts an action taken with `take` (e.g. a sign-in that succeeded). */
  giveBack(eventId: string): Promise<void>
  /** Whether `intervalMs` has passed since the bucket's newest action; else `rateLimited`. */
  assertIntervalPassed(bucket: string, intervalMs: number, message: PlainMessageId): Promise<void>
  /** How many actions the bucket holds after `sinceMs`. */
  countSince(bucket: string, sinceMs: number): Promise<number>
}

/** Builds the rate limiter. */
export function createRateLimiter(dependencies: {
  rateLimits: RateLimitsRepository
  clock: Clock
}): RateLimiter {
  const { rateLimits, clock } = dependencies
  return {
    async take(bucket, limit, windowMs, message) {
      const nowMs = clock.nowMs()
      const id = randomUUID()
      await rateLimits.addEvent({ id, bucket, created_at: timestampOf(nowMs) })
      const since = timestampOf(nowMs - windowMs)
      const count = await rateLimits.countSince(bucket, since)
      if (count <= limit) return id
      await rateLimits.removeEvent(id)
      const oldest = await rateLimits.oldestSince(bucket, since)
      const freeAtMs = oldest === undefined ? nowMs : Date.parse(oldest) + windowMs
      throw rateLimitedError(message, secondsUntil(freeAtMs, nowMs))
    },

    async giveBack(eventId) {
      await rateLimits.removeEvent(eventId)
    },

    async assertIntervalPassed(bucket, intervalMs, message) {
      const newest = await rateLimits.newest(bucket)
      if (newest === undefined) return
      const nowMs = clock.nowMs()
      const allowedAtMs = Date.parse(newest) + intervalMs
      if (nowMs < allowedAtMs) throw rateLimitedError(message, secondsUntil(allowedAtMs, nowMs))
    },

    countSince(bucket, sinceMs) {
      return rateLimits.countSince(bucket, timestampOf(sinceMs))
    },
  }
}
