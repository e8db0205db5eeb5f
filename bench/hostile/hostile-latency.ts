/**
 * The latency part of the `hostile` benchmark (./hostile-bench.ts): the health client, the
 * flooding client's process (./hostile-flood.ts) and one round of health idle and under flood
 * against a server process, with what the server, the flooder and the health client each did
 * meanwhile (event-loop delay, collections, CPU split into user and kernel time, time waiting
 * for a core, connections), so that a slow health answer can be traced to where its time went.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { Agent } from 'node:http'
import { setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'
import { measure, percentile } from '../lib/stats'
import { type HostileRequest, send } from './hostile-requests'
import { type ProbeWindow, type RunQueue, readRunQueue, runQueueSince } from './server-probe'

const health: HostileRequest = { name: 'health', method: 'GET', path: '/web/health' }
const healthAddress = '127.0.0.1'
/** Pause between two health requests of the measuring client. */
export const healthGapMs = 5
/** Connections the flooding client sends over at once (`HOSTILE_FLOOD_CONNECTIONS`, default 1). */
export const floodConnections = Number(process.env.HOSTILE_FLOOD_CONNECTIONS) || 1

/** Health latencies until `isDone()` (and at least `minimum` samples). */
export async function measureHealth(
  port: number,
  isDone: () => boolean,
  minimum: number,
): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const samples: number[] = []
  while (samples.length < minimum || !isDone()) {
    const startedAtMs = performance.now()
    const status = await send(port, agent, health, healthAddress)
    if (status !== 200) throw new Error(`health answered ${status}`)
    samples.push(performance.now() - startedAtMs)
    await new Promise((resolve) => setTimeout(resolve, healthGapMs))
  }
  agent.destroy()
  return samples
}

/** Asks a server process something over IPC and waits for its answer of `answerType`. */
export function ask<Answer>(
  server: ChildProcess,
  type: string,
  answerType: string,
): Promise<Answer> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== answerType) return
      server.off('message', onMessage)
      resolve(message as Answer)
    }
    server.on('message', onMessage)
    server.send({ type })
  })
}

/** What the flooding client reports at its end. */
export interface FloodResult {
  statusCounts: Record<string, number>
  floodSeconds: number
  sent: number
  connections: number
  cpuMs: { user: number; system: number }
  scheduler: RunQueue | null
}

/**
 * Runs hostile requests from the flooding process until `count` are answered or `maxSeconds`
 * passed. `HOSTILE_FLOOD_NICE` (a diagnosis only, never a result) lowers its priority.
 */
export async function flood(
  port: number,
  count: number,
  maxSeconds: number,
  fromAddresses: string[],
  requestsPerAddress: number,
): Promise<FloodResult> {
  const flooder = fork(fileURLToPath(new URL('./hostile-flood.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  try {
    await new Promise((resolve) => flooder.once('message', resolve))
    if (process.env.HOSTILE_FLOOD_NICE && flooder.pid !== undefined) {
      setPriority(flooder.pid, Number(process.env.HOSTILE_FLOOD_NICE))
    }
    const done = new Promise<FloodResult>((resolve, reject) => {
      flooder.once('message', (message: { type: string; message?: string }) => {
        if (message.type === 'done') resolve(message as unknown as FloodResult)
        else reject(new Error(message.message))
      })
      flooder.once('exit', (code) => reject(new Error(`the flooding client exited (${code})`)))
    })
    flooder.send({
      type: 'flood',
      port,
      count,
      maxSeconds,
      addresses: fromAddresses,
      requestsPerAddress,
      connections: floodConnections,
    })
    return await done
  } finally {
    flooder.kill()
  }
}

/** One round of health idle and under a one-address flood against one server process. */
export interface LatencyRound {
  idleP99Ms: number
  floodP99Ms: number
  idleMedianMs: number
  floodMedianMs: number
  floodSeconds: number
  /** Hostile requests answered per second, and new connections the flooder opened per second. */
  floodRequestsPerSecond: number
  floodConnectionsPerSecond: number
  /** The server process while idle and while flooded. */
  serverIdle: ProbeWindow
  serverFlooded: ProbeWindow
  flooder: { cpuMs: FloodResult['cpuMs']; scheduler: RunQueue | null }
  /** The health client's own main thread during the flood: its time waiting for a core. */
  healthClientScheduler: RunQueue | null
  answers: Record<string, number>
}

const round2 = (value: number) => Math.round(value * 100) / 100

/** Health idle (`idleSamples`), then under a flood from `floodAddress`, against `server`. */
export async function latencyRound(
  server: ChildProcess,
  port: number,
  floodAddress: string,
  settings: { idleSamples: number; floodCount: number; floodMaxSeconds: number },
): Promise<LatencyRound> {
  await ask(server, 'probe-start', 'probe-started')
  const idleSamples = await measureHealth(port, () => true, settings.idleSamples)
  const serverIdle = (await ask<{ window: ProbeWindow }>(server, 'probe', 'probe')).window
  await ask(server, 'probe-start', 'probe-started')
  const healthClientBefore = readRunQueue()
  let isFlooding = true
  const flooding = flood(
    port,
    settings.floodCount,
    settings.floodMaxSeconds,
    [floodAddress],
    settings.floodCount,
  ).finally(() => {
    isFlooding = false
  })
  const floodSamples = await measureHealth(port, () => !isFlooding, 50)
  const result = await flooding
  const healthClientScheduler = runQueueSince(healthClientBefore, readRunQueue())
  const serverFlooded = (await ask<{ window: ProbeWindow }>(server, 'probe', 'probe')).window
  return {
    idleP99Ms: round2(percentile(idleSamples, 0.99)),
    floodP99Ms: round2(percentile(floodSamples, 0.99)),
    idleMedianMs: measure(idleSamples, '').median,
    floodMedianMs: measure(floodSamples, '').median,
    floodSeconds: round2(result.floodSeconds),
    floodRequestsPerSecond: Math.round(result.sent / result.floodSeconds),
    floodConnectionsPerSecond: Math.round(result.connections / result.floodSeconds),
    serverIdle,
    serverFlooded,
    flooder: { cpuMs: result.cpuMs, scheduler: result.scheduler },
    healthClientScheduler,
    answers: result.statusCounts,
  }
}
