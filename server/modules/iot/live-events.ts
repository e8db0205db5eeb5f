import type { Investigation } from '../../../contract/investigations'
import type { Alarm } from '../../../contract/iot'
import type { Database } from '../../plugins/db'
import type { StatusOutcome, StatusSubject } from './device-status'
import type { TelemetryMessage } from './ingest-payload'
import { alarmOf } from './iot-records'
import type { LiveHub } from './live-hub'

/**
 * What the services publish on the live stream (contract/iot-live.ts), always after their
 * transaction committed, so a reader never sees a value that was rolled back.
 */

/** The newest value of each key of a telemetry request, as one event. */
export function publishTelemetry(
  live: LiveHub,
  device: StatusSubject,
  messages: readonly TelemetryMessage[],
): void {
  if (messages.length === 0 || !live.isWatched(device.projectId)) return
  const values: Record<string, number> = {}
  let ts = 0
  // messages may come in any order: the newest point of each key wins
  const times: Record<string, number> = {}
  for (const message of messages) {
    ts = Math.max(ts, message.ts)
    for (const [key, value] of message.values) {
      if ((times[key] ?? -Infinity) <= message.ts) {
        times[key] = message.ts
        values[key] = value
      }
    }
  }
  if (Object.keys(values).length === 0) return
  live.publish(device.projectId, {
    type: 'telemetry',
    device_id: device.id,
    poi_id: device.poiId ?? '',
    ts,
    values,
  })
}

/** A status report's effects: the new status (when it changed) and the alarm it raised. */
export async function publishStatusOutcome(
  live: LiveHub,
  db: Database,
  device: StatusSubject,
  code: number,
  atIso: string,
  outcome: StatusOutcome,
): Promise<void> {
  if (!live.isWatched(device.projectId)) return
  if (outcome.isChanged) {
    live.publish(device.projectId, {
      type: 'status',
      device_id: device.id,
      poi_id: device.poiId ?? '',
      devicecode: device.devicecode,
      status: code,
      at: atIso,
    })
  }
  if (outcome.alarmId !== undefined) {
    const row = await db
      .selectFrom('iot_alarms')
      .selectAll()
      .where('id', '=', outcome.alarmId)
      .executeTakeFirst()
    if (row) publishAlarm(live, alarmOf(row))
  }
}

/** An alarm record's new state. */
export function publishAlarm(live: LiveHub, alarm: Alarm): void {
  live.publish(alarm.projectid, { type: 'alarm', alarm })
}

/** An inspection record as saved (added or changed), for the project's other open editors. */
export function publishInvestigation(live: LiveHub, investigation: Investigation): void {
  live.publish(investigation.projectid, { type: 'investigation', investigation })
}
