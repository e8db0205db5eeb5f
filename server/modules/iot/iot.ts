import type { FastifyInstance } from 'fastify'
import type { ProcessCoordination } from '../../plugins/coordination'
import type { DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { Clock } from '../time/clock'
import { type AlarmsService, createAlarmsService } from './alarms.service'
import { createDevicesService, type DevicesService } from './devices.service'
import { createEventLinksService, type EventLinksService } from './event-links.service'
import { createIngestService, type IngestService } from './ingest.service'
import { sweepTelemetry } from './iot-retention'
import type { IotSettings } from './iot-settings'
import { createLiveHub, type LiveHub } from './live-hub'
import { createMqttIngest, type MqttIngest } from './mqtt/mqtt-ingest'
import type { MqttSettings } from './mqtt/mqtt-settings'
import { createTelemetryStore } from './telemetry-store'
import { createTimeseriesService, type TimeseriesService } from './timeseries.service'

/** The live twin's services (issue 17): devices, ingest, time series, alarms. */
export interface IotServices {
  devices: DevicesService
  ingest: IngestService
  /** MQTT ingest through the local broker; its status for /web/health. */
  mqtt: MqttIngest
  timeseries: TimeseriesService
  alarms: AlarmsService
  /** The live stream's fan-out (contract/iot-live.ts). */
  live: LiveHub
  /** Event linkage (contract/event-links.ts). */
  eventLinks: EventLinksService
}

/** How often old points and rollups are swept. */
const retentionSweepIntervalMs = 3_600_000

/**
 * Makes the IoT services and installs the retention sweep (hourly while the app is open). The
 * devices' lifecycle hook (project delete) is returned for the composition root to register.
 */
export function composeIot(
  app: FastifyInstance,
  parts: {
    database: DatabaseHandle
    clock: Clock
    access: ProjectAccess
    settings: IotSettings
    /** The fan-out shared with the city's location POIs (a new one when not given). */
    live?: LiveHub
    mqtt: { settings: MqttSettings; defaultHost: string; dataDir: string }
    /** The retention sweep runs in one server process at a time. */
    coordination: Pick<ProcessCoordination, 'runOnce'>
  },
): IotServices {
  const { database, clock, access, settings } = parts
  const store = createTelemetryStore(database)
  const devices = createDevicesService({
    database,
    clock,
    access,
    onSeriesDeleted: () => store.forgetSeries(),
    // the broker's credentials follow the tokens (`mqtt` is made below, called only later)
    onTokensChanged: async () => mqtt.syncCredentials(),
  })
  const live = parts.live ?? createLiveHub(() => clock.nowMs())
  const ingest = createIngestService({ database, clock, devices, store, settings, live })
  const mqtt = createMqttIngest({ ...parts.mqtt, devices, ingest, log: app.log })
  // the database is migrated before `ready`: the broker starts with the tokens in force
  app.addHook('onReady', async () => mqtt.start())
  app.addHook('onClose', async () => mqtt.stop())
  let timer: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    const sweep = async () => {
      try {
        const removed = await sweepTelemetry({ database, clock, settings })
        if (removed.points + removed.minutes + removed.hours > 0) {
          app.log.info({ removed }, 'old telemetry removed')
        }
      } catch (error) {
        app.log.warn({ err: error }, 'telemetry retention sweep failed')
      }
    }
    timer = setInterval(
      () =>
        parts.coordination.runOnce('telemetry retention', sweep).catch((error: unknown) => {
          app.log.warn({ err: error }, 'telemetry retention sweep could not run')
        }),
      retentionSweepIntervalMs,
    )
    timer.unref()
  })
  app.addHook('onClose', async () => {
    if (timer !== undefined) clearInterval(timer)
  })
  return {
    devices,
    ingest,
    mqtt,
    timeseries: createTimeseriesService({ database, access }),
    alarms: createAlarmsService({ database, clock, access, live }),
    live,
    eventLinks: createEventLinksService({ database, clock, access }),
  }
}
