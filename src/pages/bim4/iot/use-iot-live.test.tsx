import { act } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Alarm, Device } from '../../../api/iot'
import type { EngineHandle } from '../../../engine-bridge'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { applyLiveEvent, iotStore } from './iot-store'
import { useIotLive } from './use-iot-live'

/** The hook on an open scene, without a project: no stream opens, the store is fed by hand. */
function LiveScene({ engine, scene }: { engine: EngineHandle; scene: 'building' | 'city' }) {
  useIotLive(engine, true, null, scene)
  return null
}

const device = {
  id: 'd1',
  name: 'Gate sensor',
  poi_id: 'poi-1',
  devicecode: 'GATE-1',
  status: 2,
} as Device

const fireAlarm = {
  id: 'alarm-1',
  projectid: 'p1',
  device_id: 'd1',
  poi_id: 'poi-1',
  devicecode: 'GATE-1',
  code: 3,
  state: 'active',
  source: 'device',
  count: 1,
  note: '',
  raised_at: '2026-11-27T07:00:00.000Z',
  last_raised_at: '2026-11-27T07:00:00.000Z',
  acknowledged_at: null,
  acknowledged_by: '',
  cleared_at: null,
  cleared_by: '',
  updated_at: '2026-11-27T07:00:00.000Z',
} as Alarm

function fakeEngine() {
  const run = vi.fn(async (..._args: unknown[]) => undefined)
  return { run, engine: { run } as unknown as EngineHandle }
}

afterEach(() => {
  iotStore.devices = []
  iotStore.alarms = []
})

describe('useIotLive: device statuses in the scene (issue 17)', () => {
  it('hands the city scene every status, then the changes, and only announces alarms', async () => {
    iotStore.devices = [{ ...device }]
    const { run, engine } = fakeEngine()
    renderWithI18n(<LiveScene engine={engine} scene="city" />)
    expect(run).toHaveBeenCalledWith('city.setPoiStatuses', {
      statuses: [{ poiId: 'poi-1', code: 2 }],
      replace: true,
    })
    // two events of one network read reach the scene as one command
    await act(async () => {
      applyLiveEvent({
        type: 'status',
        device_id: 'd1',
        poi_id: 'poi-1',
        devicecode: 'GATE-1',
        status: 3,
        at: '2026-11-27T07:00:00.000Z',
      })
      applyLiveEvent({
        type: 'status',
        device_id: 'd2',
        poi_id: 'poi-2',
        devicecode: 'GATE-2',
        status: 11,
        at: '2026-11-27T07:00:00.000Z',
      })
    })
    expect(run).toHaveBeenLastCalledWith('city.setPoiStatuses', {
      statuses: [
        { poiId: 'poi-1', code: 3 },
        { poiId: 'poi-2', code: 11 },
      ],
      replace: false,
    })
    act(() => applyLiveEvent({ type: 'alarm', alarm: fireAlarm }))
    // no alarm list with "follow alarms" in the city: the view is not taken away
    expect(run.mock.calls.map(([name]) => name)).toEqual([
      'city.setPoiStatuses',
      'city.setPoiStatuses',
    ])
  })

  it('in the building editor, follows a new alarm to its POI', async () => {
    iotStore.devices = [{ ...device }]
    iotStore.isFollowingAlarms = true
    const { run, engine } = fakeEngine()
    renderWithI18n(<LiveScene engine={engine} scene="building" />)
    expect(run).toHaveBeenCalledWith('building.setPoiStatuses', {
      statuses: [{ poiId: 'poi-1', code: 2 }],
      replace: true,
    })
    act(() => applyLiveEvent({ type: 'alarm', alarm: fireAlarm }))
    await vi.waitFor(() =>
      expect(run).toHaveBeenLastCalledWith('building.flyToPoi', { id: 'poi-1' }),
    )
    expect(run).toHaveBeenCalledWith('building.selectPois', { ids: ['poi-1'] })
  })
})
