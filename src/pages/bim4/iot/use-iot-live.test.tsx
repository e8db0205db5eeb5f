import { act } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Alarm, Device } from '../../../api/iot'
import type { EngineHandle } from '../../../engine-bridge'
import { createPoiStore, type PoiStore } from '../../../state/pois'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import {
  createFakePoiServer,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from '../../pois/testing/fake-poi-server'
import { applyLiveEvent, iotStore } from './iot-store'
import { useIotLive } from './use-iot-live'

/** The hook on an open scene, without a project: no stream opens, the store is fed by hand. */
function LiveScene({
  engine,
  scene,
  pois,
}: {
  engine: EngineHandle
  scene: 'building' | 'city'
  pois: PoiStore
}) {
  useIotLive(engine, true, null, scene, pois)
  return null
}

/** The editor's POIs (the device's POI among them), drawn in a scene that records commands. */
async function scenePois(prefix: 'building' | 'city') {
  const template = sceneTemplate('t1', 'Sensor')
  const pois = createPoiStore(
    createFakePoiServer([template], [poiRecord({ id: 'poi-1', category_id: 't1' }, template)]),
    { onError: vi.fn() },
  )
  const recorder = createRecordingScene(prefix)
  pois.attachScene(recorder.scene)
  await pois.load('project-1', prefix)
  // attaching replays the selection (none) last: let it land before a test reads the commands
  await vi.waitFor(() => expect(recorder.names()).toContain('selectPois'))
  return { pois, recorder }
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
  iotStore.isFollowingAlarms = true
})

describe('useIotLive: device statuses in the scene (issue 17)', () => {
  it('hands the city scene every status, then the changes; with "follow" off, only announces alarms', async () => {
    iotStore.devices = [{ ...device }]
    iotStore.isFollowingAlarms = false
    const { run, engine } = fakeEngine()
    const { pois, recorder } = await scenePois('city')
    recorder.commands.length = 0
    renderWithI18n(<LiveScene engine={engine} scene="city" pois={pois} />)
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
    recorder.commands.length = 0
    act(() => applyLiveEvent({ type: 'alarm', alarm: fireAlarm }))
    // "follow alarms" is off: the view is not taken away
    expect(run.mock.calls.map(([name]) => name)).toEqual([
      'city.setPoiStatuses',
      'city.setPoiStatuses',
    ])
    expect(recorder.commands).toEqual([])
    expect(pois.state.selectedIds).toEqual([])
  })

  it('in the city editor too, follows a new alarm to its POI while "follow" is on', async () => {
    iotStore.devices = [{ ...device }]
    const { engine } = fakeEngine()
    const { pois, recorder } = await scenePois('city')
    renderWithI18n(<LiveScene engine={engine} scene="city" pois={pois} />)
    act(() => applyLiveEvent({ type: 'alarm', alarm: fireAlarm }))
    expect(pois.state.selectedIds).toEqual(['poi-1'])
    expect(recorder.commands.slice(-2)).toEqual([
      { name: 'selectPois', args: ['poi-1'] },
      { name: 'flyToPoi', args: 'poi-1' },
    ])
    // the same alarm again (counted again) is not new: the view stays where the user took it
    recorder.commands.length = 0
    act(() => applyLiveEvent({ type: 'alarm', alarm: { ...fireAlarm, count: 2 } }))
    expect(recorder.commands).toEqual([])
  })

  it('in the building editor, follows a new alarm to its POI', async () => {
    iotStore.devices = [{ ...device }]
    const { run, engine } = fakeEngine()
    const { pois, recorder } = await scenePois('building')
    renderWithI18n(<LiveScene engine={engine} scene="building" pois={pois} />)
    expect(run).toHaveBeenCalledWith('building.setPoiStatuses', {
      statuses: [{ poiId: 'poi-1', code: 2 }],
      replace: true,
    })
    act(() => applyLiveEvent({ type: 'alarm', alarm: fireAlarm }))
    expect(pois.state.selectedIds).toEqual(['poi-1'])
    expect(recorder.commands.slice(-2)).toEqual([
      { name: 'selectPois', args: ['poi-1'] },
      { name: 'flyToPoi', args: 'poi-1' },
    ])
  })
})
