/**
 * Hostile bodies (issue 13, classes 1 and 10): how prompt `/web/health` stays while a client
 * floods the server with the bodies that used to stall it, and whether the server keeps the
 * memory those requests passed through.
 *
 * The server runs in its own process (./hostile-server.ts, the real app on SQLite with the
 * production budget of refused requests per client, loopback only). The hostile kinds: JSON
 * nested 9,000 levels, 60,000 keys, 99,000 values, a value nested right to the limit, form
 * bodies with a 5,000-level key or 900,000 '&', cut-short multipart, a body over the size
 * limit, an address full of nested query keys. Each hostile request waits for its answer (any
 * 5xx fails the run). Each client speaks from its own loopback address (127.0.0.x), so the
 * server tells them apart as it would real ones.
 *
 * 1. Cost per kind: each kind 15 times from an address of its own (answered in full: 400/413),
 *    then 15 times from an address out of budget (held unread, then answered 429).
 * 2. Memory (class 10): RSS and heap at rest (as below), then 2 × 10,000 hostile requests
 *    answered in full (spread over addresses, 50 each, within the budget), each batch followed
 *    by a full collection, 10 s of rest (RSS read each second) and another collection. Growth
 *    that stays in RSS but not in the heap and comes back later is the allocator keeping freed
 *    pages; growth in the heap, batch after batch, would be a leak.
 * 3. Latency (class 1), BENCH_ROUNDS rounds (default 3), side by side: the idle server (the
 *    anchor: health requests alone) and then ours, the same while another client (its own
 *    process, ./hostile-flood.ts) sends hostile requests from one address, each as soon as the
 *    previous one is answered, over `HOSTILE_FLOOD_CONNECTIONS` connections at once (default
 *    1), until 10,000 are answered or `HOSTILE_FLOOD_SECONDS` (default 20) have passed. One
 *    client asks for /web/health over its own keep-alive connection, one request at a time,
 *    5 ms apart. Goal: the median over rounds of the flood p99 ≤ 2 × that of the idle p99.
 *    Each round is repeated against the floor (./hostile-floor-server.ts: a bare node:http
 *    server answering 429 with no work and no hold), so the result shows what the machine
 *    itself takes from the health client under the same flood. Each window records the server's
 *    event-loop delay, collections, user and kernel CPU, time waiting for a core and
 *    connections, and the flooder's and the health client's CPU and core waits
 *    (./server-probe.ts), to trace where a slow health answer's time went.
 *
 *   npm run bench -- hostile        (HOSTILE_REQUESTS=2000 BENCH_ROUNDS=1 for a quick check;
 *                                    HOSTILE_PHASES=latency for the latency rounds only)
 *
 * Writes bench/results/hostile.json.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { Agent } from 'node:http'
import { fileURLToPath } from 'node:url'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from '../lib/stats'
import {
  ask,
  flood,
  floodConnections,
  healthGapMs,
  type LatencyRound,
  latencyRound,
  measureHealth,
} from './hostile-latency'
import { hostileRequests, send } from './hostile-requests'

const hostileRequestCount = Number(process.env.HOSTILE_REQUESTS) || 10_000
const rounds = Number(process.env.BENCH_ROUNDS) || 3
const idleHealthSamples = 300
/** A flood ends after this long even when not all its requests were answered. */
const floodMaxSeconds = Number(process.env.HOSTILE_FLOOD_SECONDS) || 20
/** `latency` runs only the latency rounds (a quick diagnosis; the result lacks the rest). */
const phases = process.env.HOSTILE_PHASES ?? 'all'
/** Requests of the memory batches from one address: within the budget, so all are read. */
const memoryRequestsPerAddress = 50
const perKindRepeats = 15
/** Rest after each memory batch before its reading. */
const settleSeconds = 10

/** Loopback addresses of one phase of the bench, none shared with another phase. */
const addresses = (block: number, count: number) =>
  Array.from({ length: count }, (_, i) => `127.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`)

const median = (values: readonly number[]) => measure(values, '').median

interface ServerMemory {
  rss: number
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
}

const askMemory = async (server: ChildProcess, type: 'memory' | 'gc') =>
  (await ask<{ memory: ServerMemory }>(server, type, 'memory')).memory

/** CPU time the server process used so far (user + system), in ms. */
const askCpuMs = async (server: ChildProcess) =>
  (await ask<{ cpuMs: number }>(server, 'cpu', 'cpu')).cpuMs

/**
 * Memory after a full collection, `settleSeconds` of rest and another collection (the second
 * gives back what the first freed: V8 shrinks its heap then); RSS each second goes into `rss`.
 */
async function restedMemory(server: ChildProcess, rss: number[] = []): Promise<ServerMemory> {
  await askMemory(server, 'gc')
  for (let second = 0; second < settleSeconds; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    rss.push(mebibytes((await askMemory(server, 'memory')).rss))
  }
  return askMemory(server, 'gc')
}

const mebibytes = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10
const inMebibytes = (memory: ServerMemory) =>
  Object.fromEntries(Object.entries(memory).map(([key, value]) => [key, mebibytes(value)]))

/** Adds the counts of `more` into `total`. */
function addCounts(total: Record<string, number>, more: Record<string, number>): void {
  for (const [key, count] of Object.entries(more)) total[key] = (total[key] ?? 0) + count
}

/** Starts a server process of the bench (`file` next to this one); resolves with its port. */
async function startServer(
  file: string,
  execArgv: string[] = [],
): Promise<{ server: ChildProcess; port: number }> {
  const server = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    server.once('message', (message: { type: string; port: number }) => resolve(message.port))
    server.once('exit', (code) => reject(new Error(`the server ${file} exited (${code})`)))
  })
  return { server, port }
}

/** Asks a server process to close and waits for it to exit (killed after 5 s). */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return
  server.send({ type: 'close' })
  await new Promise((resolve) => {
    server.once('exit', resolve)
    setTimeout(() => {
      server.kill()
      resolve(undefined)
    }, 5_000).unref()
  })
}

/** Each hostile kind alone: its cost answered in full and answered out of budget (phase 1). */
async function costPerKind(
  server: ChildProcess,
  port: number,
  agent: Agent,
  quiet: QuietRounds,
): Promise<Record<string, Record<string, unknown>>> {
  const outOfBudget = '127.2.0.1'
  // its budget and one more: the rest of the way it is out of budget (held, then answered 429)
  for (let i = 0; i < 61; i++) await send(port, agent, hostileRequests[0]!, outOfBudget)
  const perKind: Record<string, Record<string, unknown>> = {}
  for (const [index, request] of hostileRequests.entries()) {
    const costOf = async (address: string) => {
      const cpuBeforeMs = await askCpuMs(server)
      const samples: number[] = []
      const outcomes: Record<string, number> = {}
      for (let round = 0; round < perKindRepeats; round++) {
        const startedAtMs = performance.now()
        const outcome = await send(port, agent, request, address)
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
        samples.push(performance.now() - startedAtMs)
      }
      const cpuMs = ((await askCpuMs(server)) - cpuBeforeMs) / perKindRepeats
      return { outcomes, medianMs: median(samples), cpuMs: Math.round(cpuMs * 1000) / 1000 }
    }
    await quiet.beforeRound(`kind ${request.name}`)
    const read = await costOf(`127.3.0.${index + 1}`)
    const unread = await costOf(outOfBudget)
    quiet.afterRound()
    perKind[request.name] = {
      answered: read.outcomes,
      medianMs: read.medianMs,
      serverCpuMs: read.cpuMs,
      // held, then answered 429 (the test app's clock stands still: no token comes back)
      outOfBudgetAnswered: unread.outcomes,
      outOfBudgetMedianMs: unread.medianMs,
      outOfBudgetServerCpuMs: unread.cpuMs,
    }
  }
  return perKind
}

/** Memory around 2 × N hostile requests answered in full (phase 2). */
async function memoryAround(server: ChildProcess, port: number) {
  const memoryBefore = await restedMemory(server)
  const batches: Record<string, unknown>[] = []
  const answers: Record<string, number> = {}
  for (let batch = 0; batch < 2; batch++) {
    const floodAddresses = addresses(10 + batch, hostileRequestCount / memoryRequestsPerAddress)
    const result = await flood(
      port,
      hostileRequestCount,
      Number.POSITIVE_INFINITY,
      floodAddresses,
      memoryRequestsPerAddress,
    )
    addCounts(answers, result.statusCounts)
    const afterFlood = await askMemory(server, 'memory')
    // RSS a while after a collection: glibc and V8 keep freed pages some seconds before
    // giving them back (the heap is back at once), so one reading 2 s after the flood said
    // +1 % in one run and +17 % in another.
    const settleRssMiB: number[] = []
    const afterCollection = await restedMemory(server, settleRssMiB)
    batches.push({
      requests: hostileRequestCount * (batch + 1),
      afterFloodMiB: inMebibytes(afterFlood),
      rssEachSecondOfRestMiB: settleRssMiB,
      afterRestAndCollectionMiB: inMebibytes(afterCollection),
      rssGrowth: Math.round((afterCollection.rss / memoryBefore.rss) * 1000) / 1000,
      heapUsedGrowth: Math.round((afterCollection.heapUsed / memoryBefore.heapUsed) * 1000) / 1000,
    })
  }
  return { beforeMiB: inMebibytes(memoryBefore), batches, answers }
}

/** The p99s of rounds, as the result prints them. */
const roundsText = (results: LatencyRound[]) =>
  results.map((r) => `${r.idleP99Ms}/${r.floodP99Ms}`).join(', ')

/** Runs the benchmark and writes bench/results/hostile.json. */
export async function runHostileBench(): Promise<void> {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const { server, port } = await startServer('./hostile-server.ts', [
    '--expose-gc',
    ...(process.env.HOSTILE_SERVER_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.HOSTILE_SERVER_PROFILE_DIR}`]
      : []),
  ])
  let floor: { server: ChildProcess; port: number } | undefined
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    // Warm-up: every hostile kind once and some health requests, so the "before" memory
    // already holds the code and caches a running server has.
    for (const request of hostileRequests) await send(port, agent, request, '127.1.0.1')
    await measureHealth(port, () => true, 50)
    // 1. and 2.
    const perKind = phases === 'all' ? await costPerKind(server, port, agent, quiet) : undefined
    const memory = phases === 'all' ? await memoryAround(server, port) : undefined
    agent.destroy()

    // 3. Health latency, idle and under a one-address flood, side by side in each round, for
    // the app and for the floor (a bare server doing no work), in turn.
    floor = await startServer('./hostile-floor-server.ts')
    await measureHealth(floor.port, () => true, 50)
    const latencySettings = {
      idleSamples: idleHealthSamples,
      floodCount: hostileRequestCount,
      floodMaxSeconds,
    }
    const ours: LatencyRound[] = []
    const floorRounds: LatencyRound[] = []
    for (let round = 0; round < rounds; round++) {
      // The flooder is this process's child, so its CPU counts as ours, not as other load.
      await quiet.beforeRound(`health idle and under flood, round ${round + 1}`)
      ours.push(await latencyRound(server, port, `127.4.0.${round + 1}`, latencySettings))
      quiet.afterRound()
      await quiet.beforeRound(`floor: health idle and under flood, round ${round + 1}`)
      floorRounds.push(
        await latencyRound(floor.server, floor.port, `127.5.0.${round + 1}`, latencySettings),
      )
      quiet.afterRound()
    }

    const idleP99 = median(ours.map((r) => r.idleP99Ms))
    const floodP99 = median(ours.map((r) => r.floodP99Ms))
    const floorIdleP99 = median(floorRounds.map((r) => r.idleP99Ms))
    const floorFloodP99 = median(floorRounds.map((r) => r.floodP99Ms))
    const healthRatio = ratioOf('health-under-flood', 'health-idle', 'p99', floodP99, idleP99)
    const floorRatio = ratioOf(
      'floor-health-under-flood',
      'floor-health-idle',
      'p99',
      floorFloodP99,
      floorIdleP99,
    )
    const lastBatch = memory?.batches.at(-1) as { rssGrowth: number } | undefined
    const report = {
      benchmark: 'hostile',
      description:
        'GET /web/health p99 from its own keep-alive connection with the server idle and while another client floods hostile bodies from one address, side by side in each round (the server holds each client to a budget of refused requests), and the same against a bare node:http server that answers 429 with no work (the floor); the cost of each hostile kind answered in full and answered out of budget; server memory after a full collection before and after 2 × N hostile requests answered in full.',
      machine,
      settings: {
        hostileRequestCount,
        floodMaxSeconds,
        floodConnections,
        rounds,
        healthGapMs,
        idleHealthSamples,
        phases,
      },
      hostileKinds: hostileRequests.map((request) => ({
        name: request.name,
        path: request.path.slice(0, 60),
        bodyBytes: request.body === undefined ? 0 : Buffer.byteLength(request.body),
      })),
      perKind,
      memory,
      latencyRounds: ours,
      floorLatencyRounds: floorRounds,
      cases: {
        'health-idle': { p99MsMedianOfRounds: idleP99 },
        'health-under-flood': { p99MsMedianOfRounds: floodP99 },
        'floor-health-idle': { p99MsMedianOfRounds: floorIdleP99 },
        'floor-health-under-flood': { p99MsMedianOfRounds: floorFloodP99 },
      },
      ratios: [
        healthRatio,
        floorRatio,
        ...(lastBatch === undefined
          ? []
          : [
              {
                ours: 'rss-after-collection',
                anchor: 'rss-before',
                metric: 'bytes',
                value: lastBatch.rssGrowth,
              },
            ]),
      ],
      goals: {
        'health p99 under flood ≤ 2 × idle p99': healthRatio.value <= 2,
        ...(lastBatch === undefined
          ? {}
          : { 'server RSS growth over the hostile requests ≤ 10 %': lastBatch.rssGrowth <= 1.1 }),
      },
    }
    const path = writeBenchResult('hostile', report, quiet)
    const first = ours[0]
    console.log(
      `health p99 (median of ${rounds} rounds) idle ${idleP99} ms, under flood ${floodP99} ms ` +
        `(× ${healthRatio.value}; rounds: ${roundsText(ours)}); floor (bare server): idle ` +
        `${floorIdleP99} ms, under flood ${floorFloodP99} ms (× ${floorRatio.value}; rounds: ` +
        `${roundsText(floorRounds)}); flood ${ours.map((r) => r.floodRequestsPerSecond).join('/')} ` +
        `requests/s against ours, ${floorRounds.map((r) => r.floodRequestsPerSecond).join('/')} ` +
        `against the floor; server under flood (round 1): event-loop delay p99 ` +
        `${first?.serverFlooded.eventLoopDelayMs.p99} ms, max ${first?.serverFlooded.eventLoopDelayMs.max} ms, ` +
        `health in server p99 ${first?.serverFlooded.healthInServerMs.p99} ms` +
        (memory === undefined
          ? ''
          : `; RSS after ${2 * hostileRequestCount} requests answered in full × ${lastBatch?.rssGrowth}`) +
        `. Written to ${path}`,
    )
  } finally {
    await stopServer(server)
    if (floor !== undefined) await stopServer(floor.server)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runHostileBench()
