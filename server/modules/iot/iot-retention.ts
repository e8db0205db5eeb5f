import type { DatabaseHandle } from '../../plugins/db'
import type { Clock } from '../time/clock'
import type { IotSettings } from './iot-settings'

/**
 * Deletes raw points and rollups older than their retention (IotSettings), series by series so
 * each delete is a range of the primary key, never a scan of the table.
 */
export async function sweepTelemetry(dependencies: {
  database: DatabaseHandle
  clock: Clock
  settings: Pick<IotSettings, 'rawRetentionMs' | 'minuteRetentionMs' | 'hourRetentionMs'>
}): Promise<{ points: number; minutes: number; hours: number }> {
  const { database, clock, settings } = dependencies
  const { db } = database
  const nowMs = clock.nowMs()
  const removed = { points: 0, minutes: 0, hours: 0 }
  const series = await db.selectFrom('iot_series').select('id').execute()
  for (const { id } of series) {
    const seriesId = Number(id)
    const points = await db
      .deleteFrom('iot_points')
      .where('series_id', '=', seriesId)
      .where('ts', '<', nowMs - settings.rawRetentionMs)
      .executeTakeFirst()
    const minutes = await db
      .deleteFrom('iot_rollups_1m')
      .where('series_id', '=', seriesId)
      .where('bucket_ts', '<', nowMs - settings.minuteRetentionMs)
      .executeTakeFirst()
    const hours = await db
      .deleteFrom('iot_rollups_1h')
      .where('series_id', '=', seriesId)
      .where('bucket_ts', '<', nowMs - settings.hourRetentionMs)
      .executeTakeFirst()
    removed.points += Number(points.numDeletedRows)
    removed.minutes += Number(minutes.numDeletedRows)
    removed.hours += Number(hours.numDeletedRows)
  }
  return removed
}
