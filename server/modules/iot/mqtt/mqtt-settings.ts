import { z } from 'zod'

/**
 * MQTT ingest through a local mosquitto (issue 17, docs/configuration.md "IoT"): whether the
 * server starts the broker, where it listens, and which mosquitto to run.
 */
export interface MqttSettings {
  /** `auto`: start mosquitto when it is installed, else run HTTP-only; `on`: refuse to start without it; `off`: never. */
  mode: 'auto' | 'on' | 'off'
  /** Port devices connect to; 0 picks a free one (tests). */
  port: number
  /** Address the broker listens on (HOST when unset). */
  host: string | undefined
  /** The mosquitto executable (found on PATH or in /usr/sbin when unset). */
  brokerPath: string | undefined
}

/** The environment variables of these settings, merged into server/config.ts's schema. */
export const mqttEnvironmentShape = {
  MQTT: z.enum(['auto', 'on', 'off']).default('auto'),
  MQTT_PORT: z
    .string()
    .regex(/^\d+$/, 'MQTT_PORT must be a port number from 0 to 65535')
    .transform(Number)
    .refine((value) => value <= 65_535, 'MQTT_PORT must be a port number from 0 to 65535')
    .default(1883),
  MQTT_HOST: z.string().min(1).optional(),
  MQTT_BROKER: z.string().min(1).optional(),
}

/** The settings from the parsed variables. */
export function mqttSettingsOf(values: {
  MQTT: MqttSettings['mode']
  MQTT_PORT: number
  MQTT_HOST?: string | undefined
  MQTT_BROKER?: string | undefined
}): MqttSettings {
  return {
    mode: values.MQTT,
    port: values.MQTT_PORT,
    host: values.MQTT_HOST,
    brokerPath: values.MQTT_BROKER,
  }
}
