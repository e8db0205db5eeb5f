import { describe, expect, it } from 'vitest'
import type { LiveEvent } from '../../../contract/iot-live'
import { createLiveHub, type LiveSink } from './live-hub'

/** A socket whose buffer is full until `drain()`: what a slow browser looks like to the hub. */
function slowSink() {
  const written: string[] = []
  let isFull = false
  let onDrain: (() => void) | undefined
  const sink: LiveSink = {
    write(text) {
      written.push(text)
      return !isFull
    },
    onDrain(listener) {
      onDrain = listener
    },
  }
  return {
    sink,
    written,
    fill: () => {
      isFull = true
    },
    drain: () => {
      isFull = false
      const listener = onDrain
      onDrain = undefined
      listener?.()
    },
    /** The events written so far, parsed from the SSE frames. */
    events: (): LiveEvent[] =>
      written
        .join('')
        .split('\n\n')
        .filter((frame) => frame.includes('data: '))
        .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as LiveEvent),
  }
}

const telemetry = (deviceId: string, value: number): LiveEvent => ({
  type: 'telemetry',
  device_id: deviceId,
  poi_id: '',
  ts: value,
  values: { value },
})

const status = (code: number): LiveEvent => ({
  type: 'status',
  device_id: 'd1',
  poi_id: 'p1',
  devicecode: 'D1',
  status: code,
  at: '2026-01-01T00:00:00.000Z',
})

describe('live hub back-pressure', () => {
  it('keeps statuses in order and only the newest telemetry per device while a reader is full', () => {
    const hub = createLiveHub(() => 0, { maxPendingFrames: 100 })
    const reader = slowSink()
    hub.subscribe('p', undefined, reader.sink)
    hub.publish('p', telemetry('d1', 1)) // written, and the socket is full after it
    reader.fill()
    hub.publish('p', telemetry('d1', 2))
    for (let value = 3; value <= 50; value++) hub.publish('p', telemetry('d1', value))
    hub.publish('p', status(3))
    hub.publish('p', telemetry('d2', 7))
    hub.publish('p', status(2))
    expect(reader.written).toHaveLength(2)
    reader.drain()
    expect(reader.events()).toEqual([
      telemetry('d1', 1),
      telemetry('d1', 2),
      status(3),
      status(2),
      telemetry('d1', 50),
      telemetry('d2', 7),
    ])
  })

  it('drops the queue of a reader too far behind and tells it to reset once it drains', () => {
    const hub = createLiveHub(() => 0, { maxPendingFrames: 10 })
    const reader = slowSink()
    const other = slowSink()
    hub.subscribe('p', undefined, reader.sink)
    hub.subscribe('p', undefined, other.sink)
    reader.fill()
    hub.publish('p', status(3))
    for (let index = 0; index < 50; index++) hub.publish('p', status(index % 2 === 0 ? 2 : 3))
    reader.drain()
    const events = reader.events()
    expect(events.at(-1)).toEqual({ type: 'reset' })
    expect(events.length).toBeLessThan(5)
    // the other reader was never slowed down
    expect(other.events()).toHaveLength(51)
    // and once drained, the slow one follows again
    hub.publish('p', status(41))
    expect(reader.events().at(-1)).toEqual(status(41))
  })

  it('costs nothing for projects nobody watches, and forgets them after the resume window', () => {
    let now = 0
    const hub = createLiveHub(() => now, { resumeWindowMs: 1_000 })
    hub.publish('unwatched', status(3))
    expect(hub.isWatched('unwatched')).toBe(false)
    const reader = slowSink()
    const subscription = hub.subscribe('p', undefined, reader.sink)
    expect(hub.subscriberCount('p')).toBe(1)
    subscription.close()
    expect(hub.isWatched('p')).toBe(true)
    now = 10_000
    hub.publish('p', status(2))
    expect(hub.isWatched('p')).toBe(false)
  })
})
