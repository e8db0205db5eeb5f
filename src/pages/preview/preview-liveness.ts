import { ApiError } from '../../api/client'

/**
 * How a public preview or kiosk keeps itself honest (issue 19): it asks the server every
 * half minute whether its link still opens the project. A refusal (revoked, expired or forged
 * token, deleted project) ends the preview with a clear screen; a dropped network or a server
 * restarting keeps the last scene on screen and asks again with a growing back-off, until the
 * server answers again.
 */

/** How often a working preview checks its link. Revoking ends every preview within a minute. */
export const livenessIntervalMs = 30_000
/** The first retry after a failed check, doubled each time up to {@link maxRetryDelayMs}. */
export const firstRetryDelayMs = 2_000
export const maxRetryDelayMs = 60_000

/** What a check found. */
export type LivenessState = 'live' | 'offline' | 'ended'

/** The delay before retry number `attempt` (0-based) after failed checks. */
export function retryDelayMs(attempt: number): number {
  return Math.min(maxRetryDelayMs, firstRetryDelayMs * 2 ** Math.max(0, attempt))
}

/**
 * Whether a failed check means the link is gone (the server said no) rather than that the
 * server could not be reached (network, time-out, a proxy's 502/503 while it restarts).
 */
export function isLinkRefused(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.reason !== 'server') return false
  const status = error.httpStatus ?? 0
  return status === 401 || status === 403 || status === 404
}

/** The timers a watcher uses, and the browser's "back online" signal (injectable for tests). */
export interface LivenessTimers {
  setTimeout(callback: () => void, delayMs: number): unknown
  clearTimeout(handle: unknown): void
  /** Calls `listener` whenever the browser's network comes back; answers the unsubscribe. */
  onBackOnline?(listener: () => void): () => void
}

const browserTimers: LivenessTimers = {
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  onBackOnline: (listener) => {
    globalThis.addEventListener?.('online', listener)
    return () => globalThis.removeEventListener?.('online', listener)
  },
}

/**
 * Checks now and then on a schedule, reporting each state change. `check` resolves when the
 * link works and rejects otherwise. While offline, the browser's network coming back checks at
 * once instead of waiting out the back-off (up to a minute): a kiosk is live again as soon as
 * it can be. Returns the function that stops watching.
 */
export function watchLiveness(
  check: () => Promise<unknown>,
  onState: (state: LivenessState) => void,
  timers: LivenessTimers = browserTimers,
): () => void {
  let isStopped = false
  let handle: unknown = null
  let failures = 0
  let state: LivenessState | null = null
  const report = (next: LivenessState) => {
    if (next !== state) {
      state = next
      onState(next)
    }
  }
  const run = async () => {
    handle = null
    try {
      await check()
      if (isStopped) return
      failures = 0
      report('live')
      handle = timers.setTimeout(run, livenessIntervalMs)
    } catch (error) {
      if (isStopped) return
      if (isLinkRefused(error)) {
        report('ended')
        return
      }
      report('offline')
      handle = timers.setTimeout(run, retryDelayMs(failures))
      failures++
    }
  }
  void run()
  // only a retry that is waiting is brought forward: a check under way or a live link's
  // schedule stays as it is
  const stopListening = timers.onBackOnline?.(() => {
    if (isStopped || state !== 'offline' || handle === null) return
    timers.clearTimeout(handle)
    void run()
  })
  return () => {
    isStopped = true
    stopListening?.()
    if (handle !== null) timers.clearTimeout(handle)
  }
}
