/**
 * Hostile bodies (issue 13, classes 1 and 10): how prompt `/web/health` stays while clients
 * flood the server with the bodies that used to stall it, and whether the server keeps the
 * memory those requests passed through.
 *
 * The server runs in its own process (./hostile-server.ts, the real app on SQLite, loopback
 * only). One client asks for /web/health over its own keep-alive connection, one request at a
 * time, first with the server idle (the anchor), then while another client (its own process,
 * ./hostile-flood.ts) sends 10,000 hostile requests in all: JSON nested 9,000 levels, 60,000 keys, 99,000 values, a value nested
 * right to the limit, form bodies with a 5,000-level key or 900,000 '&', cut-short multipart,
 * a body over the size limit, an address full of nested query keys. Each hostile request waits
 * for its answer (any 5xx fails the run). Goals from the issue: health p99 under the flood
 * ≤ 2 × the idle p99, and server RSS after the 10,000 requests ≤ 1.10 × before.
 *
 *   npm run bench -- hostile        (HOSTILE_REQUESTS=2000 for a quick check of the harness)
 *
 * Writes bench/results/hostile.json.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { Agent } from 'node:http'
import { fileURLToPath } from 'node:url'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from '../lib/stats'
import { type HostileRequest, hostileRequests, send } from './hostile-requests'

const hostileRequestCount = Number(process.env.HOSTILE_REQUESTS) || 10_000
/** One flooding client, as in the issue ("while one client floods such bodies"). */
const floodConnections = Number(process.env.HOSTILE_CONNECTIONS) || 1
const idleHealthSamples = 300
/** Pause between two health requests of the measuring client. */
const healthGapMs = 5

const health: HostileRequest = { name: 'health', method: 'GET', path: '/web/health' }

/** Health latencies until `isDone()` (and at least `minimum` samples). */
async function measureHealth(
  port: number,
  isDone: () => boolean,
  minimum: number,
): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const samples: number[] = []
  while (samples.length < minimum || !isDone()) {
    const startedAtMs = performance.now()
    const status = await send(port, agent, health)
    if (status !== 200) throw new Error(`health answered ${status}`)
    samples.push(performance.now() - startedAtMs)
    await new Promise((resolve) => setTimeout(resolve, healthGapMs))
  }
  agent.destroy()
  return samples
}

function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN
}

interface ServerMemory {
  rss: number
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
}

function askMemory(server: ChildProcess, type: 'memory' | 'gc'): Promise<ServerMemory> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string; memory?: ServerMemory }) => {
      if (message.type !== 'memory' || message.memory === undefined) return
      server.off('message', onMessage)
      resolve(message.memory)
    }
    server.on('message', onMessage)
    server.send({ type })
  })
}

/** CPU time the server process used so far (user + system), in ms. */
function askCpuMs(server: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string; cpuMs?: number }) => {
      if (message.type !== 'cpu' || message.cpuMs === undefined) return
      server.off('message', onMessage)
      resolve(message.cpuMs)
    }
    server.on('message', onMessage)
    server.send({ type: 'cpu' })
  })
}

const mebibytes = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10

/** Runs the benchmark and writes bench/results/hostile.json. */
export async function runHostileBench(): Promise<void> {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const server = fork(fileURLToPath(new URL('./hostile-server.ts', import.meta.url)), [], {
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.HOSTILE_SERVER_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.HOSTILE_SERVER_PROFILE_DIR}`]
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.once('message', (message: { type: string; port: number }) => resolve(message.port))
      server.once('exit', (code) => reject(new Error(`the server exited (${code})`)))
    })
    const warmUpAgent = new Agent({ keepAlive: true, maxSockets: 1 })
    // Warm-up: every hostile kind once and some health requests, so the "before" memory
    // already holds the code and caches a running server has.
    for (const request of hostileRequests) await send(port, warmUpAgent, request)
    await measureHealth(port, () => true, 50)

    // Each kind alone, one at a time: what one request of it costs end to end.
    const perKindMs: Record<string, number> = {}
    const perKindCpuMs: Record<string, number> = {}
    for (const request of hostileRequests) {
      await quiet.beforeRound(`kind ${request.name}`)
      const cpuBeforeMs = await askCpuMs(server)
      const samples: number[] = []
      for (let round = 0; round < 15; round++) {
        const startedAtMs = performance.now()
        await send(port, warmUpAgent, request)
        samples.push(performance.now() - startedAtMs)
      }
      perKindMs[request.name] = measure(samples, 'ms').median
      perKindCpuMs[request.name] =
        Math.round((((await askCpuMs(server)) - cpuBeforeMs) / samples.length) * 1000) / 1000
      quiet.afterRound()
    }

    // CPU time is what a loaded machine does not distort: the server's own cost per request.
    await quiet.beforeRound('health idle')
    const cpuBeforeIdleMs = await askCpuMs(server)
    const idleSamples = await measureHealth(port, () => true, idleHealthSamples)
    const healthCpuMs = ((await askCpuMs(server)) - cpuBeforeIdleMs) / idleSamples.length
    quiet.afterRound()
    const before = await askMemory(server, 'gc')
    const cpuBeforeFloodMs = await askCpuMs(server)

    // The flood comes from another process, so this one's event loop only measures health.
    const flooder = fork(fileURLToPath(new URL('./hostile-flood.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    await new Promise((resolve) => flooder.once('message', resolve))
    // The flooder is this process's child, so its CPU counts as ours, not as other load.
    await quiet.beforeRound('health under flood')
    let isFlooding = true
    const flood = new Promise<{ statusCounts: Record<string, number>; floodSeconds: number }>(
      (resolve, reject) => {
        flooder.once('message', (message: { type: string; message?: string }) => {
          if (message.type === 'done') resolve(message as never)
          else reject(new Error(message.message))
        })
        flooder.once('exit', (code) => reject(new Error(`the flooding client exited (${code})`)))
      },
    ).finally(() => {
      isFlooding = false
    })
    flooder.send({
      type: 'flood',
      port,
      count: hostileRequestCount,
      connections: floodConnections,
    })
    const floodSamples = await measureHealth(port, () => !isFlooding, 50)
    const { statusCounts, floodSeconds } = await flood
    quiet.afterRound()
    flooder.kill()
    const floodCpuMs = (await askCpuMs(server)) - cpuBeforeFloodMs
    const hostileCpuMs = (floodCpuMs - floodSamples.length * healthCpuMs) / hostileRequestCount
    const afterFlood = await askMemory(server, 'memory')
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const afterCollection = await askMemory(server, 'gc')
    warmUpAgent.destroy()

    const idleP99 = percentile(idleSamples, 0.99)
    const floodP99 = percentile(floodSamples, 0.99)
    const healthRatio = ratioOf('health-under-flood', 'health-idle', 'p99', floodP99, idleP99)
    const rssGrowth = afterCollection.rss / before.rss
    const report = {
      benchmark: 'hostile',
      description:
        'GET /web/health latency from its own keep-alive connection with the server idle, then while another client in its own process sends hostile bodies (deep, wide, cut short, over the limit); server memory (separate process) before the flood, right after it, and after a full collection and 2 s idle.',
      machine,
      settings: { hostileRequestCount, floodConnections, healthGapMs },
      hostileKinds: hostileRequests.map((request) => ({
        name: request.name,
        path: request.path.slice(0, 60),
        bodyBytes: request.body === undefined ? 0 : Buffer.byteLength(request.body),
      })),
      cases: {
        'health-idle': {
          latencyMs: measure(idleSamples, 'ms'),
          p99Ms: Math.round(idleP99 * 100) / 100,
        },
        'health-under-flood': {
          latencyMs: measure(floodSamples, 'ms'),
          p99Ms: Math.round(floodP99 * 100) / 100,
          floodSeconds: Math.round(floodSeconds * 10) / 10,
          hostileRequestsPerSecond: Math.round(hostileRequestCount / floodSeconds),
        },
      },
      perKindMedianMs: perKindMs,
      serverCpuMsPerRequest: {
        health: Math.round(healthCpuMs * 1000) / 1000,
        hostileAverage: Math.round(hostileCpuMs * 1000) / 1000,
        hostileByKind: perKindCpuMs,
      },
      answers: statusCounts,
      memoryMiB: {
        before: Object.fromEntries(Object.entries(before).map(([k, v]) => [k, mebibytes(v)])),
        afterFlood: Object.fromEntries(
          Object.entries(afterFlood).map(([k, v]) => [k, mebibytes(v)]),
        ),
        afterCollection: Object.fromEntries(
          Object.entries(afterCollection).map(([k, v]) => [k, mebibytes(v)]),
        ),
      },
      ratios: [
        healthRatio,
        ratioOf('rss-after', 'rss-before', 'bytes', afterCollection.rss, before.rss),
        ratioOf(
          'heap-used-after',
          'heap-used-before',
          'bytes',
          afterCollection.heapUsed,
          before.heapUsed,
        ),
      ],
      goals: {
        'health p99 under flood ≤ 2 × idle p99': healthRatio.value <= 2,
        'server RSS growth over the flood ≤ 10 %': rssGrowth <= 1.1,
      },
    }
    const path = writeBenchResult('hostile', report, quiet)
    console.log(
      `health p99 idle ${idleP99.toFixed(1)} ms, under flood ${floodP99.toFixed(1)} ms (× ${healthRatio.value}); ` +
        `${hostileRequestCount} hostile requests in ${floodSeconds.toFixed(1)} s; server CPU per request: ` +
        `health ${healthCpuMs.toFixed(2)} ms, hostile ${hostileCpuMs.toFixed(2)} ms; RSS ${mebibytes(before.rss)} → ` +
        `${mebibytes(afterFlood.rss)} → ${mebibytes(afterCollection.rss)} MiB after collection; heap used ` +
        `${mebibytes(before.heapUsed)} → ${mebibytes(afterCollection.heapUsed)} MiB. Written to ${path}`,
    )
  } finally {
    server.send({ type: 'close' })
    await new Promise((resolve) => {
      server.once('exit', resolve)
      setTimeout(() => {
        server.kill()
        resolve(undefined)
      }, 5_000).unref()
    })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runHostileBench()
