/**
 * Batched HTTP telemetry ingest on SQLite (issue 17 "Performance": ≥ 0.5× the rate of the same
 * rows inserted by a bare batched INSERT loop into the same database). Ours: the server listening
 * on a real socket, `POST /api/v1/{token}/telemetry` from several devices at once, each body a
 * list of `{ts, values}` messages (token check, rate limit, reading the body, the transaction with
 * raw points, 1-minute and 1-hour rollups, the series' latest values and the device's last-seen
 * time). The anchor: the same number of rows into `iot_points` of the same database file by a
 * prepared `INSERT` in a loop, one transaction per request-sized batch, nothing else — what the
 * database itself needs. Both commit with the server's durability (WAL, `synchronous=FULL`; the
 * server's group commit answers after an fdatasync of the WAL, which is the same guarantee).
 * Server RSS is recorded before and after the rounds.
 *
 * The MQTT case: the same bodies published by the same devices to `v1/devices/me/telemetry`
 * (QoS 1) through the broker the server starts (Debian's mosquitto with our auth plugin), timed
 * until the server's subscriber has stored them all — points per second through the broker,
 * against the same anchor. Skipped (and said so) where mosquitto is not installed.
 *
 * How the rounds are made honest (session 18; the old 80-request rounds, ≈ 0.1–0.2 s, gave
 * 0.39–0.65× on quiet runs): every case of a round writes the same number of points, long
 * enough that the WAL's automatic checkpoints (copying the log into the database file and
 * syncing it, every 1,000 pages of WAL: ≈ 15 for the anchor's 200,000 points, ≈ 18 for ours,
 * which also writes rollups) fall into every case many times instead of into one case of a
 * round now and then; the cases of a round run back to back in an order that rotates
 * from round to round, so neither side always runs first after the pause; one untimed round
 * warms up; and the ratio is taken per round (ours ÷ the anchor of the same round, which shared
 * the machine's state with it), reported as the median over the rounds with its spread. Each
 * case's record also says how busy the server's thread was (event-loop utilisation) and how
 * long V8's garbage collector paused the main thread while it ran.
 *
 *   npx tsx bench/iot-ingest.ts      (or `npm run bench -- iot-ingest`)
 *
 * Writes bench/results/iot-ingest.json. IOT_BENCH_ROUNDS (timed rounds, default 7),
 * IOT_BENCH_ROUND_REQUESTS (requests per case and round, default 400 = 200,000 points),
 * IOT_BENCH_CONCURRENCY (HTTP requests and MQTT publishes in flight, default 4),
 * IOT_BENCH_MQTT (`off` skips the MQTT case), IOT_BENCH_PORT (5482), IOT_BENCH_MQTT_PORT (5483).
 * IOT_BENCH_SOAK_MINUTES (default 0; the goal says 10): after the
 * timed rounds, ingest goes on (HTTP and MQTT rounds back to back) for that long, and the
 * process's RSS (server, broker client and the devices' thread: one process) is sampled after
 * each round; the report gives the samples and the growth over the soak's second half.
 */
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { type EntryType, PerformanceObserver, performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import type { DeviceWithToken } from '../contract/iot'
import { type PoiDetail, poiRoutes } from '../contract/pois'
import type { TemplatePage } from '../contract/templates'
import { templateRoutes } from '../contract/templates'
import { findMosquitto } from '../server/modules/iot/mqtt/mqtt-broker'
import { createProject } from '../server/routes/web/project-test-kit'
import { callApi, createTestApp, signIn, testEditor } from '../server/testing/test-app'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, type Ratio, writeBenchResult } from './lib/stats'

const rounds = Number(process.env.IOT_BENCH_ROUNDS) || 7
const port = Number(process.env.IOT_BENCH_PORT) || 5482
const mqttPort = Number(process.env.IOT_BENCH_MQTT_PORT) || 5483
const hasMosquitto = process.env.IOT_BENCH_MQTT !== 'off' && findMosquitto(undefined) !== undefined
const soakMinutes = Number(process.env.IOT_BENCH_SOAK_MINUTES) || 0
const deviceCount = 8
/** Requests in flight at once (one per device at a time). */
const concurrency = Number(process.env.IOT_BENCH_CONCURRENCY) || 4
const messagesPerRequest = 50
const keysPerMessage = 10
const requestsPerRound = Number(process.env.IOT_BENCH_ROUND_REQUESTS) || 400
const pointsPerRequest = messagesPerRequest * keysPerMessage

/** One case of a round: ours over HTTP or MQTT, or the anchor; answers its wall time in ms. */
interface IngestCase {
  name: 'httpIngest' | 'mqttIngest' | 'bareInsertLoop'
  label: string
  run: () => Promise<number>
}

/** What one case measured in one round. */
interface CaseRecord {
  pointsPerSecond: number
  /** Event-loop utilisation of the main thread (the server's; the anchor runs on it too). */
  serverThreadBusy: number
  /** Garbage-collection pauses of the main thread while the case ran. */
  gcMs: number
  /** Times the WAL was checkpointed and started again from its head while the case ran. */
  walRestarts: number
}

/**
 * The WAL's first salt (its header's bytes 16–19, big-endian): SQLite adds one each time a
 * writer starts the log again from its head after a checkpoint, whichever connection it is (the
 * header's checkpoint counter is kept per connection).
 */
function walCheckpointSequence(databaseFile: string): number {
  const header = Buffer.alloc(20)
  const descriptor = openSync(`${databaseFile}-wal`, 'r')
  try {
    return readSync(descriptor, header, 0, 20, 0) === 20 ? header.readUInt32BE(16) : 0
  } finally {
    closeSync(descriptor)
  }
}

/** Collects the main thread's GC pauses; `pausedBetween` sums those that began in a window. */
function watchGcPauses() {
  const pauses: Array<{ startTime: number; duration: number }> = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pauses.push({ startTime: entry.startTime, duration: entry.duration })
    }
  })
  observer.observe({ entryTypes: ['gc' as EntryType] })
  return {
    pausedBetween(fromMs: number, toMs: number) {
      let total = 0
      for (const pause of pauses) {
        if (pause.startTime >= fromMs && pause.startTime < toMs) total += pause.duration
      }
      return Math.round(total * 10) / 10
    },
    stop() {
      observer.disconnect()
    },
  }
}

/**
 * With IOT_BENCH_CPU_PROFILE=<file prefix>, the main thread (the server's) is profiled while
 * each timed case runs, one `<prefix>-<case>-<round>.cpuprofile` per case (open it in Chrome's
 * DevTools): what a request costs the server, without the set-up and the warm-up around it.
 */
async function profiledRun<T>(name: string, run: () => Promise<T>): Promise<T> {
  const prefix = process.env.IOT_BENCH_CPU_PROFILE
  if (!prefix) return run()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  try {
    return await run()
  } finally {
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(`${prefix}-${name}.cpuprofile`, JSON.stringify(profile))
    session.disconnect()
  }
}

/** Runs one case, and reads its rate, the server thread's business and the GC pauses. */
async function timeCase(
  run: () => Promise<number>,
  points: number,
  gcPauses: ReturnType<typeof watchGcPauses>,
  databaseFile: string,
): Promise<CaseRecord> {
  const sequenceBefore = walCheckpointSequence(databaseFile)
  const startedAt = performance.now()
  const loopBefore = performance.eventLoopUtilization()
  const ms = await run()
  const loop = performance.eventLoopUtilization(loopBefore)
  const endedAt = performance.now()
  // GC entries are delivered after the pause: let the observer's queue drain
  await new Promise((resolve) => setImmediate(resolve))
  return {
    pointsPerSecond: Math.round(points / (ms / 1000)),
    serverThreadBusy: Math.round(loop.utilization * 1000) / 1000,
    gcMs: gcPauses.pausedBetween(startedAt, endedAt),
    walRestarts: (walCheckpointSequence(databaseFile) - sequenceBefore) >>> 0,
  }
}

/**
 * The devices' side: on each 'round' message, `requestsPerRound` requests with `concurrency` in
 * flight, one second per message per device; answers the round's duration in ms.
 */
const clientSource = `
const { parentPort, workerData } = require('node:worker_threads')
const w = workerData
const nextTs = w.tokens.map(() => w.startMs)
const bodyFor = (device) => {
  const messages = []
  for (let index = 0; index < w.messagesPerRequest; index++) {
    const ts = nextTs[device]
    nextTs[device] = ts + 1000
    const values = {}
    for (let key = 0; key < w.keysPerMessage; key++) {
      values['k' + key] = Math.round(Math.sin(ts / 60000 + key) * 1000) / 10
    }
    messages.push({ ts, values })
  }
  return JSON.stringify(messages)
}
let mqttClients
const mqttRound = async () => {
  if (mqttClients === undefined) {
    const { connectAsync } = require('mqtt')
    mqttClients = await Promise.all(
      w.tokens.map((token) =>
        connectAsync(w.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5000 }),
      ),
    )
  }
  let sent = 0
  const worker = async (lane) => {
    while (sent < w.requestsPerRound) {
      sent++
      const device = (lane + sent * w.concurrency) % w.tokens.length
      await mqttClients[device].publishAsync('v1/devices/me/telemetry', bodyFor(device), { qos: 1 })
    }
  }
  await Promise.all(Array.from({ length: w.concurrency }, (_, lane) => worker(lane)))
}
parentPort.on('message', async (kind) => {
  if (kind === 'mqtt') {
    try {
      await mqttRound()
      parentPort.postMessage({ ms: 0 })
    } catch (error) {
      parentPort.postMessage({ error: String(error) })
    }
    return
  }
  if (kind === 'end') {
    for (const client of mqttClients ?? []) await client.endAsync(true).catch(() => {})
    parentPort.postMessage({ ms: 0 })
    return
  }
  try {
    let sent = 0
    const worker = async (lane) => {
      while (sent < w.requestsPerRound) {
        sent++
        const device = (lane + sent * w.concurrency) % w.tokens.length
        const response = await fetch(w.base + '/api/v1/' + w.tokens[device] + '/telemetry', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bodyFor(device),
        })
        const answer = await response.json()
        if (answer.code !== '0' || answer.datum.count !== w.pointsPerRequest) {
          throw new Error('ingest refused: ' + JSON.stringify(answer))
        }
      }
    }
    const startedAt = performance.now()
    await Promise.all(Array.from({ length: w.concurrency }, (_, lane) => worker(lane)))
    parentPort.postMessage({ ms: performance.now() - startedAt })
  } catch (error) {
    parentPort.postMessage({ error: String(error) })
  }
})
`

/** Runs the benchmark and writes its report; returns the report. */
export async function runIotIngestBench() {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const testApp = await createTestApp({
    env: {
      IOT_DEVICE_REQUESTS_PER_SECOND: '100000',
      IOT_DEVICE_REQUEST_BURST: '1000000',
      ...(hasMosquitto
        ? { MQTT: 'on', MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1' }
        : { MQTT: 'off' }),
    },
  })
  const { app, config } = testApp
  if (config.database.kind !== 'sqlite') throw new Error('iot-ingest measures SQLite')
  const anchorDb = new BetterSqlite3(config.database.file)
  anchorDb.pragma('journal_mode = WAL')
  anchorDb.pragma('synchronous = FULL')
  anchorDb.pragma('busy_timeout = 5000')
  try {
    const token = await signIn(app, testEditor)
    const project = await createProject(app, token, { name: 'Ingest bench' })
    const templates = await callApi<TemplatePage>(app, {
      url: templateRoutes.selectTemplatePage.path,
      token,
      json: { keyword: 'CAM-2D' },
    })
    const camera = templates.envelope.datum.list[0]!
    const tokens: string[] = []
    for (let index = 0; index < deviceCount; index++) {
      const poi = await callApi<PoiDetail>(app, {
        url: poiRoutes.creatPoi.path,
        token,
        json: {
          projectid: project.id,
          name: `Sensor ${index}`,
          category_id: camera.id,
          x: 121.5 + index * 1e-4,
          y: 31.2,
          devicecode: `BENCH-${index}`,
        },
      })
      const device = await callApi<DeviceWithToken>(app, {
        url: '/web/iot/provisionDevice',
        token,
        json: { poi_id: poi.envelope.datum.id },
      })
      tokens.push(device.envelope.datum.token)
    }
    await app.listen({ port, host: '127.0.0.1' })

    // the devices run in a worker thread, as devices are other machines: the server's thread
    // does only the server's work (both threads share the machine's 2 cores)
    const client = new Worker(clientSource, {
      eval: true,
      workerData: {
        base: `http://127.0.0.1:${port}`,
        tokens,
        startMs: Date.now() - 5 * 86_400_000,
        concurrency,
        messagesPerRequest,
        keysPerMessage,
        requestsPerRound,
        pointsPerRequest,
        mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
      },
    })
    const replies: Array<(value: { ms?: number; error?: string }) => void> = []
    client.on('message', (message: { ms?: number; error?: string }) => replies.shift()?.(message))
    const ingestRound = async () => {
      const reply = new Promise<{ ms?: number; error?: string }>((resolve) => replies.push(resolve))
      client.postMessage('round')
      const answer = await reply
      if (answer.error !== undefined) throw new Error(answer.error)
      return answer.ms!
    }
    const mqttStatus = () => app.deps.services.mqtt.status()
    if (!hasMosquitto) {
      console.warn('the MQTT case is skipped (mosquitto is not installed, or IOT_BENCH_MQTT=off)')
    }
    // published by the devices' thread; done when the server's subscriber has stored them all
    const mqttIngestRound = async () => {
      const target = mqttStatus().handled + requestsPerRound
      const refusedBefore = Object.values(mqttStatus().refused).reduce((sum, n) => sum + n, 0)
      const startedAt = performance.now()
      const reply = new Promise<{ ms?: number; error?: string }>((resolve) => replies.push(resolve))
      client.postMessage('mqtt')
      const answer = await reply
      if (answer.error !== undefined) throw new Error(answer.error)
      while (mqttStatus().handled < target) await new Promise((resolve) => setTimeout(resolve, 2))
      const ms = performance.now() - startedAt
      const refused = Object.values(mqttStatus().refused).reduce((sum, n) => sum + n, 0)
      if (refused !== refusedBefore)
        throw new Error(`MQTT refused: ${JSON.stringify(mqttStatus())}`)
      return ms
    }
    const startMs = Date.now() - 5 * 86_400_000

    // the anchor's rows go to series no device has
    const insert = anchorDb.prepare(
      'insert into iot_points (series_id, ts, value) values (?, ?, ?)',
    )
    const insertBatch = anchorDb.transaction((seriesBase: number, firstTs: number) => {
      for (let index = 0; index < messagesPerRequest; index++) {
        for (let key = 0; key < keysPerMessage; key++) {
          insert.run(seriesBase + key, firstTs + index * 1000, key + index / 10)
        }
      }
    })
    let anchorTs = startMs
    const anchorRound = () => {
      const startedAt = performance.now()
      for (let request = 0; request < requestsPerRound; request++) {
        insertBatch(1_000_000 + (request % deviceCount) * keysPerMessage, anchorTs)
        if (request % deviceCount === deviceCount - 1) anchorTs += messagesPerRequest * 1000
      }
      return performance.now() - startedAt
    }

    const points = requestsPerRound * pointsPerRequest
    const cases: IngestCase[] = [
      { name: 'httpIngest', label: 'HTTP ingest', run: ingestRound },
      ...(hasMosquitto
        ? [{ name: 'mqttIngest', label: 'MQTT ingest', run: mqttIngestRound } as const]
        : []),
      { name: 'bareInsertLoop', label: 'bare INSERT loop', run: async () => anchorRound() },
    ]
    const records = new Map<string, CaseRecord[]>(cases.map((ingestCase) => [ingestCase.name, []]))
    const gcPauses = watchGcPauses()
    const rssBeforeMb = process.memoryUsage().rss / 1_048_576
    for (let round = 0; round < rounds + 1; round++) {
      // the first round warms up; the order of the cases rotates from round to round
      const order = cases.map((_, index) => cases[(index + round) % cases.length]!)
      await quiet.beforeRound(`round ${round}`, round > 0)
      const timed: Array<[IngestCase, CaseRecord]> = []
      for (const ingestCase of order) {
        const run =
          round === 0
            ? ingestCase.run
            : () => profiledRun(`${ingestCase.name}-${round}`, ingestCase.run)
        timed.push([ingestCase, await timeCase(run, points, gcPauses, config.database.file)])
      }
      quiet.afterRound()
      if (round === 0) continue
      for (const [ingestCase, record] of timed) records.get(ingestCase.name)!.push(record)
      console.log(
        `round ${round}: ${timed
          .map(
            ([ingestCase, record]) =>
              `${ingestCase.label} ${record.pointsPerSecond} points/s (server thread ${Math.round(record.serverThreadBusy * 100)} % busy, GC ${record.gcMs} ms, ${record.walRestarts} WAL restarts)`,
          )
          .join(', ')}`,
      )
    }
    gcPauses.stop()
    const rssAfterMb = process.memoryUsage().rss / 1_048_576
    // the soak: ingest on and on, RSS after each round (heap garbage is collected by then or not:
    // growth that lasts over minutes is what a leak looks like)
    const soak: { minute: number; rssMb: number }[] = []
    const soakStartedAt = performance.now()
    while (performance.now() - soakStartedAt < soakMinutes * 60_000) {
      await ingestRound()
      if (hasMosquitto) await mqttIngestRound()
      const minute = (performance.now() - soakStartedAt) / 60_000
      soak.push({
        minute: Math.round(minute * 100) / 100,
        rssMb: Math.round(process.memoryUsage().rss / 1_048_576),
      })
    }
    const secondHalf = soak.filter((sample) => sample.minute >= soakMinutes / 2)
    const soakGrowthMb =
      secondHalf.length < 2 ? null : secondHalf.at(-1)!.rssMb - secondHalf[0]!.rssMb
    if (soak.length > 0) {
      console.log(
        `soak ${soakMinutes} min: RSS ${soak[0]!.rssMb} → ${soak.at(-1)!.rssMb} MB, second half +${soakGrowthMb} MB`,
      )
    }
    if (hasMosquitto) {
      const ended = new Promise((resolve) => replies.push(resolve))
      client.postMessage('end')
      await ended
    }
    await client.terminate()
    const summaryOf = (name: string) => {
      const list = records.get(name)!
      return {
        ...measure(
          list.map((record) => record.pointsPerSecond),
          'points/s',
        ),
        serverThreadBusy: measure(
          list.map((record) => record.serverThreadBusy),
          'share of the time',
        ),
        gcPauseMs: measure(
          list.map((record) => record.gcMs),
          'ms',
        ),
        walRestarts: measure(
          list.map((record) => record.walRestarts),
          'checkpoints',
        ),
      }
    }
    const anchorRecords = records.get('bareInsertLoop')!
    /** Ours ÷ the anchor of the same round, per round; the median of those is the result. */
    const roundRatiosOf = (ingestCase: IngestCase) => {
      const perRound = records
        .get(ingestCase.name)!
        .map((record, index) => record.pointsPerSecond / anchorRecords[index]!.pointsPerSecond)
      const sorted = [...perRound].sort((a, b) => a - b)
      const middle = Math.floor(sorted.length / 2)
      const median =
        sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
      const rounded = (value: number) => Math.round(value * 1000) / 1000
      return {
        ratio: {
          ours: ingestCase.label,
          anchor: 'bare INSERT loop',
          metric: "points/s, median of the rounds' ratios",
          value: rounded(median),
        } satisfies Ratio,
        spread: {
          case: ingestCase.name,
          min: rounded(sorted[0]!),
          max: rounded(sorted.at(-1)!),
          samples: perRound.map(rounded),
        },
      }
    }
    const compared = cases
      .filter((ingestCase) => ingestCase.name !== 'bareInsertLoop')
      .map(roundRatiosOf)
    const report = {
      benchmark: 'iot-ingest',
      description:
        `POST /api/v1/{token}/telemetry over HTTP (127.0.0.1, ${concurrency} requests in flight, ` +
        `${deviceCount} devices), ${requestsPerRound} requests of ${messagesPerRequest} messages × ` +
        `${keysPerMessage} keys per case and round; anchor: the same number of rows into iot_points of the ` +
        'same SQLite file by a prepared INSERT loop, one transaction per request-sized batch. ' +
        'MQTT: the same bodies published (QoS 1) to v1/devices/me/telemetry through mosquitto, ' +
        "timed until the server's subscriber stored them all. The cases of a round run back to " +
        'back, in an order rotating from round to round, after one untimed round. ' +
        'Points per second, higher is better; the ratio is ours ÷ the anchor of the same round, ' +
        'its median over the rounds.',
      database: 'sqlite',
      settings: { rounds, requestsPerRound, concurrency, pointsPerRound: points },
      machine,
      cases: {
        httpIngest: summaryOf('httpIngest'),
        mqttIngest: hasMosquitto
          ? summaryOf('mqttIngest')
          : 'skipped: mosquitto is not installed or IOT_BENCH_MQTT=off',
        bareInsertLoop: summaryOf('bareInsertLoop'),
      },
      ratios: compared.map((comparison) => comparison.ratio),
      roundRatios: compared.map((comparison) => comparison.spread),
      serverRssMb: { before: Math.round(rssBeforeMb), after: Math.round(rssAfterMb) },
      soak:
        soak.length === 0
          ? null
          : {
              minutes: soakMinutes,
              rounds: soak.length,
              rssSamples: soak,
              secondHalfGrowthMb: soakGrowthMb,
            },
      goals: compared.map((comparison) => ({
        goal: `${comparison.ratio.ours} ≥ 0.5× the bare INSERT loop (median of the rounds' ratios)`,
        met: comparison.ratio.value >= 0.5,
      })),
    }
    const path = writeBenchResult('iot-ingest', report, quiet)
    console.log(
      `${compared.map((comparison) => `${comparison.ratio.ours} ${comparison.ratio.value}× (rounds ${comparison.spread.min}–${comparison.spread.max})`).join('; ')}; written to ${path}`,
    )
    return report
  } finally {
    anchorDb.close()
    await testApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runIotIngestBench()
}
