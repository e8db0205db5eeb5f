import type { Capture } from '../../api/visit'

/**
 * The building's view tour (issue 19 "captures play as a tour"): the captures in sequence
 * order, each shown for its dwell time, looping. Pure timing logic: the caller says how to fly
 * to a capture, and the timer functions are injectable so tests drive time.
 */
export interface TourTimers {
  setTimeout(callback: () => void, delayMs: number): unknown
  clearTimeout(handle: unknown): void
}

const browserTimers: TourTimers = {
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** A running tour; `stop` ends it (idempotent). */
export interface Tour {
  stop(): void
  /** The index of the capture shown now. */
  readonly index: number
}

/**
 * Starts a tour at `startIndex`: flies to each capture, waits its dwell, goes on to the next
 * and starts again after the last. When `show` answers a promise (a camera flight), the dwell
 * counts from when it settles, so a view is held for its full dwell after the flight lands.
 * With no captures it does nothing.
 */
export function startTour(
  captures: readonly Capture[],
  show: (capture: Capture, index: number) => unknown,
  options: { startIndex?: number; timers?: TourTimers; loop?: boolean; onEnd?: () => void } = {},
): Tour {
  const timers = options.timers ?? browserTimers
  const loop = options.loop ?? true
  let index = Math.max(0, Math.min(options.startIndex ?? 0, captures.length - 1))
  let handle: unknown = null
  let isStopped = captures.length === 0
  const step = () => {
    if (isStopped) return
    const capture = captures[index]!
    const shown = show(capture, index)
    if (shown instanceof Promise) {
      shown.then(wait, wait)
    } else {
      wait()
    }
  }
  const wait = () => {
    if (isStopped) return
    const capture = captures[index]!
    handle = timers.setTimeout(() => {
      handle = null
      if (index + 1 >= captures.length && !loop) {
        isStopped = true
        options.onEnd?.()
        return
      }
      index = (index + 1) % captures.length
      step()
    }, capture.dwell_seconds * 1000)
  }
  step()
  return {
    stop() {
      isStopped = true
      if (handle !== null) timers.clearTimeout(handle)
      handle = null
    },
    get index() {
      return index
    },
  }
}

/** The ids in the order after moving the capture at `index` by `delta` places (clamped). */
export function movedOrder(captures: readonly Capture[], index: number, delta: number): string[] {
  const ids = captures.map((capture) => capture.id)
  const target = Math.max(0, Math.min(ids.length - 1, index + delta))
  if (index < 0 || index >= ids.length || target === index) return ids
  const [moved] = ids.splice(index, 1)
  ids.splice(target, 0, moved!)
  return ids
}
