import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Alarm, Device } from '../../../api/iot'
import { createPoiStore } from '../../../state/pois'
import { UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { investigationsStore } from '../../bim4/iot/investigations-store'
import { iotStore, resetIot } from '../../bim4/iot/iot-store'
import {
  createFakePoiServer,
  createRecordingScene,
  poiRecord,
  sceneTemplate,
} from '../../pois/testing/fake-poi-server'
import { CityProjectProvider } from '../city-context'
import { createCityProjectStore } from '../city-project-store'
import { cityModules } from '../city-modules'
import { createMemoryCityServer } from '../testing/memory-city-server'
import { CityAlarmsTab } from './CityAlarmsTab'

const sensorTemplate = sceneTemplate('t1', 'Smoke sensor')

const device = {
  id: 'd1',
  projectid: 'project-1',
  name: 'Pier sensor',
  poi_id: 'poi-1',
  devicecode: 'PIER-1',
  status: 3,
} as Device

const fireAlarm: Alarm = {
  id: 'alarm-1',
  projectid: 'project-1',
  device_id: 'd1',
  poi_id: 'poi-1',
  devicecode: 'PIER-1',
  code: 3,
  state: 'active',
  source: 'device',
  count: 2,
  note: '',
  raised_at: '2026-11-27T07:00:00.000Z',
  last_raised_at: '2026-11-27T07:01:00.000Z',
  acknowledged_at: null,
  acknowledged_by: '',
  cleared_at: null,
  cleared_by: '',
  updated_at: '2026-11-27T07:01:00.000Z',
}

/** The server: no inspections yet, and alarm changes answered as the server records them. */
function stubServer() {
  const calls: { path: string; body: Record<string, unknown> }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      // the client sends forms unless told otherwise
      const sent = String(init?.body ?? '')
      const body: Record<string, unknown> = sent.startsWith('{')
        ? JSON.parse(sent)
        : Object.fromEntries(new URLSearchParams(sent))
      calls.push({ path, body })
      const datum =
        path === '/web/alarmrecord/update'
          ? {
              ...fireAlarm,
              state: body.state,
              acknowledged_at: '2026-11-27T07:05:00.000Z',
              acknowledged_by: 'harbour-editor',
            }
          : { list: [], total: 0, pageNo: 1, pageSize: 20 }
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

async function renderTab() {
  const poiServer = createFakePoiServer(
    [sensorTemplate],
    [poiRecord({ id: 'poi-1', category_id: 't1', name: 'Pier sensor', x: 121.6, y: 31.2 })],
  )
  const pois = createPoiStore(poiServer, { onError: vi.fn() })
  const recorder = createRecordingScene('city')
  pois.attachScene(recorder.scene)
  await pois.load('project-1', 'city')
  const city = createMemoryCityServer('project-1')
  const cityStore = createCityProjectStore()
  cityStore.projectId = 'project-1'
  cityStore.project = await city.services.findProjectInfo('project-1')
  cityStore.loadState = 'ready'
  iotStore.projectId = 'project-1'
  iotStore.status = 'ready'
  iotStore.devices = [{ ...device }]
  iotStore.alarms = [{ ...fireAlarm }]
  renderWithI18n(
    <UiRoot>
      <CityProjectProvider store={cityStore}>
        <CityAlarmsTab pois={pois} />
      </CityProjectProvider>
    </UiRoot>,
  )
  return { pois, recorder }
}

afterEach(() => {
  vi.unstubAllGlobals()
  resetIot()
  iotStore.isFollowingAlarms = true
  investigationsStore.projectId = null
  investigationsStore.list = []
})

describe('the city editor’s alarm list (issue 17)', () => {
  it('is a tab of the POI module', () => {
    const poi = cityModules.find((module) => module.id === 'poi')
    expect(poi?.tabs.find((tab) => tab.id === 'alarms')).toMatchObject({ isBuilt: true })
  })

  it("lists the project's open alarm, jumps to its POI on the map and acknowledges it", async () => {
    const calls = stubServer()
    const { pois, recorder } = await renderTab()
    const alarm = screen.getByTestId('iot-alarm')
    expect(alarm.textContent).toContain('Fire alarm')
    expect(alarm.textContent).toContain('Pier sensor')
    expect(alarm.textContent).toContain('Active')
    expect(alarm.textContent).toContain('reported 2 times')

    await userEvent.click(within(alarm).getByRole('button', { name: 'Show in the scene' }))
    expect(pois.state.selectedIds).toEqual(['poi-1'])
    expect(recorder.commands).toContainEqual({ name: 'selectPois', args: ['poi-1'] })
    expect(recorder.commands).toContainEqual({ name: 'flyToPoi', args: 'poi-1' })

    await userEvent.click(within(alarm).getByRole('button', { name: 'Acknowledge' }))
    await waitFor(() => expect(alarm.textContent).toContain('acknowledged by harbour-editor'))
    expect(calls.find((call) => call.path === '/web/alarmrecord/update')?.body).toEqual({
      id: 'alarm-1',
      state: 'acknowledged',
    })
    expect(within(alarm).queryByRole('button', { name: 'Acknowledge' })).toBeNull()
    expect(within(alarm).getByRole('button', { name: 'Clear alarm' })).toBeTruthy()
    // an editor of the project records inspections of it
    expect(within(alarm).getByRole('button', { name: 'Add inspection' })).toBeTruthy()
  })

  it('has the "fly to new alarms" switch, on by default', async () => {
    stubServer()
    await renderTab()
    const follow = screen.getByRole('checkbox', { name: 'Fly to new alarms' }) as HTMLInputElement
    expect(follow.checked).toBe(true)
    await userEvent.click(follow)
    expect(iotStore.isFollowingAlarms).toBe(false)
  })
})
