/** What a superseded request resolves to: a newer request of the same kind arrived meanwhile. */
export const STALE = 'stale' as const
export type Stale = typeof STALE

/**
 * Lets the event loop run every message that is already queued behind the current one. A
 * MessageChannel round trip is used because its message joins the same task queue as the
 * worker's incoming messages, after them, with no timer clamping.
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

/**
 * "Latest request wins" for hover picking: each call first yields so that requests queued behind
 * it get registered, then runs its task only if no newer call arrived in the meantime; otherwise it
 * resolves to {@link STALE} without doing the work. A pointer moving faster than picks complete
 * thus costs one pick per burst, not one per mouse event.
 */
export function createLatestWinsGate(yieldNow: () => Promise<void> = yieldToQueuedMessages) {
  let latestTicket = 0
  return async function runIfLatest<Result>(task: () => Result): Promise<Result | Stale> {
    const ticket = ++latestTicket
    await yieldNow()
    if (ticket !== latestTicket) return STALE
    return task()
  }
}
