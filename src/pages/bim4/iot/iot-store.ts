import { proxy } from 'valtio'
import type { PoiStatusEntry } from '../../../../engine/api'
import { isAlarmStatusCode } from '../../../../contract/iot'
import type { Alarm, Device } from '../../../api/iot'
import * as iotApi from '../../../api/iot'
import type { LiveEvent, LiveStreamState } from '../../../api/iot-live'
import {
  dropInvestigation,
  investigationsStore,
  loadInvestigations,
  upsertInvestigation,
} from './investigations-store'

/** A device's newest values as the live stream reported them. */
export interface DeviceLatest {
  /** Epoch ms of the newest message. */
  ts: number
  values: Record<string, number>
}

/** What the IoT screens of the open project show (valtio; written only by this module). */
export interface IotState {
  projectId: string | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  loadError: unknown
  liveState: LiveStreamState
  devices: Device[]
  /** By device id. */
  latest: Record<string, DeviceLatest>
  /** Open alarms, and those changed while the page is open, newest first. */
  alarms: Alarm[]
  /** Linkage: a new alarm selects its POI in the scene and flies there. */
  isFollowingAlarms: boolean
}

/** The IoT state of the open project. */
export const iotStore = proxy<IotState>({
  projectId: null,
  status: 'idle',
  loadError: null,
  liveState: 'stopped',
  devices: [],
  latest: {},
  alarms: [],
  isFollowingAlarms: true,
})

/** Told of status changes for the scene: every status (`replace`) or the ones that changed. */
type StatusListener = (entries: PoiStatusEntry[], replace: boolean) => void
/** Told of an alarm raised while watching (not of ones loaded with the page). */
type AlarmListener = (alarm: Alarm) => void

const statusListeners = new Set<StatusListener>()
const alarmListeners = new Set<AlarmListener>()
const eventListeners = new Set<(event: LiveEvent) => void>()
let loadSequence = 0
/**
 * The devices of `iotStore.devices` (their proxies) by id. A live stream brings a message per
 * device per second; a scan of the proxied list for each was ~1 million proxy reads a second at
 * 1,000 devices, which held the page's thread and the status on screen back by ~400 ms.
 */
const devicesById = new Map<string, Device>()
let indexedList: Device[] | null = null
let indexedLength = 0

function indexDevices(): void {
  devicesById.clear()
  indexedList = iotStore.devices
  indexedLength = indexedList.length
  for (const device of indexedList) devicesById.set(device.id, device)
}

/** The device (its proxy) with this id; the index follows a list replaced or grown. */
function deviceOf(id: string): Device | undefined {
  if (iotStore.devices !== indexedList || iotStore.devices.length !== indexedLength) indexDevices()
  return devicesById.get(id)
}

/** Every linked POI's status, for a scene that (re)opens. */
export function poiStatusEntries(): PoiStatusEntry[] {
  return iotStore.devices
    .filter((device) => device.poi_id !== '' && device.status !== null)
    .map((device) => ({ poiId: device.poi_id, code: device.status }))
}

/** Listens to status changes; returns the function that stops listening. */
export function onPoiStatuses(listener: StatusListener): () => void {
  statusListeners.add(listener)
  return () => statusListeners.delete(listener)
}

/** Listens to alarms raised live; returns the function that stops listening. */
export function onAlarmRaised(listener: AlarmListener): () => void {
  alarmListeners.add(listener)
  return () => alarmListeners.delete(listener)
}

/**
 * Listens to every event of the live stream, for the screens of other areas that ride on it
 * (the city's location POIs and fences, issue 18); returns the function that stops listening.
 */
export function onLiveEvent(listener: (event: LiveEvent) => void): () => void {
  eventListeners.add(listener)
  return () => eventListeners.delete(listener)
}

/** Loads the project's devices and open alarms (again after a `reset` of the stream). */
export async function loadIot(projectId: string): Promise<void> {
  const sequence = ++loadSequence
  if (iotStore.projectId !== projectId) {
    iotStore.devices = []
    iotStore.latest = {}
    iotStore.alarms = []
  }
  iotStore.projectId = projectId
  iotStore.status = 'loading'
  try {
    const [devices, alarms] = await Promise.all([
      iotApi.findDevices(projectId),
      iotApi.findAlarms(projectId, { state: 'open' }),
    ])
    if (sequence !== loadSequence) return
    iotStore.devices = devices
    iotStore.alarms = alarms.list
    iotStore.status = 'ready'
    iotStore.loadError = null
    const entries = poiStatusEntries()
    for (const listener of statusListeners) listener(entries, true)
  } catch (error) {
    if (sequence !== loadSequence) return
    iotStore.status = 'error'
    iotStore.loadError = error
  }
}

/** Forgets the project (the editor closed it). */
export function resetIot(): void {
  loadSequence++
  iotStore.projectId = null
  iotStore.status = 'idle'
  iotStore.devices = []
  iotStore.latest = {}
  iotStore.alarms = []
  iotStore.liveState = 'stopped'
}

/** Puts a device in the list (provisioned, rotated, revoked). */
export function upsertDevice(device: Device): void {
  const index = iotStore.devices.findIndex((candidate) => candidate.id === device.id)
  if (index >= 0) iotStore.devices[index] = device
  else iotStore.devices.push(device)
  indexDevices()
}

/** Puts an alarm in the list, newest first. */
export function upsertAlarm(alarm: Alarm): void {
  const index = iotStore.alarms.findIndex((candidate) => candidate.id === alarm.id)
  if (index >= 0) iotStore.alarms[index] = alarm
  else iotStore.alarms.unshift(alarm)
}

/** Applies one event of the live stream. */
export function applyLiveEvent(event: LiveEvent): void {
  for (const listener of eventListeners) listener(event)
  switch (event.type) {
    case 'telemetry': {
      const previous = iotStore.latest[event.device_id]
      iotStore.latest[event.device_id] = {
        ts: Math.max(previous?.ts ?? 0, event.ts),
        values: { ...previous?.values, ...event.values },
      }
      const device = deviceOf(event.device_id)
      if (device) device.last_seen_at = new Date().toISOString()
      return
    }
    case 'status': {
      const device = deviceOf(event.device_id)
      if (device) {
        device.status = event.status
        device.status_at = event.at
      }
      if (event.poi_id !== '') {
        for (const listener of statusListeners) {
          listener([{ poiId: event.poi_id, code: event.status }], false)
        }
      }
      return
    }
    case 'alarm': {
      const isNew = !iotStore.alarms.some((alarm) => alarm.id === event.alarm.id)
      upsertAlarm(event.alarm)
      if (isNew && event.alarm.state === 'active' && isAlarmStatusCode(event.alarm.code)) {
        for (const listener of alarmListeners) listener(event.alarm)
      }
      return
    }
    case 'alarmDeleted':
      iotStore.alarms = iotStore.alarms.filter((alarm) => alarm.id !== event.id)
      return
    // inspections: only into a list this project's screens loaded (they load it when shown)
    case 'investigation': {
      const record = event.investigation
      if (investigationsStore.projectId !== record.projectid) return
      const known = investigationsStore.list.find((candidate) => candidate.id === record.id)
      // two quick changes may be told out of order: an older version never replaces a newer
      if (known === undefined || known.updated_at <= record.updated_at) upsertInvestigation(record)
      return
    }
    case 'investigationDeleted':
      dropInvestigation(event.id)
      return
    case 'reset':
      if (iotStore.projectId === null) return
      void loadIot(iotStore.projectId)
      if (investigationsStore.projectId === iotStore.projectId) {
        loadInvestigations(iotStore.projectId).catch(() => undefined)
      }
      return
    case 'closed':
    // the location POIs' events are for their own screens (onLiveEvent)
    case 'positioned':
    case 'positionedDeleted':
    case 'fenceEvent':
    case 'fences':
      return
  }
}
