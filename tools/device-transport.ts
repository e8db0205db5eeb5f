import { connectAsync, type MqttClient } from 'mqtt'
import type { Envelope } from '../contract/envelope'
import type { HealthDatum } from '../contract/system'

/**
 * How simulated devices reach the server (issue 17 item 10), as real devices do: ThingsBoard's
 * device HTTP API (`POST /api/v1/{token}/telemetry`), or MQTT through the broker the server
 * runs (user name = the device's token, topic `v1/devices/me/telemetry`, QoS 1), one
 * connection per device. Used by `npm run devices:simulate` and the IoT benchmarks.
 */

/** What became of one message: taken, refused (HTTP 429: the device's rate), or failed. */
export type SendOutcome = 'accepted' | 'refused' | 'failed'

/** The devices' way to the server. */
export interface DeviceTransport {
  readonly name: 'http' | 'mqtt'
  /**
   * Sends one body (a message or a batch of them) as device `index`. HTTP: resolves with the
   * server's answer. MQTT: resolves when the broker acknowledged it (PUBACK); MQTT 3.1.1 cannot
   * say whether the server then stored it.
   */
  send(index: number, body: unknown): Promise<SendOutcome>
  /** Disconnects (MQTT) and stops. */
  close(): Promise<void>
}

/** The ThingsBoard device telemetry topic. */
export const telemetryTopic = 'v1/devices/me/telemetry'

/** Devices posting over HTTP to `baseUrl` (e.g. http://127.0.0.1:8080). */
export function createHttpTransport(baseUrl: string, tokens: readonly string[]): DeviceTransport {
  return {
    name: 'http',
    async send(index, body) {
      const response = await fetch(`${baseUrl}/api/v1/${tokens[index]}/telemetry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      await response.arrayBuffer()
      if (response.status === 200) return 'accepted'
      return response.status === 429 ? 'refused' : 'failed'
    },
    async close() {},
  }
}

/** Connections opened at once, so 1,000 devices do not all knock in the same millisecond. */
const connectConcurrency = 50

/**
 * Devices connected to the broker at `mqttUrl`, one client per token. Fails (after closing the
 * ones that did connect) when the broker refuses a token or cannot be reached.
 */
export async function createMqttTransport(
  mqttUrl: string,
  tokens: readonly string[],
): Promise<DeviceTransport> {
  const clients: MqttClient[] = new Array(tokens.length)
  const closeAll = async () => {
    await Promise.all(
      clients.filter(Boolean).map((client) => client.endAsync(true).catch(() => undefined)),
    )
  }
  try {
    for (let start = 0; start < tokens.length; start += connectConcurrency) {
      await Promise.all(
        tokens.slice(start, start + connectConcurrency).map(async (token, offset) => {
          clients[start + offset] = await connectAsync(mqttUrl, {
            username: token,
            // a device that lost its connection shows up as failed messages, not as retries
            reconnectPeriod: 0,
            connectTimeout: 10_000,
          })
        }),
      )
    }
  } catch (error) {
    await closeAll()
    throw new Error(`MQTT: ${mqttUrl} refused a device or cannot be reached (${String(error)})`)
  }
  return {
    name: 'mqtt',
    async send(index, body) {
      const client = clients[index]
      if (!client?.connected) return 'failed'
      try {
        await client.publishAsync(telemetryTopic, JSON.stringify(body), { qos: 1 })
        return 'accepted'
      } catch {
        return 'failed'
      }
    },
    close: closeAll,
  }
}

/**
 * The broker address of the server at `baseUrl`, from its `/web/health` (the port it runs MQTT
 * on, the host devices reach the server by). Throws, saying why, when it runs no MQTT.
 */
export async function discoverMqttUrl(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/web/health`)
  const { datum } = (await response.json()) as Envelope<HealthDatum>
  const { mqtt, mqttPort, mqttReason } = datum.iot
  if (mqtt !== 'running' || mqttPort === null) {
    throw new Error(
      `the server's MQTT ingest is ${mqtt}${mqttReason ? ` (${mqttReason})` : ''}: use --transport http, or name a broker with --mqtt-url`,
    )
  }
  return `mqtt://${new URL(baseUrl).hostname}:${mqttPort}`
}
