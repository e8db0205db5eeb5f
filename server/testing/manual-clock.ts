import type { Clock } from '../modules/time/clock'

/** A clock tests move by hand, so session expiry is tested without waiting. */
export interface ManualClock extends Clock {
  advanceMs(durationMs: number): void
}

/** A manual clock starting at `startMs` (default: now). */
export function createManualClock(startMs = Date.now()): ManualClock {
  let currentMs = startMs
  return {
    nowMs: () => currentMs,
    advanceMs(durationMs) {
      currentMs += durationMs
    },
  }
}
