/**
 * Big POI list bodies (issue 13): how prompt the server stays while one editor posts the
 * largest list the contract takes (100,000 POIs in one `creatPoiList`, ~9 MB of JSON).
 *
 * In one process (the real app on SQLite through `inject`), a client asks `/web/health` one
 * request at a time, 5 ms apart, while `perf_hooks.monitorEventLoopDelay` records how late the
 * event loop ran. Side by side in each round:
 *
 * - `idle`: health alone (the anchor of the health ratio);
 * - `list-100000-thread`: health while a 100,000-POI `creatPoiList` is answered, its last item
 *   wrong (parsed and validated in the worker thread, then refused naming `list.99999.x`: the
 *   whole parse, no write);
 * - `list-100000-main` (the anchor of the parse): the same body parsed and validated on the
 *   request thread, as every list body was before (`parsePoiListBodyText`, what the worker runs);
 * - `list-2000-create`: health while 2,000 POIs are created by `creatPoiList` as the server
 *   does it now: the ~200 KB body parsed in the thread (over 32 KiB), then the transaction's
 *   checks and writes on the request thread in slices of ~5 ms (jobs/event-loop-slices.ts);
 * - `list-2000-create-main` (the anchor of the create, the old path): the same 2,000 POIs
 *   parsed and validated on the request thread (bodies under 256 KiB were) and created in one
 *   transaction without slices (only the statements' own turns, plugins/db.ts).
 *
 * Goals: health p99 ≤ 50 ms and ≤ 2 × idle while the 100,000-POI list is parsed; while 2,000
 * POIs are created, the event loop's longest hold well under the old path's (ratio in the
 * report).
 *
 *   npx tsx bench/flood/flood-poi-list.ts    (BENCH_ROUNDS=3 by default)
 *
 * Writes bench/results/flood-poi-list.json.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { poiRoutes } from '../../contract/pois'
import { type TemplatePage, templateRoutes } from '../../contract/templates'
import { toAuthUser } from '../../server/modules/accounts/users.service'
import { createEventLoopSlices } from '../../server/modules/jobs/event-loop-slices'
import { parsePoiListBodyText } from '../../server/modules/pois/poi-list-body'
import { createPois } from '../../server/modules/pois/poi-writes'
import { createProject } from '../../server/routes/web/project-test-kit'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testEditor,
} from '../../server/testing/test-app'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from '../lib/stats'

const rounds = Number(process.env.BENCH_ROUNDS) || 3
const healthGapMs = 5
const idleSamples = 200

function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN
}
const round2 = (value: number) => Math.round(value * 100) / 100

/** Health latencies and event-loop delay while `work` runs (or for `idleSamples`). */
async function healthDuring(
  testApp: TestApp,
  work: (() => Promise<unknown>) | undefined,
): Promise<{
  healthP99Ms: number
  healthMaxMs: number
  samples: number
  loopDelayP99Ms: number
  loopDelayMaxMs: number
  workMs: number
}> {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  let isDone = work === undefined
  const startedAtMs = performance.now()
  let workMs = 0
  const working = work?.().finally(() => {
    workMs = performance.now() - startedAtMs
    isDone = true
  })
  const samples: number[] = []
  // Each health request is due `healthGapMs` after the last answer; its latency counts from
  // then, so a request that could not even be sent while the event loop was held counts the
  // wait (in its own process the client would have sent it, and it would have waited).
  let dueAtMs = performance.now()
  while (samples.length < (work === undefined ? idleSamples : 20) || !isDone) {
    // health asks the database once a (test clock) second, as a monitor polling it would
    testApp.clock.advanceMs(healthGapMs)
    const answer = await testApp.app.inject({ method: 'GET', url: '/web/health' })
    if (answer.statusCode !== 200) throw new Error(`health answered ${answer.statusCode}`)
    const answeredAtMs = performance.now()
    samples.push(answeredAtMs - dueAtMs)
    dueAtMs = answeredAtMs + healthGapMs
    await new Promise((resolve) => setTimeout(resolve, healthGapMs))
  }
  await working
  histogram.disable()
  return {
    healthP99Ms: round2(percentile(samples, 0.99)),
    healthMaxMs: round2(Math.max(...samples)),
    samples: samples.length,
    loopDelayP99Ms: round2(histogram.percentile(99) / 1e6),
    loopDelayMaxMs: round2(histogram.max / 1e6),
    workMs: Math.round(workMs),
  }
}

/** Runs the benchmark and writes its report. */
export async function runFloodPoiListBench() {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const testApp = await createTestApp()
  try {
    const { app } = testApp
    const token = await signIn(app, testEditor)
    const project = await createProject(app, token, { name: 'Bench city' })
    const templates = await callApi<TemplatePage>(app, {
      url: templateRoutes.selectTemplatePage.path,
      token,
      json: { keyword: 'CAM-2D' },
    })
    const camera = templates.envelope.datum.list[0]!
    const largest = Array.from({ length: 100_000 }, (_, index) => ({
      name: `Lamp ${index}`,
      category_id: camera.id,
      x: 121 + index * 1e-6,
      y: 31.2,
      z: 3,
      heading: 90,
      devicecode: `L-${index}`,
    })) as Record<string, unknown>[]
    largest[99_999] = { ...largest[99_999], x: 'east' }
    const largestText = JSON.stringify({ projectid: project.id, list: largest })
    /** Posts a body built beforehand (building it is the client's work, not the server's). */
    const post = async (payload: string, expected: string) => {
      const answer = await app.inject({
        method: 'POST',
        url: poiRoutes.creatPoiList.path,
        headers: { 'content-type': 'application/json', token },
        payload,
      })
      const envelope = answer.json() as { code: string; message: string }
      if (envelope.code !== expected) throw new Error(envelope.message)
    }
    const cases: Record<string, Array<Awaited<ReturnType<typeof healthDuring>>>> = {
      idle: [],
      'list-100000-thread': [],
      'list-100000-main': [],
      'list-2000-create': [],
      'list-2000-create-main': [],
    }
    const editor = toAuthUser((await app.deps.repositories.users.findByName(testEditor.name))!)
    /** 2,000 new POIs of `round` (names differ per round and path). */
    const createTextOf = (label: string) =>
      JSON.stringify({
        projectid: project.id,
        list: Array.from({ length: 2_000 }, (_, index) => ({
          name: `${label} lamp ${index}`,
          category_id: camera.id,
          x: 121.5 + index * 1e-6,
          y: 31.3,
        })),
      })
    for (let round = 0; round < rounds + 1; round++) {
      const isTimed = round > 0
      await quiet.beforeRound(`round ${round}`, isTimed)
      const createText = createTextOf(`Round ${round}`)
      const createMainText = createTextOf(`Round ${round} main`)
      const idle = await healthDuring(testApp, undefined)
      const thread = await healthDuring(testApp, () => post(largestText, '1000'))
      const main = await healthDuring(testApp, async () => {
        // what the request thread did for such a body before: the same parse, in one go
        await new Promise((resolve) => setTimeout(resolve, 20))
        try {
          parsePoiListBodyText('creatPoiList', largestText)
        } catch {
          // refused naming list.99999.x, as above
        }
      })
      const create = await healthDuring(testApp, () => post(createText, '0'))
      const createMain = await healthDuring(testApp, async () => {
        // the old path: the body parsed here, the writes without slices of their own
        await new Promise((resolve) => setTimeout(resolve, 20))
        const body = parsePoiListBodyText('creatPoiList', createMainText)
        await app.deps.database.db.transaction().execute((transaction) =>
          createPois(transaction, editor, { id: body.projectid, kind: 'city' }, body.list, {
            nowIso: new Date().toISOString(),
            isCopyProperties: false,
            slices: createEventLoopSlices(Number.POSITIVE_INFINITY),
          }),
        )
      })
      quiet.afterRound()
      if (!isTimed) continue
      cases.idle!.push(idle)
      cases['list-100000-thread']!.push(thread)
      cases['list-100000-main']!.push(main)
      cases['list-2000-create']!.push(create)
      cases['list-2000-create-main']!.push(createMain)
      console.log(
        `round ${round}: health p99 idle ${idle.healthP99Ms} ms, 100,000 in thread ${thread.healthP99Ms} ms (loop p99 ${thread.loopDelayP99Ms}, max ${thread.loopDelayMaxMs}; ${thread.workMs} ms), on main ${main.healthP99Ms} ms (loop max ${main.loopDelayMaxMs}), create 2,000 ${create.healthP99Ms} ms (loop max ${create.loopDelayMaxMs}; ${create.workMs} ms), old path ${createMain.healthP99Ms} ms (loop max ${createMain.loopDelayMaxMs}; ${createMain.workMs} ms)`,
      )
    }
    const medianOf = (
      name: string,
      key: 'healthP99Ms' | 'loopDelayMaxMs' | 'loopDelayP99Ms' | 'workMs',
    ) =>
      measure(
        cases[name]!.map((sample) => sample[key]),
        'ms',
      ).median
    const idleP99 = medianOf('idle', 'healthP99Ms')
    const threadP99 = medianOf('list-100000-thread', 'healthP99Ms')
    const mainP99 = medianOf('list-100000-main', 'healthP99Ms')
    const createP99 = medianOf('list-2000-create', 'healthP99Ms')
    const createMainP99 = medianOf('list-2000-create-main', 'healthP99Ms')
    const createHold = medianOf('list-2000-create', 'loopDelayMaxMs')
    const createMainHold = medianOf('list-2000-create-main', 'loopDelayMaxMs')
    const report = {
      benchmark: 'flood-poi-list',
      description:
        'GET /web/health p99 (inject, one at a time, 5 ms apart) and event-loop delay (monitorEventLoopDelay) with the app idle, while a 100,000-POI creatPoiList (last item wrong: the whole parse, no write) is parsed in the worker thread, while the same body is parsed on the request thread (the anchor: how it was), and while 2,000 POIs are created as now (body parsed in the thread, writes in ~5 ms slices) and by the old path (body parsed on the request thread, writes unsliced); median over rounds.',
      database: app.deps.database.dialect,
      machine,
      bodyBytes: Buffer.byteLength(largestText),
      cases: Object.fromEntries(
        Object.entries(cases).map(([name, samples]) => [
          name,
          {
            healthP99MsMedian: medianOf(name, 'healthP99Ms'),
            loopDelayP99MsMedian: medianOf(name, 'loopDelayP99Ms'),
            loopDelayMaxMsMedian: medianOf(name, 'loopDelayMaxMs'),
            workMsMedian: medianOf(name, 'workMs'),
            rounds: samples,
          },
        ]),
      ),
      ratios: [
        ratioOf('list-100000-thread', 'idle', 'health p99', threadP99, idleP99),
        ratioOf('list-100000-main', 'idle', 'health p99', mainP99, idleP99),
        ratioOf(
          'list-2000-create',
          'list-2000-create-main',
          'health p99',
          createP99,
          createMainP99,
        ),
        ratioOf(
          'list-2000-create',
          'list-2000-create-main',
          'event-loop longest hold',
          createHold,
          createMainHold,
        ),
        ratioOf('list-2000-create', 'idle', 'health p99', createP99, idleP99),
      ],
      goals: {
        'health p99 ≤ 50 ms while a 100,000-POI list is parsed': threadP99 <= 50,
        'health p99 ≤ 2 × idle while a 100,000-POI list is parsed': threadP99 <= 2 * idleP99,
        'health p99 ≤ 50 ms while 2,000 POIs are created': createP99 <= 50,
        'health p99 ≤ 2 × idle while 2,000 POIs are created': createP99 <= 2 * idleP99,
      },
    }
    const path = writeBenchResult('flood-poi-list', report, quiet)
    console.log(`written to ${path}`)
    return report
  } finally {
    await testApp.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runFloodPoiListBench()
