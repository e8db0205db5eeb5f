import { afterEach, describe, expect, it } from 'vitest'
import type { Alarm, Device } from '../../../api/iot'
import {
  applyLiveEvent,
  iotStore,
  onAlarmRaised,
  onPoiStatuses,
  poiStatusEntries,
  resetIot,
} from './iot-store'

const device = (id: string, poiId: string, status: number | null): Device => ({
  id,
  projectid: 'p',
  poi_id: poiId,
  devicecode: id.toUpperCase(),
  name: `Sensor ${id}`,
  type: 'sensor',
  token_hint: 'abcd',
  token_issued_at: '2026-01-01T00:00:00.000Z',
  is_revoked: false,
  status,
  status_at: null,
  last_seen_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
})

const alarm = (id: string, state: Alarm['state']): Alarm => ({
  id,
  projectid: 'p',
  device_id: 'd1',
  poi_id: 'poi-1',
  devicecode: 'D1',
  code: 3,
  state,
  source: 'device',
  count: 1,
  note: '',
  raised_at: '2026-01-01T00:00:00.000Z',
  last_raised_at: '2026-01-01T00:00:00.000Z',
  acknowledged_at: null,
  acknowledged_by: '',
  cleared_at: null,
  cleared_by: '',
  updated_at: '2026-01-01T00:00:00.000Z',
})

afterEach(resetIot)

describe('the IoT store', () => {
  it('keeps the newest values and statuses from the stream and tells the scene of each change', () => {
    iotStore.projectId = 'p'
    iotStore.devices = [device('d1', 'poi-1', 2), device('d2', '', null)]
    expect(poiStatusEntries()).toEqual([{ poiId: 'poi-1', code: 2 }])
    const told: unknown[] = []
    const stop = onPoiStatuses((entries, replace) => told.push({ entries, replace }))
    applyLiveEvent({
      type: 'telemetry',
      device_id: 'd1',
      poi_id: 'poi-1',
      ts: 10,
      values: { t: 1 },
    })
    applyLiveEvent({
      type: 'telemetry',
      device_id: 'd1',
      poi_id: 'poi-1',
      ts: 20,
      values: { h: 5 },
    })
    expect(iotStore.latest.d1).toEqual({ ts: 20, values: { t: 1, h: 5 } })
    applyLiveEvent({
      type: 'status',
      device_id: 'd1',
      poi_id: 'poi-1',
      devicecode: 'D1',
      status: 3,
      at: '2026-01-01T00:00:01.000Z',
    })
    expect(iotStore.devices[0]!.status).toBe(3)
    expect(told).toEqual([{ entries: [{ poiId: 'poi-1', code: 3 }], replace: false }])
    stop()
  })

  it('announces an alarm once when it is raised, not when it changes state or is deleted', () => {
    iotStore.projectId = 'p'
    const raised: string[] = []
    const stop = onAlarmRaised((entry) => raised.push(entry.id))
    applyLiveEvent({ type: 'alarm', alarm: alarm('a1', 'active') })
    applyLiveEvent({ type: 'alarm', alarm: { ...alarm('a1', 'active'), count: 2 } })
    applyLiveEvent({ type: 'alarm', alarm: alarm('a1', 'acknowledged') })
    expect(raised).toEqual(['a1'])
    expect(iotStore.alarms.map((entry) => [entry.id, entry.state])).toEqual([
      ['a1', 'acknowledged'],
    ])
    applyLiveEvent({ type: 'alarmDeleted', id: 'a1' })
    expect(iotStore.alarms).toEqual([])
    stop()
  })
})
