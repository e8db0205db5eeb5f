import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { isAlarmStatusCode } from '../../../contract/iot'
import type { Database } from '../../plugins/db'

/** The device a status is reported for. */
export interface StatusSubject {
  id: string
  projectId: string
  poiId: string | null
  devicecode: string
}

/** What applying a status did. */
export interface StatusOutcome {
  /** True when the device's status changed. */
  isChanged: boolean
  /** The alarm raised or counted again, if the code is an alarm code. */
  alarmId: string | undefined
}

/**
 * Applies a reported status code (SPEC §3) in the caller's transaction: the device's status and
 * its POI's `state` (the code as text) follow it; a change into an alarm code (3, 11, 31, 41),
 * or a manual report (`/alarmrecord/add`), raises an alarm record, or counts the uncleared one of
 * the same device and code again (deduplicated by the partial unique index of 0015).
 */
export async function applyStatus(
  handle: Database,
  subject: StatusSubject,
  report: { code: number; nowIso: string; source: 'device' | 'manual'; note?: string },
): Promise<StatusOutcome> {
  const { code, nowIso } = report
  const changed = await handle
    .updateTable('iot_devices')
    .set({ status: code, status_at: nowIso, updated_at: nowIso })
    .where('id', '=', subject.id)
    .where((eb) => eb.or([eb('status', 'is', null), eb('status', '<>', code)]))
    .executeTakeFirst()
  const isChanged = Number(changed.numUpdatedRows) > 0
  if (isChanged && subject.poiId !== null) {
    await handle
      .updateTable('pois')
      .set({ state: String(code), updated_at: nowIso })
      .where('id', '=', subject.poiId)
      .where('project_id', '=', subject.projectId)
      .execute()
  }
  if (!isAlarmStatusCode(code) || (!isChanged && report.source === 'device')) {
    return { isChanged, alarmId: undefined }
  }
  const id = randomUUID()
  const alarm = await handle
    .insertInto('iot_alarms')
    .values({
      id,
      project_id: subject.projectId,
      device_id: subject.id,
      poi_id: subject.poiId,
      devicecode: subject.devicecode,
      code,
      state: 'active',
      source: report.source,
      count: 1,
      note: report.note ?? '',
      raised_at: nowIso,
      last_raised_at: nowIso,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['device_id', 'code'])
        // the index's own condition, as a literal: a parameter would not match it
        .where(sql.ref('state'), '<>', sql.lit('cleared'))
        .doUpdateSet((eb) => ({
          count: eb('iot_alarms.count', '+', 1),
          last_raised_at: nowIso,
          updated_at: nowIso,
          ...(report.note ? { note: report.note } : {}),
        })),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  return { isChanged, alarmId: alarm.id }
}
