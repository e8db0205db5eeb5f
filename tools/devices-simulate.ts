/**
 * `npm run devices:simulate -- --project <id> --user <name> --password <pw> --devices 100 --rate 50`
 * `npm run devices:simulate -- --tokens <token>,<token> --values temperature=80 --status 3`
 * `npm run devices:simulate -- --transport mqtt --tokens <token> --rate 1`
 *
 * The device simulator (issue 17 item 10): sends realistic telemetry (tools/device-simulation.ts)
 * as ThingsBoard devices do, through the real device HTTP API, `POST /api/v1/{token}/telemetry`,
 * or with `--transport mqtt` through the server's broker, one connection per device with its
 * token as user name (tools/device-transport.ts; the broker is the one /web/health names, or
 * `--mqtt-url`). Over MQTT a message counts when the broker acknowledged it.
 * Devices are named by their tokens, or by a project: its POIs with a device code and no device
 * are provisioned (the new tokens are printed once), and with `--rotate` the existing devices get
 * new tokens. `--status` / `--values` send one message from every device and stop; otherwise it
 * runs at `--rate` messages per second for `--duration` seconds (0: until Ctrl-C), `--batch`
 * messages per request, and prints a line of counts every second.
 * Options: --url (default TWIN_URL or http://127.0.0.1:$PORT), --alarm-chance (per message).
 */
import type { Device, DeviceWithToken, ProvisionedDevices } from '../contract/iot'
import { iotRoutes } from '../contract/iot'
import type { PoiPage } from '../contract/pois'
import { poiRoutes } from '../contract/pois'
import {
  parseSimulationArguments,
  type SimulationOptions,
  SimulatedSensor,
  seededRandom,
} from './device-simulation'
import {
  createHttpTransport,
  createMqttTransport,
  type DeviceTransport,
  discoverMqttUrl,
} from './device-transport'

interface Envelope<Datum> {
  code: string
  message: string
  datum: Datum
}

async function callWeb<Datum>(
  options: SimulationOptions,
  path: string,
  body: unknown,
  token?: string,
): Promise<Datum> {
  const response = await fetch(`${options.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  })
  const envelope = (await response.json()) as Envelope<Datum>
  if (envelope.code !== '0') throw new Error(`${path}: ${envelope.message}`)
  return envelope.datum
}

/** The tokens of the project's devices: new devices for its POIs with codes, rotated ones. */
async function projectTokens(options: SimulationOptions, projectId: string): Promise<string[]> {
  if (!options.user || !options.password) {
    throw new Error('--project needs --user and --password (or TWIN_USER and TWIN_PASSWORD)')
  }
  const session = await callWeb<{ token: string }>(options, '/web/login', {
    name: options.user,
    password: options.password,
  })
  const poiIds: string[] = []
  for (let pageNo = 1; poiIds.length < options.devices; pageNo++) {
    const page = await callWeb<PoiPage>(
      options,
      `${poiRoutes.findPoi.path}?pageNo=${pageNo}&pageSize=500`,
      { projectid: projectId },
      session.token,
    )
    for (const poi of page.list) if (poi.devicecode) poiIds.push(poi.id)
    if (page.list.length < 500) break
  }
  const tokens: string[] = []
  if (poiIds.length > 0) {
    const made = await callWeb<ProvisionedDevices>(
      options,
      iotRoutes.provisionDevices.path,
      { projectid: projectId, poi_ids: poiIds.slice(0, options.devices) },
      session.token,
    )
    for (const entry of made.list) {
      console.log(`provisioned ${entry.device.devicecode}: token ${entry.token}`)
      tokens.push(entry.token)
    }
  }
  if (options.rotate && tokens.length < options.devices) {
    const devices = await callWeb<Device[]>(
      options,
      iotRoutes.findDevices.path,
      { projectid: projectId },
      session.token,
    )
    const fresh = new Set(tokens)
    for (const device of devices) {
      if (tokens.length >= options.devices) break
      const rotated = await callWeb<DeviceWithToken>(
        options,
        iotRoutes.rotateDeviceToken.path,
        { id: device.id },
        session.token,
      )
      if (fresh.has(rotated.token)) continue
      console.log(`rotated ${device.devicecode}: token ${rotated.token}`)
      tokens.push(rotated.token)
    }
  }
  if (tokens.length === 0) {
    throw new Error(
      'The project has no POI with a device code and no device; give its POIs device codes, or pass --rotate to give existing devices new tokens.',
    )
  }
  return tokens
}

async function openTransport(
  options: SimulationOptions,
  tokens: readonly string[],
): Promise<DeviceTransport> {
  if (options.transport === 'http') return createHttpTransport(options.url, tokens)
  return createMqttTransport(options.mqttUrl ?? (await discoverMqttUrl(options.url)), tokens)
}

async function main() {
  const options = parseSimulationArguments(process.argv.slice(2), process.env)
  const tokens = (
    options.project === undefined ? options.tokens : await projectTokens(options, options.project)
  ).slice(0, options.devices)
  const random = seededRandom(Date.now())
  const sensors = tokens.map(() => new SimulatedSensor(random, options.alarmChance))
  const transport = await openTransport(options, tokens)
  try {
    await simulate(options, tokens, sensors, transport)
  } finally {
    await transport.close()
  }
}

async function simulate(
  options: SimulationOptions,
  tokens: readonly string[],
  sensors: readonly SimulatedSensor[],
  transport: DeviceTransport,
) {
  if (options.status !== undefined || options.values !== undefined) {
    const outcomes = await Promise.all(
      tokens.map((_, index) =>
        transport.send(index, {
          ...(options.values ?? {}),
          ...(options.status === undefined ? {} : { status: options.status }),
        }),
      ),
    )
    // HTTP answers as the server did (200, 429 …); MQTT as the broker did
    const statuses = outcomes.map((outcome) =>
      outcome === 'accepted' ? 200 : outcome === 'refused' ? 429 : 0,
    )
    console.log(JSON.stringify({ sent: tokens.length, transport: transport.name, statuses }))
    if (outcomes.some((outcome) => outcome !== 'accepted')) process.exitCode = 1
    return
  }

  // Each tick sends the messages due since the start, spread over the devices in turn.
  const startedMs = Date.now()
  const counts = { messages: 0, requests: 0, refused: 0, failed: 0 }
  let sentMessages = 0
  let next = 0
  let inFlight = 0
  const report = setInterval(() => {
    console.log(JSON.stringify({ seconds: Math.round((Date.now() - startedMs) / 1000), ...counts }))
  }, 1000)
  const stopAt = options.durationSeconds > 0 ? startedMs + options.durationSeconds * 1000 : Infinity
  while (Date.now() < stopAt) {
    const due = Math.floor(((Date.now() - startedMs) / 1000) * options.rate)
    while (sentMessages < due && inFlight < 256) {
      const index = next
      next = (next + 1) % tokens.length
      const nowMs = Date.now()
      const messages = Array.from({ length: options.batch }, (_, offset) => ({
        ts: nowMs - (options.batch - 1 - offset),
        values: sensors[index]!.next(),
      }))
      sentMessages += options.batch
      inFlight++
      void transport
        .send(index, options.batch === 1 ? messages[0] : messages)
        .then((outcome) => {
          counts.requests++
          if (outcome === 'accepted') counts.messages += options.batch
          else if (outcome === 'refused') counts.refused++
          else counts.failed++
        })
        .catch(() => {
          counts.failed++
        })
        .finally(() => {
          inFlight--
        })
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  clearInterval(report)
  console.log(JSON.stringify({ done: true, ...counts }))
}

main().catch((error: unknown) => {
  console.error(`devices:simulate: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 2
})
