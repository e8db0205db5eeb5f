/**
 * Batched HTTP telemetry ingest on SQLite (issue 17 "Performance": ≥ 0.5× the rate of the same
 * rows inserted by a bare batched INSERT loop into the same database). Ours: the server listening
 * on a real socket, `POST /api/v1/{token}/telemetry` from several devices at once, each body a
 * list of `{ts, values}` messages (token check, rate limit, reading the body, the transaction with
 * raw points, 1-minute and 1-hour rollups, the series' latest values and the device's last-seen
 * time). The anchor: the same number of rows into `iot_points` of the same database file by a
 * prepared `INSERT` in a loop, one transaction per request-sized batch, nothing else — what the
 * database itself needs. Both commit with the server's durability (WAL, `synchronous=FULL`).
 * Server RSS is recorded before and after the rounds.
 *
 * The MQTT case: the same bodies published by the same devices to `v1/devices/me/telemetry`
 * (QoS 1) through the broker the server starts (Debian's mosquitto with our auth plugin), timed
 * until the server's subscriber has stored them all — points per second through the broker,
 * against the same anchor. Skipped (and said so) where mosquitto is not installed.
 *
 *   npx tsx bench/iot-ingest.ts      (or `npm run bench -- iot-ingest`)
 *
 * Writes bench/results/iot-ingest.json. IOT_BENCH_ROUNDS (default 3), IOT_BENCH_PORT (5482),
 * IOT_BENCH_MQTT_PORT (5483). IOT_BENCH_SOAK_MINUTES (default 0; the goal says 10): after the
 * timed rounds, ingest goes on (HTTP and MQTT rounds back to back) for that long, and the
 * process's RSS (server, broker client and the devices' thread: one process) is sampled after
 * each round; the report gives the samples and the growth over the soak's second half.
 */
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
import { machineInfo, measure, ratioOf, writeBenchResult } from './lib/stats'

const rounds = Number(process.env.IOT_BENCH_ROUNDS) || 3
const port = Number(process.env.IOT_BENCH_PORT) || 5482
const mqttPort = Number(process.env.IOT_BENCH_MQTT_PORT) || 5483
const hasMosquitto = findMosquitto(undefined) !== undefined
const soakMinutes = Number(process.env.IOT_BENCH_SOAK_MINUTES) || 0
const deviceCount = 8
/** Requests in flight at once (one per device at a time). */
const concurrency = 4
const messagesPerRequest = 50
const keysPerMessage = 10
const requestsPerRound = 80
const pointsPerRequest = messagesPerRequest * keysPerMessage

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
    if (!hasMosquitto) console.warn('mosquitto is not installed: the MQTT case is skipped')
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

    const oursRate: number[] = []
    const mqttRate: number[] = []
    const anchorRate: number[] = []
    const points = requestsPerRound * pointsPerRequest
    const rssBeforeMb = process.memoryUsage().rss / 1_048_576
    for (let round = 0; round < rounds + 1; round++) {
      // the first round warms up
      await quiet.beforeRound(`round ${round}`, round > 0)
      const oursMs = await ingestRound()
      const mqttMs = hasMosquitto ? await mqttIngestRound() : null
      const anchorMs = anchorRound()
      quiet.afterRound()
      if (round === 0) continue
      oursRate.push(Math.round(points / (oursMs / 1000)))
      if (mqttMs !== null) mqttRate.push(Math.round(points / (mqttMs / 1000)))
      anchorRate.push(Math.round(points / (anchorMs / 1000)))
      console.log(
        `round ${round}: HTTP ingest ${oursRate.at(-1)} points/s, MQTT ingest ${mqttRate.at(-1) ?? '-'} points/s, bare INSERT loop ${anchorRate.at(-1)} points/s`,
      )
    }
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
    const ours = measure(oursRate, 'points/s')
    const anchor = measure(anchorRate, 'points/s')
    const ratio = ratioOf(
      'HTTP ingest',
      'bare INSERT loop',
      'points/s median',
      ours.median,
      anchor.median,
    )
    const mqtt = hasMosquitto ? measure(mqttRate, 'points/s') : null
    const mqttRatio =
      mqtt === null
        ? null
        : ratioOf('MQTT ingest', 'bare INSERT loop', 'points/s median', mqtt.median, anchor.median)
    const report = {
      benchmark: 'iot-ingest',
      description:
        `POST /api/v1/{token}/telemetry over HTTP (127.0.0.1, ${concurrency} requests in flight, ` +
        `${deviceCount} devices), ${requestsPerRound} requests of ${messagesPerRequest} messages × ` +
        `${keysPerMessage} keys per round; anchor: the same number of rows into iot_points of the ` +
        'same SQLite file by a prepared INSERT loop, one transaction per request-sized batch. ' +
        'MQTT: the same bodies published (QoS 1) to v1/devices/me/telemetry through mosquitto, ' +
        "timed until the server's subscriber stored them all. " +
        'Points per second, higher is better; the ratio is ours ÷ anchor.',
      database: 'sqlite',
      machine,
      cases: {
        httpIngest: ours,
        ...(mqtt === null
          ? { mqttIngest: 'skipped: mosquitto is not installed' }
          : { mqttIngest: mqtt }),
        bareInsertLoop: anchor,
      },
      ratios: mqttRatio === null ? [ratio] : [ratio, mqttRatio],
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
      goals: [
        {
          goal: 'HTTP ingest ≥ 0.5× the bare INSERT loop (median points/s)',
          met: ratio.value >= 0.5,
        },
        ...(mqttRatio === null
          ? []
          : [
              {
                goal: 'MQTT ingest ≥ 0.5× the bare INSERT loop (median points/s)',
                met: mqttRatio.value >= 0.5,
              },
            ]),
      ],
    }
    const path = writeBenchResult('iot-ingest', report, quiet)
    console.log(`ratio ${ratio.value}; written to ${path}`)
    return report
  } finally {
    anchorDb.close()
    await testApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runIotIngestBench()
}
