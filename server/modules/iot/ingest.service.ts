import type { Statement } from 'better-sqlite3'
import { AppError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import { createDeviceRateLimiter } from './device-rate-limiter'
import { applyStatus } from './device-status'
import type { DevicesService } from './devices.service'
import { readAttributes, readTelemetry } from './ingest-payload'
import type { IotSettings } from './iot-settings'
import { publishStatusOutcome, publishTelemetry } from './live-events'
import type { LiveHub } from './live-hub'
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
}

/** Builds the service. */
export function createIngestService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  devices: DevicesService
  store: TelemetryStore
  settings: Pick<IotSettings, 'deviceRequestsPerSecond' | 'deviceRequestBurst'>
  /** The live stream: what was stored is published after the commit. */
  live?: LiveHub
}): IngestService {
  const { database, clock, devices, store, settings, live } = dependencies
  const limiter = createDeviceRateLimiter({
    perSecond: settings.deviceRequestsPerSecond,
    burst: settings.deviceRequestBurst,
  })

  /** The device of a token, within its rate; the token is checked before the body is read. */
  const admit = async (token: string) => {
    const device = await devices.authenticate(token)
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

  let seenStatement: Statement | undefined
  const seenStatementOf = (sqlite: NonNullable<DatabaseHandle['sqlite']>) => {
    seenStatement ??= sqlite.prepare('update iot_devices set last_seen_at = ? where id = ?')
    return seenStatement
  }

  return {
    async telemetry(token, body) {
      const device = await admit(token)
      const nowMs = clock.nowMs()
      const batch = readTelemetry(body, nowMs)
      const nowIso = timestampOf(nowMs)
      const { sqlite } = database
      if (sqlite !== undefined && batch.status === undefined) {
        // the common case on SQLite: points only, in a transaction of raw statements on the
        // app's connection, held by Kysely (`connection()`) so no other query interleaves
        const written = await database.db.connection().execute(async (connection) => {
          sqlite.exec('begin immediate')
          try {
            const count = await store.write(connection, device.id, batch.messages)
            seenStatementOf(sqlite).run(nowIso, device.id)
            sqlite.exec('commit')
            return { count }
          } catch (error) {
            if (sqlite.inTransaction) sqlite.exec('rollback')
            throw error
          }
        })
        if (live !== undefined) publishTelemetry(live, device, batch.messages)
        return written
      }
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
        if (outcome !== undefined) {
          await publishStatusOutcome(live, database.db, device, batch.status!.code, nowIso, outcome)
        }
      }
      return { count }
    },

    async attributes(token, body) {
      const device = await admit(token)
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
            : await applyStatus(transaction, device, {
                code: batch.status,
                nowIso,
                source: 'device',
              })
        return { count: batch.values.length, outcome }
      })
      if (live !== undefined && outcome !== undefined) {
        await publishStatusOutcome(live, database.db, device, batch.status!, nowIso, outcome)
      }
      return { count }
    },
  }
}
