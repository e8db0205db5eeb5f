import { alarmStatusCodes, deviceStatusCodes } from '../contract/iot'

/**
 * The device simulator's pure parts (tools/devices-simulate.ts): its options, and a model of a
 * sensor whose readings drift like a real room's, with occasional alarms that clear again.
 */

/** What `npm run devices:simulate` is asked to do. */
export interface SimulationOptions {
  /** The server, e.g. http://127.0.0.1:3000. */
  url: string
  /** How the devices send: the HTTP device API, or MQTT through the server's broker. */
  transport: 'http' | 'mqtt'
  /** The broker (`mqtt://host:port`); unset: the one the server's /web/health names. */
  mqttUrl: string | undefined
  /** Device tokens given directly (`--tokens a,b` or `--tokens-file`). */
  tokens: string[]
  /** Or: a project whose POIs with device codes get devices (needs `user` and `password`). */
  project: string | undefined
  user: string | undefined
  password: string | undefined
  /** Give existing devices of the project new tokens (their old ones stop working). */
  rotate: boolean
  /** At most this many devices. */
  devices: number
  /** Telemetry messages per second over all devices. */
  rate: number
  /** Messages per HTTP request (batched ThingsBoard arrays), per device. */
  batch: number
  /** Stop after this many seconds (0: until interrupted). */
  durationSeconds: number
  /** Chance per message that a device raises an alarm (0..1). */
  alarmChance: number
  /** Send this status code once from every device and stop. */
  status: number | undefined
  /** Send these values once from every device and stop (`--values temperature=80,humidity=3`). */
  values: Record<string, number> | undefined
}

/** Reads `--name value` arguments; throws an Error with a usage line for anything wrong. */
export function parseSimulationArguments(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): SimulationOptions {
  const raw = new Map<string, string>()
  const flags = new Set<string>()
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!
    if (!argument.startsWith('--')) throw new Error(`Unexpected argument: ${argument}`)
    const name = argument.slice(2)
    if (name === 'rotate') {
      flags.add(name)
      continue
    }
    const value = argv[index + 1]
    if (value === undefined) throw new Error(`--${name} needs a value`)
    raw.set(name, value)
    index++
  }
  const known = [
    'url',
    'transport',
    'mqtt-url',
    'tokens',
    'project',
    'user',
    'password',
    'devices',
    'rate',
    'batch',
    'duration',
    'alarm-chance',
    'status',
    'values',
  ]
  for (const name of raw.keys()) {
    if (!known.includes(name)) throw new Error(`Unknown option --${name}`)
  }
  const number = (name: string, fallback: number, min: number, max: number) => {
    const text = raw.get(name)
    if (text === undefined) return fallback
    const value = Number(text)
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new Error(`--${name} must be a number from ${min} to ${max}`)
    }
    return value
  }
  const tokens = (raw.get('tokens') ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '')
  const project = raw.get('project')
  if (tokens.length === 0 && project === undefined) {
    throw new Error('Name devices: --tokens a,b,… or --project <id> --user <name> --password <pw>')
  }
  const statusText = raw.get('status')
  const status = statusText === undefined ? undefined : Number(statusText)
  if (status !== undefined && !(Object.values(deviceStatusCodes) as number[]).includes(status)) {
    throw new Error('--status must be a device status code: 0, 1, 2, 3, 11, 31 or 41')
  }
  const devices = number('devices', 10, 1, 100_000)
  const transport = raw.get('transport') ?? 'http'
  if (transport !== 'http' && transport !== 'mqtt') {
    throw new Error('--transport must be http or mqtt')
  }
  const mqttUrl = raw.get('mqtt-url')
  if (mqttUrl !== undefined && !/^mqtts?:\/\/[^/]+/.test(mqttUrl)) {
    throw new Error('--mqtt-url must be mqtt://host:port or mqtts://host:port')
  }
  if (mqttUrl !== undefined && transport !== 'mqtt') {
    throw new Error('--mqtt-url needs --transport mqtt')
  }
  return {
    url: (raw.get('url') ?? env.TWIN_URL ?? `http://127.0.0.1:${env.PORT ?? 3000}`).replace(
      /\/$/,
      '',
    ),
    transport,
    mqttUrl,
    tokens,
    project,
    user: raw.get('user') ?? env.TWIN_USER,
    password: raw.get('password') ?? env.TWIN_PASSWORD,
    rotate: flags.has('rotate'),
    devices,
    rate: number('rate', devices, 0.1, 1_000_000),
    batch: number('batch', 1, 1, 1000),
    durationSeconds: number('duration', 0, 0, 31_536_000),
    alarmChance: number('alarm-chance', 0.001, 0, 1),
    status,
    values: raw.has('values') ? parseValues(raw.get('values')!) : undefined,
  }
}

function parseValues(text: string): Record<string, number> {
  const values: Record<string, number> = {}
  for (const pair of text.split(',')) {
    const [key, value] = pair.split('=')
    const number = Number(value)
    if (!key || value === undefined || !Number.isFinite(number)) {
      throw new Error('--values is key=number,key=number')
    }
    values[key.trim()] = number
  }
  return values
}

/** A random source (tests pass a seeded one). */
export type Random = () => number

/** A small seeded generator (mulberry32), so a run can be repeated. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
  }
}

/**
 * One simulated sensor: temperature (°C) and humidity (%) drifting slowly around a set point
 * of its own, a status of 2 (normal); now and then an alarm code (3 fire alarm with the
 * temperature jumping, 11 fault, 31 abnormal, 41 hidden danger) held for a few messages, then
 * normal again.
 */
export class SimulatedSensor {
  private temperature: number
  private humidity: number
  private readonly baseTemperature: number
  private readonly baseHumidity: number
  private status: number = deviceStatusCodes.normal
  private alarmMessagesLeft = 0
  private hasReportedStatus = false

  constructor(
    private readonly random: Random,
    private readonly alarmChance: number,
  ) {
    this.baseTemperature = 18 + random() * 8
    this.baseHumidity = 35 + random() * 20
    this.temperature = this.baseTemperature
    this.humidity = this.baseHumidity
  }

  /** The next message's values; `status` only when it changes (and on the first message). */
  next(): Record<string, number> {
    const random = this.random
    // mean-reverting random walk: drifts, never runs away
    this.temperature += (this.baseTemperature - this.temperature) * 0.05 + (random() - 0.5) * 0.4
    this.humidity += (this.baseHumidity - this.humidity) * 0.05 + (random() - 0.5) * 1
    let status: number = deviceStatusCodes.normal
    if (this.alarmMessagesLeft > 0) {
      this.alarmMessagesLeft--
      status = this.alarmMessagesLeft > 0 ? this.status : deviceStatusCodes.normal
    } else if (random() < this.alarmChance) {
      status = alarmStatusCodes[Math.floor(random() * alarmStatusCodes.length)]!
      this.alarmMessagesLeft = 5 + Math.floor(random() * 20)
    }
    const values: Record<string, number> = {
      temperature: round(
        status === deviceStatusCodes.fireAlarm ? this.temperature + 45 : this.temperature,
      ),
      humidity: round(Math.min(100, Math.max(0, this.humidity))),
    }
    if (status !== this.status || !this.hasReportedStatus) values.status = status
    this.status = status
    this.hasReportedStatus = true
    return values
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}
