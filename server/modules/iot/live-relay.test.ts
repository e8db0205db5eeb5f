import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { LiveEvent } from '../../../contract/iot-live'
import type { DatabaseConfig } from '../../config'
import { openProcessCoordination, type ProcessCoordination } from '../../plugins/coordination'
import { createLiveHub } from './live-hub'
import { relayLiveHub } from './live-relay'

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : undefined

const telemetry: LiveEvent = {
  type: 'telemetry',
  device_id: 'd1',
  poi_id: '',
  ts: 1_700_000_000_000,
  values: { temperature: 21.5 },
}

const opened: Array<{ close(): unknown }> = []

/** A process's hub, relayed through its coordination on `database`. */
async function processHub(database: DatabaseConfig) {
  const coordination: ProcessCoordination = openProcessCoordination(database)
  const hub = relayLiveHub(createLiveHub(Date.now), coordination, Date.now, (error) => {
    throw error
  })
  opened.push(hub, coordination)
  await hub.start()
  return hub
}

/** A reader's stream: the frames written to it, as text. */
function reader() {
  const frames: string[] = []
  return { frames, sink: { write: (text: string) => frames.push(text) > 0, onDrain: () => {} } }
}

afterEach(async () => {
  for (const each of opened.splice(0)) await each.close()
})

describe('the live stream across server processes', () => {
  it('keeps a lone process as it was: its own readers get its events', async () => {
    const hub = await processHub({ kind: 'sqlite', file: '' })
    const { frames, sink } = reader()
    hub.subscribe('p1', undefined, sink)
    expect(hub.isWatched('p1')).toBe(true)
    expect(hub.isWatched('p2')).toBe(false)
    hub.publish('p1', telemetry)
    expect(frames.join('')).toContain('"temperature":21.5')
  })

  it.skipIf(postgresUrl === undefined)(
    "sends an event to the process where the project's reader is",
    async () => {
      const database: DatabaseConfig = {
        kind: 'postgres',
        url: postgresUrl!,
        schema: `live_${randomBytes(6).toString('hex')}`,
      }
      const devicesSide = await processHub(database)
      const readersSide = await processHub(database)
      const { frames, sink } = reader()
      readersSide.subscribe('p1', undefined, sink)
      // the reader's process has told the other one it watches the project
      await expect.poll(() => devicesSide.isWatched('p1')).toBe(true)
      expect(devicesSide.isWatched('p2')).toBe(false)
      devicesSide.publish('p1', telemetry)
      await expect.poll(() => frames.join('')).toContain('"temperature":21.5')
      // and an event of a project nobody watches stays where it happened
      devicesSide.publish('p2', { ...telemetry, device_id: 'd2' })
      devicesSide.publish('p1', { ...telemetry, values: { temperature: 22 } })
      await expect.poll(() => frames.join('')).toContain('"temperature":22')
      expect(frames.join('')).not.toContain('"d2"')
    },
  )
})
