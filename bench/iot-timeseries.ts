/**
 * `getDeviceTimeseries` over 30 days of 1-second data (issue 17 "Performance": one key, 1-hour
 * average, ≤ 50 ms, "rollups, not a scan"). The device is provisioned and its series made through
 * the real routes (one HTTP telemetry post); the 30 days — 2,592,000 raw points and the 1-minute
 * and 1-hour rollups the ingest keeps for them — are then written straight into the same SQLite
 * file by a prepared INSERT loop, because pushing 2.6 million points through the ingest would
 * take minutes and is what `iot-ingest` measures. Ours: `POST /web/poi/getDeviceTimeseries`
 * (`app.inject`, the full route: validation, access, the rollup plan) with `interval` 1 h,
 * `agg` AVG, 720 buckets. Anchor: the scan it avoids — the same hourly averages by one
 * `GROUP BY` over the raw points. Both answer the same 720 values (checked).
 *
 *   npx tsx bench/iot-timeseries.ts      (or `npm run bench -- iot-timeseries`)
 *
 * Writes bench/results/iot-timeseries.json. IOT_TS_BENCH_ROUNDS (default 20).
 */
import BetterSqlite3 from 'better-sqlite3'
import type { DeviceTimeseries, DeviceWithToken } from '../contract/iot'
import { type PoiDetail, poiRoutes } from '../contract/pois'
import type { TemplatePage } from '../contract/templates'
import { templateRoutes } from '../contract/templates'
import { createProject } from '../server/routes/web/project-test-kit'
import { callApi, createTestApp, signIn, testEditor } from '../server/testing/test-app'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'

const rounds = Number(process.env.IOT_TS_BENCH_ROUNDS) || 20
const days = 30
const hourMs = 3_600_000
const pointCount = days * 86_400

/** Runs the benchmark and writes its report; returns the report. */
export async function runIotTimeseriesBench() {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  // raw points are kept for the whole range here (the worst case for a scan)
  const testApp = await createTestApp({ env: { IOT_RAW_RETENTION_DAYS: '60' } })
  const { app, config } = testApp
  if (config.database.kind !== 'sqlite') throw new Error('iot-timeseries measures SQLite')
  const db = new BetterSqlite3(config.database.file)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  try {
    const token = await signIn(app, testEditor)
    const project = await createProject(app, token, { name: 'Timeseries bench' })
    const templates = await callApi<TemplatePage>(app, {
      url: templateRoutes.selectTemplatePage.path,
      token,
      json: { keyword: 'CAM-2D' },
    })
    const poi = await callApi<PoiDetail>(app, {
      url: poiRoutes.creatPoi.path,
      token,
      json: {
        projectid: project.id,
        name: 'Boiler sensor',
        category_id: templates.envelope.datum.list[0]!.id,
        x: 121.5,
        y: 31.2,
        devicecode: 'TS-BENCH',
      },
    })
    const device = (
      await callApi<DeviceWithToken>(app, {
        url: '/web/iot/provisionDevice',
        token,
        json: { poi_id: poi.envelope.datum.id },
      })
    ).envelope.datum
    // 30 whole days ending at the last whole hour before now
    const endTs = Math.floor(Date.now() / hourMs) * hourMs - hourMs
    const startTs = endTs - days * 86_400_000
    // the series through the real ingest: its first point
    const first = await app.inject({
      method: 'POST',
      url: `/api/v1/${device.token}/telemetry`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ts: startTs, values: { temperature: 20 } }),
    })
    if (first.json().code !== '0') throw new Error(`ingest: ${first.body}`)
    const series = db
      .prepare('select id from iot_series where device_id = ? and key = ?')
      .get(device.device.id, 'temperature') as { id: number }

    console.log(`writing ${pointCount} points and their rollups…`)
    const valueAt = (ts: number) => 20 + 5 * Math.sin(ts / 3_600_000) + ((ts / 1000) % 7) / 10
    const insertPoint = db.prepare(
      'insert or replace into iot_points (series_id, ts, value) values (?, ?, ?)',
    )
    const insertMinute = db.prepare(
      'insert or replace into iot_rollups_1m (series_id, bucket_ts, count, sum, min, max) values (?, ?, ?, ?, ?, ?)',
    )
    const insertHour = db.prepare(
      'insert or replace into iot_rollups_1h (series_id, bucket_ts, count, sum, min, max) values (?, ?, ?, ?, ?, ?)',
    )
    const writeHour = db.transaction((hourStart: number) => {
      let hourSum = 0
      let hourMin = Number.POSITIVE_INFINITY
      let hourMax = Number.NEGATIVE_INFINITY
      for (let minute = 0; minute < 60; minute++) {
        const minuteStart = hourStart + minute * 60_000
        let sum = 0
        let min = Number.POSITIVE_INFINITY
        let max = Number.NEGATIVE_INFINITY
        for (let second = 0; second < 60; second++) {
          const ts = minuteStart + second * 1000
          const value = valueAt(ts)
          insertPoint.run(series.id, ts, value)
          sum += value
          min = Math.min(min, value)
          max = Math.max(max, value)
        }
        insertMinute.run(series.id, minuteStart, 60, sum, min, max)
        hourSum += sum
        hourMin = Math.min(hourMin, min)
        hourMax = Math.max(hourMax, max)
      }
      insertHour.run(series.id, hourStart, 3600, hourSum, hourMin, hourMax)
    })
    for (let hour = startTs; hour < endTs; hour += hourMs) writeHour(hour)
    db.pragma('wal_checkpoint(TRUNCATE)')

    const body = {
      device_id: device.device.id,
      keys: 'temperature',
      startTs,
      endTs,
      interval: hourMs,
      agg: 'AVG',
      limit: 1000,
    }
    const ours = async () => {
      const startedAt = performance.now()
      const answer = await callApi<DeviceTimeseries>(app, {
        url: '/web/poi/getDeviceTimeseries',
        token,
        json: body,
      })
      const ms = performance.now() - startedAt
      if (answer.envelope.code !== '0') throw new Error(answer.envelope.message)
      return { ms, values: answer.envelope.datum.temperature ?? [] }
    }
    const scan = db.prepare(
      `select (ts / ${hourMs}) * ${hourMs} as bucket, avg(value) as value from iot_points
       where series_id = ? and ts >= ? and ts < ? group by bucket order by bucket`,
    )
    const anchor = () => {
      const startedAt = performance.now()
      const rows = scan.all(series.id, startTs, endTs) as { bucket: number; value: number }[]
      return { ms: performance.now() - startedAt, values: rows }
    }

    const oursMs: number[] = []
    const anchorMs: number[] = []
    for (let round = 0; round < rounds + 1; round++) {
      await quiet.beforeRound(`round ${round}`, round > 0)
      const a = await ours()
      const b = anchor()
      quiet.afterRound()
      if (round === 0) {
        // the same answer: 720 hourly averages, equal to the scan's
        if (a.values.length !== days * 24 || b.values.length !== days * 24) {
          throw new Error(
            `expected ${days * 24} buckets, got ${a.values.length} and ${b.values.length}`,
          )
        }
        for (let index = 0; index < a.values.length; index++) {
          if (Math.abs(a.values[index]!.value - b.values[index]!.value) > 1e-6) {
            throw new Error(
              `bucket ${index} differs: ${a.values[index]!.value} ≠ ${b.values[index]!.value}`,
            )
          }
        }
        continue
      }
      oursMs.push(a.ms)
      anchorMs.push(b.ms)
      console.log(
        `round ${round}: getDeviceTimeseries ${a.ms.toFixed(1)} ms, raw scan ${b.ms.toFixed(1)} ms`,
      )
    }
    const oursM = measure(oursMs, 'ms')
    const anchorM = measure(anchorMs, 'ms')
    const ratio = ratioOf(
      'getDeviceTimeseries (rollups)',
      'GROUP BY over raw points',
      'ms median',
      oursM.median,
      anchorM.median,
    )
    const p95 = percentile(oursMs, 0.95)
    const report = {
      benchmark: 'iot-timeseries',
      description:
        `POST /web/poi/getDeviceTimeseries of one key over ${days} days of 1-second data ` +
        `(${pointCount} raw points, their 1-minute and 1-hour rollups), interval 1 h, AVG, through ` +
        'the full route (app.inject); anchor: the same hourly averages by one GROUP BY over the raw ' +
        'points of the same SQLite file. Milliseconds per query, lower is better.',
      database: 'sqlite',
      machine,
      cases: { getDeviceTimeseries: { ...oursM, p95 }, rawScan: anchorM },
      ratios: [ratio],
      goals: [{ goal: 'getDeviceTimeseries 30 days at 1 h ≤ 50 ms (p95)', met: p95 <= 50 }],
    }
    const path = writeBenchResult('iot-timeseries', report, quiet)
    console.log(`p95 ${p95} ms, ratio ${ratio.value}; written to ${path}`)
    return report
  } finally {
    db.close()
    await testApp.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runIotTimeseriesBench()
}
