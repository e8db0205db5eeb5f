import type { AccountSecuritySettings } from './account-security-settings'
import { type Clock, timestampOf } from './clock'
import { hourMs, type RateLimiter, secondsUntil } from './rate-limiter'
import type { RateLimitsRepository } from './rate-limits.repository'
import { AppError } from '../http/app-error'

/** How a sign-in attempt ended, reported back to the guard. */
export interface SignInAttempt {
  /** The password was right: the name's failures and this attempt's IP count are forgotten. */
  succeeded(): Promise<void>
  /** The password was wrong: the failure stays counted and may lock the name. */
  failed(): Promise<void>
}

/**
 * Limits password guessing before any password is hashed (decisions.md "Accounts"): per account
 * name, failures in a row first slow the next attempt (a wait that doubles each time), then lock
 * the name for a while; per client address, failures over all names have an hourly budget.
 * Unknown names are treated like existing ones, so the answers reveal nothing about accounts.
 */
export interface SignInGuard {
  /** Admits an attempt or throws `rateLimited` with `retryAfterSeconds`. */
  begin(accountName: string, clientAddress: string): Promise<SignInAttempt>
  /** Forgets a name's failures and lock, e.g. after its password was reset. */
  clear(accountName: string): Promise<void>
}

function lockedError(lockedUntilMs: number, nowMs: number) {
  const retryAfterSeconds = secondsUntil(lockedUntilMs, nowMs)
  return new AppError(
    'rateLimited',
    'auth.accountLocked',
    { minutes: Math.ceil(retryAfterSeconds / 60) },
    { datum: { retryAfterSeconds } },
  )
}

/** Builds the sign-in guard. */
export function createSignInGuard(dependencies: {
  rateLimits: RateLimitsRepository
  limiter: RateLimiter
  clock: Clock
  settings: Pick<
    AccountSecuritySettings,
    | 'signInSlowAfterFailures'
    | 'signInSlowDelayMs'
    | 'signInLockAfterFailures'
    | 'signInLockMs'
    | 'signInFailuresPerIpPerHour'
  >
}): SignInGuard {
  const { rateLimits, limiter, clock, settings } = dependencies

  // Names are case-sensitive at sign-in; the key is the name exactly as typed (trimmed).
  const keyOf = (accountName: string) => accountName

  /** The wait after `failures` failures in a row, or 0 when not slowed yet. */
  const slowDelayMs = (failures: number) =>
    failures < settings.signInSlowAfterFailures
      ? 0
      : settings.signInSlowDelayMs * 2 ** Math.min(failures - settings.signInSlowAfterFailures, 20)

  return {
    async begin(accountName, clientAddress) {
      const key = keyOf(accountName)
      const nowMs = clock.nowMs()
      const lockout = await rateLimits.findLockout(key)
      const lockedUntilMs = lockout?.locked_until ? Date.parse(lockout.locked_until) : undefined
      if (lockedUntilMs !== undefined && lockedUntilMs > nowMs)
        throw lockedError(lockedUntilMs, nowMs)
      // Once a lock has ended the name starts again unslowed (addFailure resets its count).
      if (lockout !== undefined && lockedUntilMs === undefined) {
        const allowedAtMs = Date.parse(lockout.last_failure_at) + slowDelayMs(lockout.failure_count)
        if (nowMs < allowedAtMs) {
          const retryAfterSeconds = secondsUntil(allowedAtMs, nowMs)
          throw new AppError(
            'rateLimited',
            'auth.signInSlowed',
            { seconds: retryAfterSeconds },
            { datum: { retryAfterSeconds } },
          )
        }
      }
      const addressEvent = await limiter.take(
        `sign-in-failure:ip:${clientAddress}`,
        settings.signInFailuresPerIpPerHour,
        hourMs,
        'auth.tooManyFailuresFromAddress',
      )
      // Counted as a failure until proven right, so parallel guesses cannot outrun the lock:
      // each sees its own count, and only the first `signInLockAfterFailures` are checked.
      const counted = await rateLimits.addFailure(key, timestampOf(nowMs))
      const runningLockMs =
        counted.lockedUntil === null ? undefined : Date.parse(counted.lockedUntil)
      if (runningLockMs !== undefined || counted.count > settings.signInLockAfterFailures) {
        await limiter.giveBack(addressEvent)
        const untilMs = runningLockMs ?? nowMs + settings.signInLockMs
        if (runningLockMs === undefined) await rateLimits.lock(key, timestampOf(untilMs))
        throw lockedError(untilMs, nowMs)
      }
      const failures = counted.count
      return {
        async succeeded() {
          await rateLimits.clearLockout(key)
          await limiter.giveBack(addressEvent)
        },
        async failed() {
          if (failures >= settings.signInLockAfterFailures) {
            await rateLimits.lock(key, timestampOf(clock.nowMs() + settings.signInLockMs))
          }
        },
      }
    },

    async clear(accountName) {
      await rateLimits.clearLockout(keyOf(accountName))
    },
  }
}
