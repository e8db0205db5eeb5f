import { AppError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import { createDeviceRateLimiter } from './device-rate-limiter'
import { applyStatus } from './device-status'
import type { AuthenticatedDevice, DevicesService } from './devices.service'
import { readAttributes, readTelemetry } from './ingest-payload'
import type { IotSettings } from './iot-settings'
import { publishStatusOutcome, publishTelemetry } from './live-events'
import type { LiveHub } from './live-hub'
import { createSqliteIngestQueue } from './sqlite-ingest-queue'
import type { TelemetryStore } from './telemetry-store'

/**
 * Device ingest (issue 17): the body of `POST /api/v1/{token}/telemetry` or `/attributes`,
 * already parsed, is read (refused whole at the first problem), the token checked, the device's
 * rate taken, and everything written in one transaction: points and rollups, attributes, the
 * device's last-seen time, its status and any alarm it raises.
 */
export interface IngestService {
  telemetry(token: string, body: unknown): Promise<{ count: number }>
  attributes(token: string, body: unknown): Promise<{ count: number }>
  /**
   * The same for a message the MQTT broker passed on: the device is named by its token's
   * SHA-256 (the broker's plugin checked the token and put its hash in the topic).
   */
  fromBroker(
    tokenHash: string,
    kind: 'telemetry' | 'attributes',
    body: unknown,
  ): Promise<{ count: number }>
}

/** Builds the service. */
export function createIngestService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  devices: DevicesService
  store: TelemetryStore
  settings: Pick<IotSettings, 'deviceRequestsPerSecond' | 'deviceRequestBurst'>
  /** The live stream; what was written is published to it after the commit. */
  live?: LiveHub
}): IngestService {
  const { database, clock, devices, store, settings, live } = dependencies
  const limiter = createDeviceRateLimiter({
    perSecond: settings.deviceRequestsPerSecond,
    burst: settings.deviceRequestBurst,
  })

  /** The device of a token, within its rate; the token is checked before the body is read. */
  const admit = async (token: string) => admitDevice(await devices.authenticate(token))
  const admitDevice = (device: AuthenticatedDevice | undefined) => {
    if (device === undefined) throw new AppError('badCredentials', 'iot.unknownToken')
    const waitSeconds = limiter.take(device.id, clock.nowMs())
    if (waitSeconds > 0) {
      throw new AppError(
        'rateLimited',
        'iot.deviceRateLimited',
        { perSecond: settings.deviceRequestsPerSecond, seconds: waitSeconds },
        { datum: { retryAfterSeconds: waitSeconds } },
      )
    }
    return device
  }

  // on SQLite, points-only bodies share commits (sqlite-ingest-queue.ts)
  const queue =
    database.sqlite === undefined
      ? undefined
      : createSqliteIngestQueue({ database, sqlite: database.sqlite, store })

  const telemetryOf = async (device: AuthenticatedDevice, body: unknown) => {
    const nowMs = clock.nowMs()
    const batch = readTelemetry(body, nowMs)
    if (queue !== undefined && batch.status === undefined) {
      const count = await queue.write(device.id, batch.messages, nowMs)
      if (live !== undefined) publishTelemetry(live, device, batch.messages)
      return { count }
    }
    const nowIso = timestampOf(nowMs)
    const { count, outcome } = await database.db.transaction().execute(async (transaction) => {
      const count = await store.write(transaction, device.id, batch.messages)
      await transaction
        .updateTable('iot_devices')
        .set({ last_seen_at: nowIso })
        .where('id', '=', device.id)
        .execute()
      const outcome =
        batch.status === undefined
          ? undefined
          : await applyStatus(transaction, device, {
              code: batch.status.code,
              nowIso,
              source: 'device',
            })
      return { count, outcome }
    })
    if (live !== undefined) {
      publishTelemetry(live, device, batch.messages)
      if (outcome !== undefined && batch.status !== undefined) {
        await publishStatusOutcome(live, database.db, device, batch.status.code, nowIso, outcome)
      }
    }
    return { count }
  }

  const attributesOf = async (device: AuthenticatedDevice, body: unknown) => {
    const batch = readAttributes(body)
    const nowIso = timestampOf(clock.nowMs())
    const { count, outcome } = await database.db.transaction().execute(async (transaction) => {
      if (batch.values.length > 0) {
        await transaction
          .insertInto('iot_attributes')
          .values(
            batch.values.map(([key, json]) => ({
              device_id: device.id,
              key,
              value_json: json,
              updated_at: nowIso,
            })),
          )
          .onConflict((conflict) =>
            conflict.columns(['device_id', 'key']).doUpdateSet((eb) => ({
              value_json: eb.ref('excluded.value_json'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute()
      }
      await transaction
        .updateTable('iot_devices')
        .set({ last_seen_at: nowIso })
        .where('id', '=', device.id)
        .execute()
      const outcome =
        batch.status === undefined
          ? undefined
          : await applyStatus(transaction, device, { code: batch.status, nowIso, source: 'device' })
      return { count: batch.values.length, outcome }
    })
    if (live !== undefined && outcome !== undefined && batch.status !== undefined) {
      await publishStatusOutcome(live, database.db, device, batch.status, nowIso, outcome)
    }
    return { count }
  }

  return {
    async telemetry(token, body) {
      return telemetryOf(await admit(token), body)
    },
    async attributes(token, body) {
      return attributesOf(await admit(token), body)
    },
    async fromBroker(tokenHash, kind, body) {
      const device = admitDevice(await devices.authenticateHash(tokenHash))
      return kind === 'telemetry' ? telemetryOf(device, body) : attributesOf(device, body)
    },
  }
}
