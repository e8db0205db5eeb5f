/**
 * The one stale marker of every worker: what a superseded request resolves to, because a newer
 * request of the same kind arrived meanwhile. A string, not a symbol, so it crosses comlink.
 */
export const STALE = 'stale' as const
/** The type of {@link STALE}. */
export type Stale = typeof STALE

/**
 * Lets the event loop run every message that is already queued behind the current one. A
 * MessageChannel round trip is used because its message joins the same task queue as the
 * worker's incoming messages, after them, with no timer clamping (unlike nested setTimeout(0)).
 */
export function yieldToQueuedMessages(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}

/** A gate's run function: runs `task` unless a later call arrives before this one gets its turn. */
export type LatestWinsGate = <Result>(task: () => Result) => Promise<Awaited<Result> | Stale>

/**
 * "Latest request wins" for interactive queries (hover picking, dragging a route end): each call
 * first yields so that requests queued behind it get registered, then runs its task only if no
 * newer call arrived in the meantime; otherwise it resolves to {@link STALE} without doing the
 * work. A pointer moving faster than answers complete thus costs one answer per burst.
 */
export function createLatestWinsGate(
  yieldNow: () => Promise<void> = yieldToQueuedMessages,
): LatestWinsGate {
  let latestTicket = 0
  return async function runIfLatest<Result>(task: () => Result): Promise<Awaited<Result> | Stale> {
    const ticket = ++latestTicket
    await yieldNow()
    if (ticket !== latestTicket) return STALE
    return await task()
  }
}
