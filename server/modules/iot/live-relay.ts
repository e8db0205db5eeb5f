import type { LiveEvent } from '../../../contract/iot-live'
import type { ProcessCoordination } from '../../plugins/coordination'
import type { LiveHub } from './live-hub'

/**
 * The live stream across server processes (issue 22 item 2): a reader's stream stays on the
 * process it opened, while the event may happen on another (a device posting through the other
 * process). Each process tells the others which projects it watches (again every
 * `announceEveryMs` while it does); an event of a project a peer watches is sent to the peers
 * (PostgreSQL NOTIFY through the coordination), which hand it to their own hub. Event ids stay
 * per process: a reader resuming on another process gets a `reset` and reloads, as after a
 * restart.
 */
export interface RelayedLiveHub extends LiveHub {
  /** Stops the announcements (the app's close). */
  close(): void
}

/** How often a process repeats which projects it watches. */
const announceEveryMs = 30_000

/** A peer's announcement holds this long: two announcements and the hub's resume window. */
const peerWatchMs = 2 * announceEveryMs + 120_000

type RelayMessage =
  | { kind: 'watch'; projectId: string }
  | { kind: 'event'; projectId: string; event: LiveEvent }

/** Wraps this process's hub; events of peers arrive once `start` has resolved. */
export function relayLiveHub(
  local: LiveHub,
  peers: Pick<ProcessCoordination, 'broadcast' | 'onBroadcast'>,
  nowMs: () => number,
  onError: (error: unknown) => void,
): RelayedLiveHub & { start(): Promise<void> } {
  const channel = 'live'
  const watchedByPeers = new Map<string, number>()
  const watchedHere = new Set<string>()
  const send = (message: RelayMessage) => {
    peers.broadcast(channel, JSON.stringify(message)).catch(onError)
  }
  const isPeerWatching = (projectId: string) => (watchedByPeers.get(projectId) ?? 0) > nowMs()
  let timer: NodeJS.Timeout | undefined

  return {
    async start() {
      await peers.onBroadcast(channel, (text) => {
        const message = JSON.parse(text) as RelayMessage
        if (message.kind === 'watch') {
          watchedByPeers.set(message.projectId, nowMs() + peerWatchMs)
        } else {
          local.publish(message.projectId, message.event)
        }
      })
      timer = setInterval(() => {
        for (const projectId of watchedHere) {
          if (local.subscriberCount(projectId) > 0) send({ kind: 'watch', projectId })
          else watchedHere.delete(projectId)
        }
        for (const [projectId, untilMs] of watchedByPeers) {
          if (untilMs <= nowMs()) watchedByPeers.delete(projectId)
        }
      }, announceEveryMs)
      timer.unref()
    },
    close() {
      if (timer !== undefined) clearInterval(timer)
    },
    publish(projectId, event) {
      local.publish(projectId, event)
      if (isPeerWatching(projectId)) send({ kind: 'event', projectId, event })
    },
    isWatched: (projectId) => local.isWatched(projectId) || isPeerWatching(projectId),
    subscribe(projectId, lastEventId, sink) {
      const subscription = local.subscribe(projectId, lastEventId, sink)
      watchedHere.add(projectId)
      send({ kind: 'watch', projectId })
      return subscription
    },
    subscriberCount: (projectId) => local.subscriberCount(projectId),
  }
}
