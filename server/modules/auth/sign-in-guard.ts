import { AppError } from '../../http/app-error'
import type { AccountSecuritySettings } from './account-security-settings'
import { type Clock, timestampOf } from '../time/clock'
import { hourMs, type RateLimiter, secondsUntil } from './rate-limiter'
import type { RateLimitsRepository } from './rate-limits.repository'

/** How a sign-in attempt ended, reported back to the guard. */
export interface SignInAttempt {
  /** The password was right: this address's failures on the name are forgotten. */
  succeeded(): Promise<void>
  /** The password was wrong: the failure stays counted and may lock this address out. */
  failed(): Promise<void>
}

/**
 * Limits password guessing before any password is hashed (decisions.md "Accounts"), without
 * letting a stranger lock an account against its owner (issue 13, class 8):
 *
 * - per (account name, client address): failures in a row first slow the next attempt (a wait
 *   that doubles each time), then lock that address out of that name for a while. An attacker
 *   locks only themselves.
 * - per account name, over all addresses: from `signInNameSlowAfterFailures` failures on, every
 *   attempt waits for a slot (a delay that doubles each time, up to `signInNameMaxDelayMs`), so
 *   a crowd of addresses gets at most about one guess per slot; there is no hard lock. Crossing
 *   the threshold alerts the admins once.
 * - per client address: failures over all names have an hourly budget.
 *
 * The owner is never locked out by others: a sign-in with a code sent to the account's phone
 * (or e-mail) passes the name's delay and the address's lock, since guessing the code is bounded
 * by its own few tries. Unknown names are treated like existing ones, so answers reveal nothing.
 */
export interface SignInGuard {
  /**
   * Admits an attempt or throws `rateLimited` with `retryAfterSeconds` (and `secondFactor: 'code'`
   * when a code would let the owner in now). `hasSecondFactor`: the caller already proved a
   * sign-in code of this account.
   */
  begin(
    accountName: string,
    clientAddress: string,
    options?: { hasSecondFactor?: boolean },
  ): Promise<SignInAttempt>
  /** Forgets a name's failures and locks, e.g. after its password was reset. */
  clear(accountName: string): Promise<void>
  /** Whether the name is slowed for everyone, or this address is locked out of it. */
  isHeldBack(accountName: string, clientAddress: string): Promise<boolean>
}

type GuardSettings = Pick<
  AccountSecuritySettings,
  | 'signInSlowAfterFailures'
  | 'signInSlowDelayMs'
  | 'signInLockAfterFailures'
  | 'signInLockMs'
  | 'signInFailuresPerIpPerHour'
  | 'signInNameSlowAfterFailures'
  | 'signInNameMaxDelayMs'
>

function lockedError(lockedUntilMs: number, nowMs: number) {
  const retryAfterSeconds = secondsUntil(lockedUntilMs, nowMs)
  return new AppError(
    'rateLimited',
    'signIn.lockedHere',
    { minutes: Math.ceil(retryAfterSeconds / 60) },
    { datum: { retryAfterSeconds, secondFactor: 'code' } },
  )
}

/** A held-back attempt; `secondFactor` says a sign-in code would admit the owner now. */
function slowedError(allowedAtMs: number, nowMs: number) {
  const retryAfterSeconds = secondsUntil(allowedAtMs, nowMs)
  return new AppError(
    'rateLimited',
    'signIn.slowed',
    { seconds: retryAfterSeconds },
    { datum: { retryAfterSeconds, secondFactor: 'code' } },
  )
}

/** How many times a lost race for the name's slot is retried before answering "wait". */
const claimRetries = 3

/** The key of a (name, address) pair's row; JSON keeps any name or address apart. */
export function pairKeyOf(accountName: string, clientAddress: string): string {
  return JSON.stringify(['pair', accountName, clientAddress])
}

/** Builds the sign-in guard. */
export function createSignInGuard(dependencies: {
  rateLimits: RateLimitsRepository
  limiter: RateLimiter
  clock: Clock
  settings: GuardSettings
  /** Tells the admins a name is being guessed at; best effort, never fails a sign-in. */
  alertAdmins?: (accountName: string) => Promise<void>
}): SignInGuard {
  const { rateLimits, limiter, clock, settings } = dependencies

  // Names are case-sensitive at sign-in; the key is the name exactly as typed (trimmed).
  const nameKeyOf = (accountName: string) => accountName

  /** The wait after `failures` failures in a row from one address, or 0 when not slowed yet. */
  const pairDelayMs = (failures: number) =>
    failures < settings.signInSlowAfterFailures
      ? 0
      : settings.signInSlowDelayMs * 2 ** Math.min(failures - settings.signInSlowAfterFailures, 20)

  /** The wait for the next slot after the name's `failures`-th failure, or 0 below the threshold. */
  const nameDelayMs = (failures: number) =>
    failures < settings.signInNameSlowAfterFailures
      ? 0
      : Math.min(
          settings.signInNameMaxDelayMs,
          settings.signInSlowDelayMs *
            2 ** Math.min(failures - settings.signInNameSlowAfterFailures, 30),
        )

  const alert = (accountName: string) => {
    void dependencies.alertAdmins?.(accountName).catch(() => undefined)
  }

  /** Refuses when this address is locked out of the name or must still wait. */
  const checkPair = async (pairKey: string, nowMs: number) => {
    const row = await rateLimits.findLockout(pairKey)
    if (row === undefined) return
    const lockedUntilMs = row.locked_until ? Date.parse(row.locked_until) : undefined
    if (lockedUntilMs !== undefined && lockedUntilMs > nowMs)
      throw lockedError(lockedUntilMs, nowMs)
    // Once a lock has ended the pair starts again unslowed (addFailure resets its count).
    if (lockedUntilMs === undefined) {
      const allowedAtMs = Date.parse(row.last_failure_at) + pairDelayMs(row.failure_count)
      if (nowMs < allowedAtMs) throw slowedError(allowedAtMs, nowMs)
    }
  }

  /**
   * Counts one attempt on the name, taking its slot when slowed. Compare-and-set on the count,
   * so of parallel attempts on a slowed name only one gets the slot.
   */
  const claimNameSlot = async (nameKey: string, accountName: string, nowMs: number) => {
    for (let attempt = 0; attempt < claimRetries; attempt++) {
      const row = await rateLimits.findLockout(nameKey)
      const failures = row?.failure_count ?? 0
      const allowedAtMs = row?.locked_until ? Date.parse(row.locked_until) : 0
      if (nowMs < allowedAtMs) throw slowedError(allowedAtMs, nowMs)
      const counted = failures + 1
      const delayMs = nameDelayMs(counted)
      const nextAllowedAt = delayMs === 0 ? null : timestampOf(nowMs + delayMs)
      const isClaimed = await rateLimits.claimAttempt(
        nameKey,
        row === undefined ? undefined : failures,
        timestampOf(nowMs),
        nextAllowedAt,
      )
      if (isClaimed) {
        if (counted === settings.signInNameSlowAfterFailures) alert(accountName)
        return
      }
    }
    throw slowedError(nowMs + settings.signInSlowDelayMs, nowMs)
  }

  return {
    async begin(accountName, clientAddress, options = {}) {
      const nameKey = nameKeyOf(accountName)
      const pairKey = pairKeyOf(accountName, clientAddress)
      if (options.hasSecondFactor) {
        // The owner's own way in: the code's tries bound any guessing, nothing else counts.
        return {
          async succeeded() {
            await rateLimits.clearLockout(pairKey)
          },
          async failed() {},
        }
      }
      const nowMs = clock.nowMs()
      await checkPair(pairKey, nowMs)
      const addressEvent = await limiter.take(
        `sign-in-failure:ip:${clientAddress}`,
        settings.signInFailuresPerIpPerHour,
        hourMs,
        'auth.tooManyFailuresFromAddress',
      )
      try {
        await claimNameSlot(nameKey, accountName, nowMs)
      } catch (error) {
        await limiter.giveBack(addressEvent)
        throw error
      }
      // Counted as a failure until proven right, so parallel guesses from one address cannot
      // outrun its lock: each sees its own count, only the first few are checked.
      const counted = await rateLimits.addFailure(pairKey, timestampOf(nowMs))
      const runningLockMs =
        counted.lockedUntil === null ? undefined : Date.parse(counted.lockedUntil)
      if (runningLockMs !== undefined || counted.count > settings.signInLockAfterFailures) {
        await limiter.giveBack(addressEvent)
        const untilMs = runningLockMs ?? nowMs + settings.signInLockMs
        if (runningLockMs === undefined) await rateLimits.lock(pairKey, timestampOf(untilMs))
        throw lockedError(untilMs, nowMs)
      }
      const failures = counted.count
      return {
        async succeeded() {
          await rateLimits.clearLockout(pairKey)
          // Below the threshold the name's count is the owner's own typos: forget it. Above it
          // someone else is guessing, and the owner's success must not reset their delay.
          const name = await rateLimits.findLockout(nameKey)
          if (name !== undefined && name.failure_count <= settings.signInNameSlowAfterFailures) {
            await rateLimits.clearLockout(nameKey)
          }
          await limiter.giveBack(addressEvent)
        },
        async failed() {
          if (failures >= settings.signInLockAfterFailures) {
            await rateLimits.lock(pairKey, timestampOf(clock.nowMs() + settings.signInLockMs))
          }
        },
      }
    },

    async clear(accountName) {
      await rateLimits.clearLockout(nameKeyOf(accountName))
      await rateLimits.clearLockoutsWithPrefix(pairKeyOf(accountName, '').slice(0, -2))
    },

    async isHeldBack(accountName, clientAddress) {
      const nowMs = clock.nowMs()
      const name = await rateLimits.findLockout(nameKeyOf(accountName))
      if (name !== undefined && name.failure_count >= settings.signInNameSlowAfterFailures) {
        return true
      }
      const pair = await rateLimits.findLockout(pairKeyOf(accountName, clientAddress))
      return pair?.locked_until != null && Date.parse(pair.locked_until) > nowMs
    },
  }
}
