/**
 * Two API processes vs one (issue 22): the same server, on one PostgreSQL schema and one
 * DATA_DIR, run once as one process and once as `CLUSTER_WORKERS=2` (node:cluster, one port),
 * both serving a tile-request mix to the same client in the same run. Goals: throughput ≥ 1.6×
 * one process (the limit on this 2-core machine is 2×), p99 latency not worse.
 *
 * The mix, as a city viewer's browser sends it once the tileset is known: the root
 * tileset.json (1 in 10), b3dm tiles picked at random from a 341-tile pyramid, a fifth of those
 * revalidated with `If-None-Match` (304) and a tenth read with `Range` (206). Every answer is
 * checked (status, and the bytes of full tiles against the first answer for that tile).
 *
 * Rounds alternate the order of the two sides; each side of a round opens new keep-alive
 * connections (`TWO_PROCESSES_BENCH_CONNECTIONS`, default 16, so node:cluster spreads them over
 * its processes) and keeps them busy for `TWO_PROCESSES_BENCH_SECONDS` (default 6). The ratio
 * is taken per round (two ÷ one) and its median reported. The client runs in this process, on
 * the same two cores: its CPU share is reported beside the servers', since it bounds the ratio.
 * `plausibility` counts rounds above the core count (a second process cannot do that: the
 * one-process side was held back, and the goal is then not met) and each side's spread of
 * throughput from round to round (fastest ÷ slowest).
 *
 * Needs DATABASE_URL (postgres://…): a new schema is made and dropped after. Ports:
 * TWO_PROCESSES_BENCH_PORTS="<one>,<two>" (default 18093,18094). TWO_PROCESSES_BENCH_ROUNDS
 * (default 5 timed, after a warm-up). Writes bench/results/two-processes.json.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runOnPostgres } from '../server/testing/test-app'
import { productServer, stopServerProcess } from './lib/product-server'
import { processTreeTicks, QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'
import { uploadBenchTileset } from './lib/upload-tileset'

const root = fileURLToPath(new URL('..', import.meta.url))
const roundCount = Number(process.env.TWO_PROCESSES_BENCH_ROUNDS ?? 5)
const secondsPerSide = Number(process.env.TWO_PROCESSES_BENCH_SECONDS ?? 6)
const connectionCount = Number(process.env.TWO_PROCESSES_BENCH_CONNECTIONS ?? 16)
const [onePort, twoPort] = (process.env.TWO_PROCESSES_BENCH_PORTS ?? '18093,18094')
  .split(',')
  .map(Number) as [number, number]
const ticksPerSecond = 100
/** The one-process side's address, admin and API calls (bench/lib/product-server.ts). */
const api = productServer(onePort, 'two-processes')
const { admin } = api

/** Goals of issue 22 for this benchmark. */
export const twoProcessesGoals = { throughputAtLeast: 1.6, p99AtMost: 1 }

type Side = 'one' | 'two'

/** One deployment: `serve.ts` as an operator starts it, on its port. */
interface Deployment {
  side: Side
  child: ChildProcess
  base: string
}

function startDeployment(
  side: Side,
  port: number,
  shared: { databaseUrl: string; schema: string; dataDir: string },
): Deployment {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/serve.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: shared.databaseUrl,
      DATABASE_SCHEMA: shared.schema,
      DATA_DIR: shared.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      CLUSTER_WORKERS: side === 'two' ? '2' : '1',
      ADMIN_NAME: admin.name,
      ADMIN_PASSWORD: admin.password,
      // a request log line per tile would be most of what the processes do
      LOG_LEVEL: 'warn',
      MQTT: 'off',
    },
  })
  return { side, child, base: `http://127.0.0.1:${port}` }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Resolves once the deployment answers and its processes have gone idle (a cluster's second
 * process may still be starting when the first answers /web/health).
 */
async function waitUntilReady(deployment: Deployment): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (deployment.child.exitCode !== null) throw new Error(`${deployment.side}: server exited`)
    const isUp = await fetch(`${deployment.base}/web/health`).then(
      (answer) => answer.ok,
      () => false,
    )
    if (isUp) break
    if (attempt > 480) throw new Error(`${deployment.side}: the server did not start`)
    await sleep(500)
  }
  const pid = deployment.child.pid!
  for (let attempt = 0; attempt < 120; attempt++) {
    const before = processTreeTicks(pid)
    await sleep(1000)
    // under a tenth of a core for a second: start-up (migrations, seeds, sweeps) is over
    if (processTreeTicks(pid) - before < ticksPerSecond / 10) return
  }
}

/** One request of the mix. */
interface Ask {
  path: string
  headers: Record<string, string>
  status: number
}

/** A seeded picker of the mix's requests (the same sequence for both sides of a round). */
function mixOf(rootPath: string, tilePaths: string[], etags: Map<string, string>, seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0
    return state / 4_294_967_296
  }
  return (): Ask => {
    const roll = next()
    if (roll < 0.1) return { path: rootPath, headers: {}, status: 200 }
    const path = tilePaths[Math.floor(next() * tilePaths.length)]!
    if (roll < 0.28) return { path, headers: { 'if-none-match': etags.get(path)! }, status: 304 }
    if (roll < 0.37) return { path, headers: { range: 'bytes=0-16383' }, status: 206 }
    return { path, headers: {}, status: 200 }
  }
}

function get(
  agent: Agent,
  port: number,
  ask: Ask,
): Promise<{ status: number; body: Buffer; etag: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path: ask.path, headers: ask.headers, agent },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            body: Buffer.concat(chunks),
            etag: answer.headers.etag,
          }),
        )
        answer.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** What one side of a round measured. */
interface SideRun {
  requests: number
  throughputPerSecond: number
  latenciesMs: number[]
  serverCores: number
  clientCores: number
}

async function drive(
  deployment: Deployment,
  port: number,
  next: () => Ask,
  fullBodies: Map<string, Buffer>,
): Promise<SideRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: connectionCount })
  const latenciesMs: number[] = []
  const serverTicksBefore = processTreeTicks(deployment.child.pid!)
  const clientBefore = process.cpuUsage()
  const startedAt = performance.now()
  const endAt = startedAt + secondsPerSide * 1000
  const connection = async () => {
    while (performance.now() < endAt) {
      const ask = next()
      const askedAt = performance.now()
      const answer = await get(agent, port, ask)
      latenciesMs.push(performance.now() - askedAt)
      if (answer.status !== ask.status) {
        throw new Error(
          `${deployment.side}: ${ask.path} answered ${answer.status}, not ${ask.status}`,
        )
      }
      const expected = fullBodies.get(ask.path)
      if (answer.status === 200 && expected !== undefined && !answer.body.equals(expected)) {
        throw new Error(`${deployment.side}: ${ask.path} answered other bytes`)
      }
    }
  }
  await Promise.all(Array.from({ length: connectionCount }, connection))
  const elapsedS = (performance.now() - startedAt) / 1000
  const client = process.cpuUsage(clientBefore)
  const serverTicks = processTreeTicks(deployment.child.pid!) - serverTicksBefore
  agent.destroy()
  return {
    requests: latenciesMs.length,
    throughputPerSecond: latenciesMs.length / elapsedS,
    latenciesMs,
    serverCores: serverTicks / ticksPerSecond / elapsedS,
    clientCores: (client.user + client.system) / 1e6 / elapsedS,
  }
}

export async function runTwoProcessesBench(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL
  if (!databaseUrl?.startsWith('postgres')) {
    throw new Error('two-processes needs DATABASE_URL=postgres://…')
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`
  const dataDir = await mkdtemp(join(tmpdir(), 'two-processes-bench-'))
  await runOnPostgres(databaseUrl, `create schema ${schema}`)
  const shared = { databaseUrl, schema, dataDir }
  const deployments: Deployment[] = []
  const quiet = new QuietRounds()
  const runs: Record<Side, SideRun[]> = { one: [], two: [] }
  const roundRatios: { throughput: number; p99: number; order: string }[] = []
  try {
    // one first: it migrates and seeds; the cluster then joins a ready schema
    const one = startDeployment('one', onePort, shared)
    deployments.push(one)
    await waitUntilReady(one)
    const { rootPath, tilePaths } = await uploadBenchTileset(api, {
      name: 'Two processes bench',
      description: 'Tiles for bench/two-processes.ts',
    })
    const two = startDeployment('two', twoPort, shared)
    deployments.push(two)
    await waitUntilReady(two)

    // each tile's ETag and bytes, from one; two must answer the same
    const etags = new Map<string, string>()
    const fullBodies = new Map<string, Buffer>()
    const reader = new Agent({ keepAlive: true })
    for (const path of [rootPath, ...tilePaths]) {
      const answer = await get(reader, onePort, { path, headers: {}, status: 200 })
      if (answer.status !== 200 || answer.etag === undefined) {
        throw new Error(`${path} answered ${answer.status}`)
      }
      etags.set(path, answer.etag)
      fullBodies.set(path, answer.body)
    }
    reader.destroy()

    const sides = { one: [one, onePort], two: [two, twoPort] } as const
    for (let round = 0; round <= roundCount; round++) {
      const timed = round > 0
      const order: Side[] = round % 2 === 0 ? ['one', 'two'] : ['two', 'one']
      const measured = await quiet.round(
        `round ${round} (${order.join(', ')})`,
        async () => {
          const result: Partial<Record<Side, SideRun>> = {}
          for (const side of order) {
            const [deployment, port] = sides[side]
            result[side] = await drive(
              deployment,
              port,
              mixOf(rootPath, tilePaths, etags, 1000 + round),
              fullBodies,
            )
          }
          return result as Record<Side, SideRun>
        },
        timed,
      )
      if (!timed) continue
      runs.one.push(measured.one)
      runs.two.push(measured.two)
      roundRatios.push({
        throughput: measured.two.throughputPerSecond / measured.one.throughputPerSecond,
        p99:
          percentile(measured.two.latenciesMs, 0.99) / percentile(measured.one.latenciesMs, 0.99),
        order: order.join(', '),
      })
    }
  } finally {
    for (const deployment of deployments.reverse()) await stopServerProcess(deployment.child)
    await runOnPostgres(databaseUrl, `drop schema if exists ${schema} cascade`)
    await rm(dataDir, { recursive: true, force: true })
  }

  const summaryOf = (side: Side) => {
    const sideRuns = runs[side]
    const across = (pick: (run: SideRun) => number, unit: string) =>
      measure(sideRuns.map(pick), unit)
    return {
      throughputPerSecond: across((run) => run.throughputPerSecond, 'requests/s'),
      p50Ms: across((run) => percentile(run.latenciesMs, 0.5), 'ms'),
      p99Ms: across((run) => percentile(run.latenciesMs, 0.99), 'ms'),
      serverCores: across((run) => run.serverCores, 'cores'),
      clientCores: across((run) => run.clientCores, 'cores'),
      requests: sideRuns.reduce((sum, run) => sum + run.requests, 0),
    }
  }
  const one = summaryOf('one')
  const two = summaryOf('two')
  const throughputRatio = measure(
    roundRatios.map((ratio) => ratio.throughput),
    '×',
  )
  const p99Ratio = measure(
    roundRatios.map((ratio) => ratio.p99),
    '×',
  )
  // Two processes on this many cores cannot answer more than this many times one's requests: a
  // round above it means the one-process side was held back, not that two were that good
  // (session 22: two 1 MiB read buffers a tile made one process wait on the collector and the
  // allocator, 745–2,335 requests/s from round to round, and the ratio read 3.26×).
  const coreCount = availableParallelism()
  const spreadOf = (side: SideRun[]) => {
    const rates = side.map((run) => run.throughputPerSecond)
    return Math.round((Math.max(...rates) / Math.min(...rates)) * 100) / 100
  }
  const plausibility = {
    coreCount,
    roundsAboveCoreCount: roundRatios.filter((ratio) => ratio.throughput > coreCount).length,
    // fastest ÷ slowest round of each side: a steady baseline stays near 1
    throughputSpread: { one: spreadOf(runs.one), two: spreadOf(runs.two) },
  }
  const report = {
    benchmark: 'two-processes',
    description: `A tile-request mix (root tileset.json 10 %, b3dm tiles 63 %, If-None-Match 304s 18 %, Range 206s 9 %; 341 tiles) over ${connectionCount} keep-alive connections for ${secondsPerSide} s per side, against one server process and against CLUSTER_WORKERS=2 on the same PostgreSQL schema and DATA_DIR; ${roundCount} timed rounds after a warm-up, the order alternating. Ratios per round (two ÷ one), median reported. The client shares the two cores (clientCores). Goals: throughput ≥ ${twoProcessesGoals.throughputAtLeast}×, p99 ≤ ${twoProcessesGoals.p99AtMost}×.`,
    machine: machineInfo(null),
    one,
    two,
    throughputRatio,
    p99Ratio,
    rounds: roundRatios,
    plausibility,
    meetsTarget:
      plausibility.roundsAboveCoreCount === 0 &&
      throughputRatio.median >= twoProcessesGoals.throughputAtLeast &&
      p99Ratio.median <= twoProcessesGoals.p99AtMost,
    ratios: [
      ratioOf(
        'two processes',
        'one process',
        'throughput (requests/s)',
        two.throughputPerSecond.median,
        one.throughputPerSecond.median,
      ),
      ratioOf(
        'two processes',
        'one process',
        'p99 latency (ms)',
        two.p99Ms.median,
        one.p99Ms.median,
      ),
    ],
  }
  const path = writeBenchResult('two-processes', report, quiet)
  console.log(
    JSON.stringify(
      {
        throughputRatio: throughputRatio.median,
        p99Ratio: p99Ratio.median,
        one: { rps: one.throughputPerSecond.median, p99: one.p99Ms.median },
        two: { rps: two.throughputPerSecond.median, p99: two.p99Ms.median },
        clientCores: [one.clientCores.median, two.clientCores.median],
        throughputRatios: throughputRatio.samples,
        plausibility,
        serverCores: [one.serverCores.median, two.serverCores.median],
      },
      null,
      2,
    ),
  )
  console.log(`written to ${path}`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runTwoProcessesBench()
}
