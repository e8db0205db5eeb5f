/**
 * Lets the event loop run queued messages before continuing: a MessageChannel hop, which
 * browsers do not clamp the way they clamp nested setTimeout(0).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
}

/** Marks a request that a newer one replaced before it ran. */
export const SUPERSEDED = Symbol('superseded')

/**
 * "Latest request wins" for interactive queries (dragging a route end, hovering): each call
 * takes a ticket, lets already-queued requests arrive, and runs only if no newer call came
 * in meanwhile. Older calls resolve to SUPERSEDED without doing the work.
 */
export class LatestWins {
  private latestTicket = 0

  /** Runs `work` unless a later `run` call arrives before this one gets its turn. */
  async run<Result>(work: () => Result): Promise<Result | typeof SUPERSEDED> {
    const ticket = ++this.latestTicket
    await yieldToEventLoop()
    if (ticket !== this.latestTicket) return SUPERSEDED
    return work()
  }
}
