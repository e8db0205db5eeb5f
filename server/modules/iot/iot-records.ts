import type { Selectable } from 'kysely'
import type { Alarm, Device } from '../../../contract/iot'
import type { IotAlarmsTable, IotDevicesTable } from '../../migrations/0015-iot'

/** A device row as the contract answers it (never its token hash). */
export function deviceOf(row: Selectable<IotDevicesTable>): Device {
  return {
    id: row.id,
    projectid: row.project_id,
    poi_id: row.poi_id ?? '',
    devicecode: row.devicecode,
    name: row.name,
    type: row.type,
    token_hint: row.token_hash === null ? '' : row.token_hint,
    token_issued_at: row.token_issued_at,
    is_revoked: row.token_hash === null,
    status: row.status === null ? null : Number(row.status),
    status_at: row.status_at,
    last_seen_at: row.last_seen_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** An alarm row as the contract answers it. */
export function alarmOf(row: Selectable<IotAlarmsTable>): Alarm {
  return {
    id: row.id,
    projectid: row.project_id,
    device_id: row.device_id,
    poi_id: row.poi_id ?? '',
    devicecode: row.devicecode,
    code: Number(row.code),
    state: row.state,
    source: row.source === 'manual' ? 'manual' : 'device',
    count: Number(row.count),
    note: row.note,
    raised_at: row.raised_at,
    last_raised_at: row.last_raised_at,
    acknowledged_at: row.acknowledged_at,
    acknowledged_by: row.acknowledged_by ?? '',
    cleared_at: row.cleared_at,
    cleared_by: row.cleared_by ?? '',
    updated_at: row.updated_at,
  }
}
