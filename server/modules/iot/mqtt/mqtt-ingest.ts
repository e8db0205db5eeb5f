import { connectAsync, type IPublishPacket, type MqttClient } from 'mqtt'
import { AppError } from '../../../http/app-error'
import type { DevicesService } from '../devices.service'
import { parseIngestJson } from '../ingest-payload'
import type { IngestService } from '../ingest.service'
import { type MqttBroker, MqttUnavailable, startMqttBroker } from './mqtt-broker'
import type { MqttSettings } from './mqtt-settings'

/** What `/web/health` and the tests learn of MQTT ingest. */
export interface MqttIngestStatus {
  /** `running`: broker and subscriber up; `off`: MQTT=off; `unavailable`: could not start (see `reason`). */
  state: 'running' | 'off' | 'unavailable' | 'starting'
  port: number | undefined
  reason: string | undefined
  /** Messages the subscriber took (stored or refused), stored, and refused per catalogue code. */
  handled: number
  stored: number
  refused: Record<string, number>
}

/**
 * MQTT ingest (issue 17): the server starts mosquitto (mqtt-broker.ts), keeps its credentials
 * in step with the devices' tokens, and subscribes as its one privileged client to what the
 * plugin forwards — `twinscape/in/<token hash>/<telemetry|attributes>` — handing each message to
 * the same ingest service as the HTTP device API (same checks, limits, rate and transaction).
 * A refused message cannot be answered over MQTT 3.1.1; it is counted under its catalogue code
 * and logged, and nothing of it is stored.
 */
export interface MqttIngest {
  start(): Promise<void>
  stop(): Promise<void>
  /** Rewrites the broker's credentials from the database (after tokens changed). */
  syncCredentials(): Promise<void>
  status(): MqttIngestStatus
}

/** Messages being ingested at once before the subscriber stops reading (the broker queues). */
const maxInFlight = 256
const topicPattern = /^twinscape\/in\/([0-9a-f]{64})\/(telemetry|attributes)$/

/** Builds the MQTT ingest; nothing runs before `start`. */
export function createMqttIngest(dependencies: {
  settings: MqttSettings
  defaultHost: string
  dataDir: string
  devices: Pick<DevicesService, 'activeTokenHashes'>
  ingest: Pick<IngestService, 'fromBroker'>
  log: { info(object: object, message: string): void; warn(object: object, message: string): void }
}): MqttIngest {
  const { settings, devices, ingest, log } = dependencies
  let broker: MqttBroker | undefined
  let client: MqttClient | undefined
  const status: MqttIngestStatus = {
    state: settings.mode === 'off' ? 'off' : 'starting',
    port: undefined,
    reason: settings.mode === 'off' ? 'MQTT=off' : undefined,
    handled: 0,
    stored: 0,
    refused: {},
  }
  let inFlight = 0
  const waiting: Array<() => void> = []
  let syncing: Promise<void> | undefined
  let isSyncWanted = false

  const handle = async (packet: IPublishPacket) => {
    const match = topicPattern.exec(packet.topic)
    try {
      if (match === null) throw new Error(`unexpected topic ${packet.topic}`)
      const text = Buffer.isBuffer(packet.payload)
        ? packet.payload.toString('utf8')
        : String(packet.payload)
      await ingest.fromBroker(
        match[1]!,
        match[2] as 'telemetry' | 'attributes',
        parseIngestJson(text),
      )
      status.stored += 1
    } catch (error) {
      const code = error instanceof AppError ? error.messageId : 'internal'
      status.refused[code] = (status.refused[code] ?? 0) + 1
      if (error instanceof AppError) log.info({ code, kind: match?.[2] }, 'MQTT message refused')
      else log.warn({ err: error }, 'MQTT message failed')
    } finally {
      status.handled += 1
    }
  }

  const subscribe = async (active: MqttBroker) => {
    const connected = await connectAsync(active.url, {
      ...active.serverCredentials,
      clientId: `${active.serverCredentials.username}-${process.pid}`,
      reconnectPeriod: 1000,
      connectTimeout: 5000,
    })
    // read on while fewer than maxInFlight messages are being stored; then hold the stream
    // (and the broker queues) until one is done
    connected.handleMessage = (packet, callback) => {
      inFlight += 1
      void handle(packet).finally(() => {
        inFlight -= 1
        waiting.shift()?.()
      })
      if (inFlight < maxInFlight) callback()
      else waiting.push(() => callback())
    }
    await connected.subscribeAsync('twinscape/in/+/+', { qos: 1 })
    return connected
  }

  const syncCredentials = async () => {
    if (broker === undefined) return
    if (syncing !== undefined) {
      // one more pass after the running one, which may have read the database too early
      isSyncWanted = true
      return syncing
    }
    syncing = (async () => {
      do {
        isSyncWanted = false
        await broker?.writeDeviceHashes(await devices.activeTokenHashes())
      } while (isSyncWanted)
    })().finally(() => {
      syncing = undefined
    })
    return syncing
  }

  return {
    async start() {
      if (settings.mode === 'off') return
      try {
        broker = await startMqttBroker({
          settings,
          defaultHost: dependencies.defaultHost,
          dataDir: dependencies.dataDir,
          deviceHashes: await devices.activeTokenHashes(),
          log,
        })
        client = await subscribe(broker)
        status.state = 'running'
        status.port = broker.port
        log.info({ port: broker.port }, 'MQTT ingest listening')
      } catch (error) {
        await client?.endAsync(true).catch(() => {})
        await broker?.stop().catch(() => {})
        client = undefined
        broker = undefined
        const reason = error instanceof Error ? error.message : String(error)
        if (settings.mode === 'on') throw error
        status.state = 'unavailable'
        status.reason = reason
        if (!(error instanceof MqttUnavailable)) log.warn({ err: error }, 'MQTT ingest failed')
        log.warn({ reason }, 'MQTT ingest unavailable: HTTP ingest only')
      }
    },

    async stop() {
      const active = client
      client = undefined
      await active?.endAsync(true).catch(() => {})
      await broker?.stop()
      broker = undefined
      if (status.state === 'running') status.state = 'off'
    },

    syncCredentials,

    status: () => ({ ...status, refused: { ...status.refused } }),
  }
}
