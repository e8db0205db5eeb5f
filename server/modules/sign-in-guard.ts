import type { AccountSecuritySettings } from './account-security-settings'
import { type Clock, timestampOf } from './clock'
import { hourMs, type RateLimiter, rateLimitedError, secondsUntil } from './rate-limiter'
import type { RateLimitsRepository } from './rate-limits.repository'

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

const tooManyForAddress =
  'Too many failed sign-ins from your network. Please wait before trying again.'

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
      if (lockout?.locked_until && Date.parse(lockout.locked_until) > nowMs) {
        const retryAfterSeconds = secondsUntil(Date.parse(lockout.locked_until), nowMs)
        throw rateLimitedError(
          `Too many failed sign-ins: this account is locked for ${Math.ceil(retryAfterSeconds / 60)} more minute(s).`,
          retryAfterSeconds,
        )
      }
      if (lockout !== undefined) {
        const allowedAtMs =
          Date.parse(lockout.last_failure_at) + slowDelayMs(lockout.failure_count)
        if (nowMs < allowedAtMs) {
          const retryAfterSeconds = secondsUntil(allowedAtMs, nowMs)
          throw rateLimitedError(
            `Too many failed sign-ins. Please wait ${retryAfterSeconds} s before trying again.`,
            retryAfterSeconds,
          )
        }
      }
      const addressEvent = await limiter.take(
        `sign-in-failure:ip:${clientAddress}`,
        settings.signInFailuresPerIpPerHour,
        hourMs,
        tooManyForAddress,
      )
      // Counted as a failure until proven right, so parallel guesses cannot outrun the lock.
      const failures = await rateLimits.addFailure(key, timestampOf(nowMs))
      if (failures > settings.signInLockAfterFailures) {
        await limiter.giveBack(addressEvent)
        const lockedUntilMs = nowMs + settings.signInLockMs
        await rateLimits.lock(key, timestampOf(lockedUntilMs))
        throw rateLimitedError(
          'Too many failed sign-ins: this account is locked for a while.',
          secondsUntil(lockedUntilMs, nowMs),
        )
      }
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
