import { z } from 'zod'
import { liveHeartbeatMs } from '../../../contract/iot-live'

/**
 * Retention of the time series and the per-device ingest rate (docs/configuration.md "IoT"),
 * read from the environment with the rest of the configuration.
 */
export interface IotSettings {
  /** Raw points are kept this long, then swept. */
  rawRetentionMs: number
  /** 1-minute aggregates are kept this long. */
  minuteRetentionMs: number
  /** 1-hour aggregates are kept this long. */
  hourRetentionMs: number
  /** Ingest requests one device may make per second, sustained. */
  deviceRequestsPerSecond: number
  /** … and at once after a quiet spell. */
  deviceRequestBurst: number
  /** How often a live stream writes a heartbeat and checks its reader's access again. */
  liveHeartbeatMs: number
}

const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `${name} must be from ${min} to ${max}`)
    .default(fallback)

/** The environment variables of these settings, merged into server/config.ts's schema. */
export const iotEnvironmentShape = {
  IOT_RAW_RETENTION_DAYS: wholeNumber('IOT_RAW_RETENTION_DAYS', 1, 3_650, 7),
  IOT_MINUTE_RETENTION_DAYS: wholeNumber('IOT_MINUTE_RETENTION_DAYS', 1, 3_650, 90),
  IOT_HOUR_RETENTION_DAYS: wholeNumber('IOT_HOUR_RETENTION_DAYS', 1, 36_500, 1_825),
  IOT_DEVICE_REQUESTS_PER_SECOND: wholeNumber('IOT_DEVICE_REQUESTS_PER_SECOND', 1, 100_000, 10),
  IOT_DEVICE_REQUEST_BURST: wholeNumber('IOT_DEVICE_REQUEST_BURST', 1, 1_000_000, 30),
  IOT_LIVE_HEARTBEAT_MS: wholeNumber('IOT_LIVE_HEARTBEAT_MS', 100, 600_000, liveHeartbeatMs),
}

const dayMs = 86_400_000

/** The settings from the parsed variables. */
export function iotSettingsOf(
  values: {
    [Name in keyof typeof iotEnvironmentShape]: number
  },
): IotSettings {
  return {
    rawRetentionMs: values.IOT_RAW_RETENTION_DAYS * dayMs,
    minuteRetentionMs: values.IOT_MINUTE_RETENTION_DAYS * dayMs,
    hourRetentionMs: values.IOT_HOUR_RETENTION_DAYS * dayMs,
    deviceRequestsPerSecond: values.IOT_DEVICE_REQUESTS_PER_SECOND,
    deviceRequestBurst: values.IOT_DEVICE_REQUEST_BURST,
    liveHeartbeatMs: values.IOT_LIVE_HEARTBEAT_MS,
  }
}
