/**
 * The devices of the `iot-latency` benchmark, in their own process (devices are other machines:
 * the server's and the browser's processes do only their own work). Started by
 * bench/iot-latency.ts with `fork`; it is told the tokens and the transport, connects, and on
 * `start` sends what `npm run devices:simulate` sends — realistic telemetry from every device
 * once a second, spread over the second (tools/device-simulation.ts, tools/device-transport.ts) —
 * plus the probes: every `probeIntervalMs` one of the probe devices goes into an alarm code or
 * back to normal. Each probe's send time (epoch ms with sub-millisecond precision, taken just
 * before the message leaves) is answered on `stop`, to be matched with when the page saw it.
 */
import { SimulatedSensor, seededRandom } from '../tools/device-simulation'
import {
  createHttpTransport,
  createMqttTransport,
  type DeviceTransport,
} from '../tools/device-transport'

/** What the benchmark tells this process. */
export interface LatencyDevicesConfig {
  transport: 'http' | 'mqtt'
  baseUrl: string
  mqttUrl: string
  tokens: string[]
  /** Indexes (into `tokens`) of the devices whose statuses are probed. */
  probeIndexes: number[]
  probeIntervalMs: number
  /** Share of the other messages that also flip the device between on (1) and normal (2). */
  flipShare: number
}

/** One probe: device `index` was told `code` at `sentAtMs` (performance.timeOrigin + now). */
export interface ProbeSend {
  index: number
  code: number
  sentAtMs: number
  outcome: string
}

/** Messages the devices send at once before they wait for answers. */
const maxInFlight = 512
const alarmCodes = [3, 11, 31, 41]

type Command =
  | { type: 'config'; config: LatencyDevicesConfig }
  | { type: 'start' }
  | { type: 'stop' }

const send = (message: object) => process.send?.(message)
let transport: DeviceTransport | undefined
let config: LatencyDevicesConfig | undefined
let isStopped = false
const probes: ProbeSend[] = []
const counts = { messages: 0, accepted: 0, refused: 0, failed: 0 }

const epochNowMs = () => performance.timeOrigin + performance.now()

async function runDevices(settings: LatencyDevicesConfig, way: DeviceTransport): Promise<void> {
  const random = seededRandom(17)
  const sensors = settings.tokens.map(() => new SimulatedSensor(random, 0))
  const isProbe = new Set(settings.probeIndexes)
  const flipped = new Set<number>()
  const deviceCount = settings.tokens.length
  const startedMs = performance.now()
  let sent = 0
  let inFlight = 0
  let nextProbeMs = startedMs + settings.probeIntervalMs
  let probeCount = 0
  const probeCodes = new Map<number, number>()
  const track = (outcome: Promise<string>) => {
    inFlight++
    counts.messages++
    void outcome
      .then((result) => {
        counts[result as 'accepted' | 'refused' | 'failed']++
      })
      .catch(() => {
        counts.failed++
      })
      .finally(() => {
        inFlight--
      })
  }
  while (!isStopped) {
    const nowMs = performance.now()
    // every device once a second, in turn: device i at i/N of each second
    const due = Math.floor(((nowMs - startedMs) / 1000) * deviceCount)
    while (sent < due && inFlight < maxInFlight) {
      const index = sent % deviceCount
      sent++
      const values = sensors[index]!.next()
      if (!isProbe.has(index) && sent > deviceCount && random() < settings.flipShare) {
        values.status = flipped.has(index) ? 2 : 1
        if (flipped.has(index)) flipped.delete(index)
        else flipped.add(index)
      }
      track(way.send(index, values))
    }
    // the probes start once every device has reported (its first message carries status 2)
    if (sent > deviceCount && nowMs >= nextProbeMs) {
      nextProbeMs += settings.probeIntervalMs
      const index = settings.probeIndexes[probeCount % settings.probeIndexes.length]!
      const isInAlarm = probeCodes.get(index) !== undefined
      const code = isInAlarm ? 2 : alarmCodes[probeCount % alarmCodes.length]!
      probeCount++
      if (isInAlarm) probeCodes.delete(index)
      else probeCodes.set(index, code)
      const probe: ProbeSend = { index, code, sentAtMs: epochNowMs(), outcome: 'pending' }
      probes.push(probe)
      const outcome = way.send(index, { status: code })
      track(outcome)
      void outcome.then((result) => {
        probe.outcome = result
      })
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  // what is still in flight is answered before the report
  const deadline = performance.now() + 10_000
  while (inFlight > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

let running: Promise<void> | undefined
process.on('message', (command: Command) => {
  void (async () => {
    try {
      if (command.type === 'config') {
        config = command.config
        transport =
          config.transport === 'mqtt'
            ? await createMqttTransport(config.mqttUrl, config.tokens)
            : createHttpTransport(config.baseUrl, config.tokens)
        send({ type: 'ready' })
      } else if (command.type === 'start') {
        running = runDevices(config!, transport!)
      } else {
        isStopped = true
        await running
        await transport?.close()
        send({ type: 'done', probes, counts })
        process.disconnect?.()
      }
    } catch (error) {
      send({ type: 'error', message: String(error) })
    }
  })()
})
