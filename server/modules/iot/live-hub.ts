import { randomBytes } from 'node:crypto'
import type { LiveEvent } from '../../../contract/iot-live'

/** Where a subscriber's frames go: an HTTP response, in practice. */
export interface LiveSink {
  /** Writes text; false when the socket's buffer is full and `onDrain` should be awaited. */
  write(text: string): boolean
  /** Calls `listener` once, when the socket can take more. */
  onDrain(listener: () => void): void
}

/** A subscriber's handle. */
export interface LiveSubscription {
  close(): void
}

/**
 * The live stream's fan-out (contract/iot-live.ts): services publish a project's events, each
 * open stream of the project receives them as SSE frames. Kept in this process; a second
 * server process has its own (its devices' events reach its own readers).
 */
export interface LiveHub {
  /** Sends an event to the project's streams; costs nothing when nobody watches the project. */
  publish(projectId: string, event: LiveEvent): void
  /** True when the project has streams, or had one recently (events are kept for a resume). */
  isWatched(projectId: string): boolean
  /**
   * Opens a stream: events after `lastEventId` the hub still holds are written first, or a
   * `reset` when it holds no longer all of them; then every new event of the project.
   */
  subscribe(projectId: string, lastEventId: string | undefined, sink: LiveSink): LiveSubscription
  /** Open streams (of one project, or all). */
  subscriberCount(projectId?: string): number
}

/** Limits of the hub (tests make them small). */
export interface LiveHubLimits {
  /** Events kept per watched project for a reconnecting client. */
  replayEvents: number
  /** How long a project's events are kept after its last stream closed. */
  resumeWindowMs: number
  /**
   * Frames held for one slow reader while its socket is full; past this they are dropped and
   * the reader gets a `reset` once its socket drains (telemetry counts one per device, since
   * only the newest values of each device are kept).
   */
  maxPendingFrames: number
}

const defaultLimits: LiveHubLimits = {
  replayEvents: 1000,
  resumeWindowMs: 120_000,
  maxPendingFrames: 2000,
}

interface Channel {
  subscribers: Set<Subscriber>
  /** Recent frames of the project, oldest first, with their sequence numbers. */
  recent: Array<{ sequence: number; frame: string }>
  /** Every event of the project after this sequence number is in `recent`. */
  completeAfter: number
  /** When the last subscriber left (null while one is open). */
  idleSinceMs: number | null
}

/**
 * A reader with back-pressure: while its socket is full, status and alarm frames queue in order
 * and telemetry keeps only each device's newest frame; a reader that falls too far behind loses
 * the queue and is told to `reset`, so one slow browser never holds the server's memory.
 */
class Subscriber {
  private isBlocked = false
  private isOverflowed = false
  private queue: string[] = []
  private telemetry = new Map<string, string>()

  constructor(
    private readonly sink: LiveSink,
    private readonly maxPending: number,
    private readonly resetFrame: () => string,
  ) {}

  deliver(frame: string, event: LiveEvent): void {
    if (!this.isBlocked) {
      this.write(frame)
      return
    }
    if (this.isOverflowed) return
    if (event.type === 'telemetry') this.telemetry.set(event.device_id, frame)
    else this.queue.push(frame)
    if (this.queue.length + this.telemetry.size > this.maxPending) {
      this.isOverflowed = true
      this.queue = []
      this.telemetry.clear()
    }
  }

  private write(text: string): void {
    if (this.sink.write(text)) return
    this.isBlocked = true
    this.sink.onDrain(() => this.flush())
  }

  private flush(): void {
    this.isBlocked = false
    const text = this.isOverflowed
      ? this.resetFrame()
      : this.queue.join('') + [...this.telemetry.values()].join('')
    this.isOverflowed = false
    this.queue = []
    this.telemetry.clear()
    if (text !== '') this.write(text)
  }
}

/** Builds the hub; `nowMs` is the clock (the resume window). */
export function createLiveHub(nowMs: () => number, limits: Partial<LiveHubLimits> = {}): LiveHub {
  const { replayEvents, resumeWindowMs, maxPendingFrames } = { ...defaultLimits, ...limits }
  // Ids carry the process's epoch: an id from before a restart is known to be stale.
  const epoch = randomBytes(4).toString('hex')
  let sequence = 0
  const channels = new Map<string, Channel>()
  let lastSweepMs = 0

  const idOf = (value: number) => `${epoch}-${value}`
  const frameOf = (id: string, event: LiveEvent) => `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`
  const resetFrame = () => frameOf(idOf(sequence), { type: 'reset' })

  /** Forgets projects nobody has watched for the resume window (at most every few seconds). */
  const sweep = () => {
    const now = nowMs()
    if (now - lastSweepMs < 5_000) return
    lastSweepMs = now
    for (const [projectId, channel] of channels) {
      if (channel.idleSinceMs !== null && now - channel.idleSinceMs > resumeWindowMs) {
        channels.delete(projectId)
      }
    }
  }

  /** What a stream resuming after `lastEventId` must be sent first. */
  const catchUp = (channel: Channel, lastEventId: string | undefined): string => {
    if (lastEventId === undefined || lastEventId === '') return ''
    const match = /^([0-9a-f]+)-(\d+)$/.exec(lastEventId)
    const lastSequence = match && match[1] === epoch ? Number(match[2]) : Number.NaN
    if (!(lastSequence <= sequence) || lastSequence < channel.completeAfter) return resetFrame()
    return channel.recent
      .filter((entry) => entry.sequence > lastSequence)
      .map((entry) => entry.frame)
      .join('')
  }

  return {
    publish(projectId, event) {
      sweep()
      const channel = channels.get(projectId)
      if (channel === undefined) return
      sequence += 1
      const frame = frameOf(idOf(sequence), event)
      channel.recent.push({ sequence, frame })
      if (channel.recent.length > replayEvents) {
        channel.completeAfter = channel.recent.shift()!.sequence
      }
      for (const subscriber of channel.subscribers) subscriber.deliver(frame, event)
    },

    isWatched(projectId) {
      return channels.has(projectId)
    },

    subscribe(projectId, lastEventId, sink) {
      sweep()
      let channel = channels.get(projectId)
      if (channel === undefined) {
        channel = { subscribers: new Set(), recent: [], completeAfter: sequence, idleSinceMs: null }
        channels.set(projectId, channel)
      }
      const subscriber = new Subscriber(sink, maxPendingFrames, resetFrame)
      const missed = catchUp(channel, lastEventId)
      if (missed !== '') subscriber.deliver(missed, { type: 'reset' })
      channel.subscribers.add(subscriber)
      channel.idleSinceMs = null
      const opened = channel
      return {
        close() {
          if (!opened.subscribers.delete(subscriber)) return
          if (opened.subscribers.size === 0) opened.idleSinceMs = nowMs()
        },
      }
    },

    subscriberCount(projectId) {
      if (projectId !== undefined) return channels.get(projectId)?.subscribers.size ?? 0
      let count = 0
      for (const channel of channels.values()) count += channel.subscribers.size
      return count
    },
  }
}
