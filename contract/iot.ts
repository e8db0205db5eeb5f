import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { formInteger, formList } from './form-fields'
import { webRoute } from './route'

/**
 * The live twin's server core (issue 17; SPEC §3 "Device status codes", "alarm record", §7
 * `/alarmrecord/*`, `/poi/getDeviceTimeseries`; decisions.md "IoT and embedded products").
 *
 * Devices: a registry per project. A device is provisioned from a POI and takes its
 * `devicecode` (unique per project); its access token is answered once, at provisioning or
 * rotation, and only its SHA-256 is kept. A revoked token stops ingest at once.
 *
 * Ingest (not /web/, no user token): ThingsBoard's device HTTP API shapes, so gateways can point
 * at the product — `POST /api/v1/{token}/telemetry` with `{"key": number}`, `{ts, values}` or an
 * array of those, and `POST /api/v1/{token}/attributes` with `{"key": any JSON}`. Telemetry
 * values are numbers (booleans count as 1 and 0); text and JSON go to attributes. The limits are
 * {@link iotLimits}. A `status` key (telemetry or attribute) with a {@link deviceStatusCodes}
 * code sets the device's and its POI's status; an alarm code raises an alarm record.
 *
 * Time series: raw points are kept `IOT_RAW_RETENTION_DAYS`, 1-minute and 1-hour aggregates
 * (count, sum, min, max) longer; `getDeviceTimeseries` answers aggregates from them.
 */

// ---------------------------------------------------------------------------------------------
// constants

/** SPEC §3: the device status codes. */
export const deviceStatusCodes = {
  off: 0,
  on: 1,
  normal: 2,
  fireAlarm: 3,
  fault: 11,
  abnormal: 31,
  hiddenDanger: 41,
} as const
export type DeviceStatusName = keyof typeof deviceStatusCodes
export type DeviceStatusCode = (typeof deviceStatusCodes)[DeviceStatusName]

/** Every status code, in SPEC order. */
export const deviceStatusCodeList: readonly DeviceStatusCode[] = Object.values(deviceStatusCodes)

/** Codes that raise an alarm record (fire alarm, fault, abnormal, hidden danger). */
export const alarmStatusCodes: readonly DeviceStatusCode[] = [3, 11, 31, 41]

/** True when `value` is one of the SPEC's status codes. */
export function isDeviceStatusCode(value: unknown): value is DeviceStatusCode {
  return typeof value === 'number' && (deviceStatusCodeList as readonly number[]).includes(value)
}

/** True when a status code raises an alarm. */
export function isAlarmStatusCode(code: number): boolean {
  return (alarmStatusCodes as readonly number[]).includes(code)
}

/** The telemetry or attribute key carrying a device's status code. */
export const statusKey = 'status'

/** Limits of ingest and queries (named in the refusals). */
export const iotLimits = {
  /** Largest body of one ingest request. */
  maxBodyBytes: 256 * 1024,
  /** Keys in one message (`values` object, or a flat object, or an attributes object). */
  maxKeysPerMessage: 100,
  /** Messages (`{ts, values}`) in one telemetry array. */
  maxMessagesPerRequest: 1000,
  /** Points (key-value pairs) in one telemetry request, over all its messages. */
  maxPointsPerRequest: 10_000,
  keyMaxLength: 64,
  /** An attribute value's JSON text. */
  attributeMaxJsonLength: 4096,
  /** A point's time may be at most this far ahead of the server's clock. */
  maxFutureSkewMs: 24 * 3_600_000,
  /** POIs one bulk provisioning takes. */
  maxProvisionItems: 10_000,
  nameMaxLength: 100,
  typeMaxLength: 64,
  noteMaxLength: 1000,
  /** Keys one time-series query takes. */
  maxQueryKeys: 20,
  /** Points (agg NONE) or buckets one time-series query answers per key. */
  maxQueryLimit: 50_000,
  pageSizeMax: 500,
} as const

/** Aggregations of `getDeviceTimeseries` (ThingsBoard's names). */
export const timeseriesAggregations = ['AVG', 'MIN', 'MAX', 'SUM', 'COUNT', 'NONE'] as const
export type TimeseriesAggregation = (typeof timeseriesAggregations)[number]

/** An alarm record's lifecycle: active → acknowledged → cleared (cleared straight from active too). */
export const alarmStates = ['active', 'acknowledged', 'cleared'] as const
export type AlarmState = (typeof alarmStates)[number]

// ---------------------------------------------------------------------------------------------
// records

/** A device of the registry (never with its token). */
export const deviceSchema = z.object({
  id: z.string(),
  projectid: z.string(),
  /** The POI it was provisioned from ('' when that POI is gone). */
  poi_id: z.string(),
  devicecode: z.string(),
  name: z.string(),
  type: z.string(),
  /** The access token's last 4 characters ('' once revoked). */
  token_hint: z.string(),
  token_issued_at: timestampSchema,
  is_revoked: z.boolean(),
  /** The last status code (SPEC §3), null before the first. */
  status: z.number().int().nullable(),
  status_at: timestampSchema.nullable(),
  last_seen_at: timestampSchema.nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type Device = z.infer<typeof deviceSchema>

/** A device with its access token: answered once, when the token is made. */
export const deviceWithTokenSchema = z.object({
  device: deviceSchema,
  /** Send as the path part of `/api/v1/{token}/telemetry`; not shown again. */
  token: z.string(),
})
export type DeviceWithToken = z.infer<typeof deviceWithTokenSchema>

/** An alarm record. `acknowledged_by`, `cleared_by` are user names ('' for none). */
export const alarmSchema = z.object({
  id: z.string(),
  projectid: z.string(),
  device_id: z.string(),
  poi_id: z.string(),
  devicecode: z.string(),
  code: z.number().int(),
  state: z.enum(alarmStates),
  source: z.enum(['device', 'manual']),
  /** How often the code was reported while the record was uncleared (deduplicated). */
  count: z.number().int(),
  note: z.string(),
  raised_at: timestampSchema,
  last_raised_at: timestampSchema,
  acknowledged_at: timestampSchema.nullable(),
  acknowledged_by: z.string(),
  cleared_at: timestampSchema.nullable(),
  cleared_by: z.string(),
  updated_at: timestampSchema,
})
export type Alarm = z.infer<typeof alarmSchema>

// ---------------------------------------------------------------------------------------------
// inputs

const projectTokenField = { project_token: z.string().max(100).optional() }
const deviceNameSchema = z.string().trim().min(1).max(iotLimits.nameMaxLength)
const deviceTypeSchema = z.string().trim().max(iotLimits.typeMaxLength)

/** `/iot/provisionDevice`: a device for one POI (its device code); answers the token once. */
export const provisionDeviceBodySchema = z.object({
  poi_id: recordIdSchema,
  /** Defaults to the POI's name. */
  name: deviceNameSchema.optional(),
  /** Defaults to the POI's template code. */
  type: deviceTypeSchema.optional(),
})

/**
 * `/iot/provisionDevices`: devices for many POIs of one project, all in one transaction. POIs
 * that already have a device, or no device code, are skipped and listed with the reason.
 */
export const provisionDevicesBodySchema = z.object({
  projectid: recordIdSchema,
  poi_ids: z.array(recordIdSchema).min(1).max(iotLimits.maxProvisionItems),
})

/** Why a POI of a bulk provisioning got no device. */
export const provisionSkipReasons = ['hasDevice', 'noDevicecode'] as const

/** The answer of `provisionDevices`: each new device with its token (shown once). */
export const provisionedDevicesDatumSchema = z.object({
  count: z.number().int(),
  list: z.array(deviceWithTokenSchema),
  skipped: z.array(z.object({ poi_id: z.string(), reason: z.enum(provisionSkipReasons) })),
})
export type ProvisionedDevices = z.infer<typeof provisionedDevicesDatumSchema>

/** `/iot/findDevices`: a project's devices (readers: user token or project token). */
export const findDevicesBodySchema = z.object({ projectid: recordIdSchema, ...projectTokenField })

/** Calls that name one device. */
export const deviceIdBodySchema = z.object({ id: recordIdSchema })

/**
 * `/poi/getDeviceTimeseries`: a device's keys over `[startTs, endTs)` (epoch ms). The device is
 * named by its `device_id`, or its POI (`id`), or `projectid` + `devicecode`. With `agg` NONE
 * the raw points (at most `limit` per key, oldest first); otherwise one aggregate per `interval`
 * ms bucket, buckets aligned to multiples of `interval` since the epoch and `ts` the bucket's
 * start, answered from the 1-hour or 1-minute rollups when `interval` is a multiple of them.
 * The answer is ThingsBoard's: `{ key: [{ ts, value }] }`.
 */
export const deviceTimeseriesBodySchema = z.object({
  device_id: recordIdSchema.optional(),
  /** The POI the device was provisioned from. */
  id: recordIdSchema.optional(),
  projectid: recordIdSchema.optional(),
  devicecode: z.string().trim().min(1).max(100).optional(),
  ...projectTokenField,
  /** Comma-separated text (ThingsBoard) or a list. */
  keys: z
    .union([
      z.string().transform((text) =>
        text
          .split(',')
          .map((key) => key.trim())
          .filter((key) => key !== ''),
      ),
      formList(z.string().trim().min(1).max(iotLimits.keyMaxLength)),
    ])
    .pipe(
      z.array(z.string().min(1).max(iotLimits.keyMaxLength)).min(1).max(iotLimits.maxQueryKeys),
    ),
  startTs: formInteger({ min: 0, max: 8_640_000_000_000_000 }),
  endTs: formInteger({ min: 0, max: 8_640_000_000_000_000 }),
  /** Bucket width in ms (agg other than NONE); at least 1000. */
  interval: formInteger({ min: 1000, max: 366 * 24 * 3_600_000 }).optional(),
  agg: z.enum(timeseriesAggregations).default('NONE'),
  limit: formInteger({ min: 1, max: iotLimits.maxQueryLimit }).default(100),
})

/** One value of a series: the point's (or bucket's start) time in ms and the value. */
export const timeseriesPointSchema = z.object({ ts: z.number(), value: z.number() })

/** `getDeviceTimeseries`: per key, its points in time order (a key without points: []). */
export const deviceTimeseriesDatumSchema = z.record(z.string(), z.array(timeseriesPointSchema))
export type DeviceTimeseries = z.infer<typeof deviceTimeseriesDatumSchema>

/**
 * `/alarmrecord/add` (editors; the "simulate alarm" of the visit tools): reports `code` for a
 * device (by `device_id` or its POI `poi_id`) as the device would: its status is set, and an
 * uncleared record of the same device and code is counted rather than doubled.
 */
export const addAlarmBodySchema = z.object({
  device_id: recordIdSchema.optional(),
  poi_id: recordIdSchema.optional(),
  code: formInteger().refine((code) => alarmStatusCodes.includes(code as DeviceStatusCode), {
    message: 'alarm.notAlarmCode',
  }),
  note: z.string().max(iotLimits.noteMaxLength).default(''),
})

/** `/alarmrecord/update`: acknowledges or clears an alarm (who and when are recorded). */
export const updateAlarmBodySchema = z.object({
  id: recordIdSchema,
  state: z.enum(['acknowledged', 'cleared']),
  note: z.string().max(iotLimits.noteMaxLength).optional(),
})

/** `/alarmrecord/del`: deletes an alarm record. */
export const alarmIdBodySchema = z.object({ id: recordIdSchema })

/** `/alarmrecord/find`: a page of a project's alarms, newest first, filtered. */
export const findAlarmsBodySchema = z.object({
  projectid: recordIdSchema,
  ...projectTokenField,
  /** Filters (combined with and). `open` means active or acknowledged. */
  state: z.enum([...alarmStates, 'open']).optional(),
  code: formInteger().optional(),
  device_id: recordIdSchema.optional(),
  poi_id: recordIdSchema.optional(),
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: iotLimits.pageSizeMax }).default(20),
})

/** The answer of `/alarmrecord/find`. */
export const alarmPageSchema = z.object({
  list: z.array(alarmSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
export type AlarmPage = z.infer<typeof alarmPageSchema>

/** What an ingest request stored. */
export const ingestDatumSchema = z.object({ count: z.number().int() })

// ---------------------------------------------------------------------------------------------
// the calls

/** The /web/ routes of devices, time series and alarms, all POST. */
export const iotRoutes = {
  provisionDevice: webRoute({
    method: 'POST',
    path: '/web/iot/provisionDevice',
    auth: 'editor',
    summary: 'Provision a device for a POI (its device code); answers the token once',
    body: provisionDeviceBodySchema,
    datum: deviceWithTokenSchema,
  }),
  provisionDevices: webRoute({
    method: 'POST',
    path: '/web/iot/provisionDevices',
    auth: 'editor',
    summary: 'Provision devices for many POIs of a project; answers their tokens once',
    body: provisionDevicesBodySchema,
    datum: provisionedDevicesDatumSchema,
  }),
  findDevices: webRoute({
    method: 'POST',
    path: '/web/iot/findDevices',
    auth: 'public',
    summary: "A project's devices (user token or project token)",
    body: findDevicesBodySchema,
    datum: z.array(deviceSchema),
  }),
  rotateDeviceToken: webRoute({
    method: 'POST',
    path: '/web/iot/rotateDeviceToken',
    auth: 'editor',
    summary: "Replace a device's access token (the old one stops working); answers it once",
    body: deviceIdBodySchema,
    datum: deviceWithTokenSchema,
  }),
  revokeDeviceToken: webRoute({
    method: 'POST',
    path: '/web/iot/revokeDeviceToken',
    auth: 'editor',
    summary: "Revoke a device's access token (its ingest is refused until rotated)",
    body: deviceIdBodySchema,
    datum: deviceSchema,
  }),
  getDeviceTimeseries: webRoute({
    method: 'POST',
    path: '/web/poi/getDeviceTimeseries',
    auth: 'public',
    summary: "A device's time series: raw points or aggregates per interval",
    tags: ['iot'],
    body: deviceTimeseriesBodySchema,
    datum: deviceTimeseriesDatumSchema,
  }),
  addAlarm: webRoute({
    method: 'POST',
    path: '/web/alarmrecord/add',
    auth: 'editor',
    summary: 'Raise an alarm for a device as if it reported the code (simulate alarm)',
    body: addAlarmBodySchema,
    datum: alarmSchema,
  }),
  updateAlarm: webRoute({
    method: 'POST',
    path: '/web/alarmrecord/update',
    auth: 'editor',
    summary: 'Acknowledge or clear an alarm',
    body: updateAlarmBodySchema,
    datum: alarmSchema,
  }),
  deleteAlarm: webRoute({
    method: 'POST',
    path: '/web/alarmrecord/del',
    auth: 'editor',
    summary: 'Delete an alarm record',
    body: alarmIdBodySchema,
    datum: z.object({ deleted: z.number().int() }),
  }),
  findAlarms: webRoute({
    method: 'POST',
    path: '/web/alarmrecord/find',
    auth: 'public',
    summary: "A page of a project's alarm records, newest first",
    body: findAlarmsBodySchema,
    datum: alarmPageSchema,
  }),
}

/** The name of one of this area's routes. */
export type IotCallName = keyof typeof iotRoutes
