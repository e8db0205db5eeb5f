import {
  type Alarm,
  type AlarmPage,
  type AlarmState,
  type Device,
  type DeviceTimeseries,
  type DeviceWithToken,
  iotRoutes,
  type ProvisionedDevices,
  type TimeseriesAggregation,
} from '../../contract/iot'
import { api } from './index'

export type {
  Alarm,
  AlarmPage,
  AlarmState,
  Device,
  DeviceTimeseries,
  DeviceWithToken,
  ProvisionedDevices,
} from '../../contract/iot'

/** `POST /web/iot/findDevices`: the project's devices. */
export async function findDevices(projectId: string): Promise<Device[]> {
  return (await api.call(iotRoutes.findDevices, { projectid: projectId })).datum
}

/** `POST /web/iot/provisionDevice`: a device for one POI; its token is answered once. */
export async function provisionDevice(poiId: string): Promise<DeviceWithToken> {
  return (await api.call(iotRoutes.provisionDevice, { poi_id: poiId })).datum
}

/** `POST /web/iot/provisionDevices`: devices for many POIs; their tokens are answered once. */
export async function provisionDevices(
  projectId: string,
  poiIds: readonly string[],
): Promise<ProvisionedDevices> {
  const body = { projectid: projectId, poi_ids: [...poiIds] }
  return (await api.call(iotRoutes.provisionDevices, body, { encoding: 'json' })).datum
}

/** `POST /web/iot/rotateDeviceToken`: a new token (the old one stops working), answered once. */
export async function rotateDeviceToken(deviceId: string): Promise<DeviceWithToken> {
  return (await api.call(iotRoutes.rotateDeviceToken, { id: deviceId })).datum
}

/** `POST /web/iot/revokeDeviceToken`: the device's ingest is refused until a rotation. */
export async function revokeDeviceToken(deviceId: string): Promise<Device> {
  return (await api.call(iotRoutes.revokeDeviceToken, { id: deviceId })).datum
}

/** `POST /web/poi/getDeviceTimeseries`: per key, its points or per-interval aggregates. */
export async function getDeviceTimeseries(query: {
  deviceId: string
  keys: readonly string[]
  startTs: number
  endTs: number
  intervalMs?: number
  agg: TimeseriesAggregation
  limit?: number
  signal?: AbortSignal
}): Promise<DeviceTimeseries> {
  const { datum } = await api.call(
    iotRoutes.getDeviceTimeseries,
    {
      device_id: query.deviceId,
      keys: [...query.keys],
      startTs: query.startTs,
      endTs: query.endTs,
      agg: query.agg,
      ...(query.intervalMs === undefined ? {} : { interval: query.intervalMs }),
      ...(query.limit === undefined ? {} : { limit: query.limit }),
    },
    { encoding: 'json', ...(query.signal ? { signal: query.signal } : {}) },
  )
  return datum
}

/** `POST /web/alarmrecord/find`: a page of the project's alarms, newest first. */
export async function findAlarms(
  projectId: string,
  filter: { state?: AlarmState | 'open'; pageSize?: number } = {},
): Promise<AlarmPage> {
  const body = {
    projectid: projectId,
    pageSize: filter.pageSize ?? 200,
    ...(filter.state === undefined ? {} : { state: filter.state }),
  }
  return (await api.call(iotRoutes.findAlarms, body)).datum
}

/**
 * `POST /web/alarmrecord/add`: raises `code` for a device as if it had reported it (the visit
 * tools' "simulate alarm"); the alarm then arrives through the live stream like a real one.
 */
export async function simulateAlarm(deviceId: string, code: number): Promise<Alarm> {
  return (await api.call(iotRoutes.addAlarm, { device_id: deviceId, code })).datum
}

/** `POST /web/alarmrecord/update`: acknowledges or clears an alarm. */
export async function updateAlarm(id: string, state: 'acknowledged' | 'cleared'): Promise<Alarm> {
  return (await api.call(iotRoutes.updateAlarm, { id, state })).datum
}
