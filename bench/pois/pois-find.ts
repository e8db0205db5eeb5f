/**
 * `findPoi` (issue 16 "Performance"): the first page and filtered pages of a 100,000-POI project
 * against the same calls on a 1,000-POI project. With the (project, created_at) index and one
 * index per filter, in page order, a page costs about the same however many POIs the project
 * has. Both databases are real (SQLite files, or PostgreSQL schemas when DATABASE_URL is set),
 * both answer through the whole HTTP stack (`inject`: auth, validation, envelope), and the calls
 * are interleaved one by one so machine noise hits both.
 *
 *   npx tsx bench/pois/pois-find.ts      (or `npm run bench -- pois-find`)
 *
 * Writes bench/results/pois-find.json. Goal: ratio ≤ 1.5 for the first page and the filtered
 * page (one template of five). A name search is reported too (without a goal: its answer's
 * total grows with the POIs).
 */
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { poiRoutes } from '../../contract/pois'
import { recountProject } from '../../server/modules/pois/poi-counts'
import { insertNameGrams } from '../../server/modules/pois/poi-search'
import { nextPoiId } from '../../server/modules/pois/poi-ids'
import { timestampOf } from '../../server/modules/time/clock'
import { createTestApp, signIn, type TestApp, testEditor } from '../../server/testing/test-app'
import { createProject } from '../../server/routes/web/project-test-kit'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from '../lib/stats'
import { timeListCall } from '../lib/timed-list-call'

const smallCount = 1_000
const largeCount = 100_000
const timedCalls = Number(process.env.POI_BENCH_CALLS) || 60
const warmupCalls = 20
const floorCount = 10
const names = ['Camera', 'Smoke detector', 'Door', 'Sensor', 'Lamp'] as const

interface Setup {
  testApp: TestApp
  token: string
  projectId: string
  templateIds: string[]
  floorIds: string[]
}

/** A building project of `count` POIs over 10 floors and the 5 library templates. */
export async function setUp(count: number): Promise<Setup> {
  const testApp = await createTestApp()
  const token = await signIn(testApp.app, testEditor)
  const project = await createProject(testApp.app, token, { kind: 'building', name: 'Bench' })
  const { database } = testApp.app.deps
  const templateIds = (
    await database.db
      .selectFrom('poi_templates')
      .select('id')
      .where('owner_id', '=', '')
      .orderBy('poicategory_code')
      .execute()
  ).map((row) => row.id)
  const baseMs = Date.parse('2026-01-01T00:00:00.000Z')
  const floorIds = Array.from({ length: floorCount }, () => randomUUID())
  await database.db.transaction().execute(async (transaction) => {
    await transaction
      .insertInto('building_floors')
      .values(
        floorIds.map((id, index) => ({
          id,
          project_id: project.id,
          name: `F${index + 1}`,
          elevation: index * 3,
          sort_order: index,
          floor_key: null,
          created_at: timestampOf(baseMs),
          updated_at: timestampOf(baseMs),
        })),
      )
      .execute()
    // in batches of 1,000, as creatPoiList would have made them
    for (let start = 0; start < count; start += 1_000) {
      const at = timestampOf(baseMs + start)
      const rows = Array.from({ length: Math.min(1_000, count - start) }, (_, offset) => {
        const index = start + offset
        const kind = index % names.length
        return {
          id: nextPoiId(baseMs + start),
          project_id: project.id,
          name: `${names[kind]} ${index}`,
          category_id: templateIds[kind]!,
          poicategory_code: 'x',
          template_type: '0',
          category_type: '2D',
          floor_id: floorIds[index % floorCount]!,
          x: index % 1000,
          y: Math.floor(index / 1000),
          z: 0,
          devicecode: `D-${String(index).padStart(6, '0')}`,
          created_at: at,
          updated_at: at,
        }
      })
      for (let at = 0; at < rows.length; at += 200) {
        await transaction
          .insertInto('pois')
          .values(rows.slice(at, at + 200))
          .execute()
      }
      await insertNameGrams(transaction, rows)
    }
    await recountProject(transaction, project.id)
  })
  if (database.dialect === 'postgres') {
    await sql`vacuum analyze pois, poi_name_grams`.execute(database.db)
  } else {
    await sql`analyze`.execute(database.db)
    // the seed went through the write-ahead log: fold it into the database file, as SQLite
    // does on its own after a while, so reads do not look pages up in a huge log first
    await sql`pragma wal_checkpoint(truncate)`.execute(database.db)
  }
  return { testApp, token, projectId: project.id, templateIds, floorIds }
}

/** One list call's time; see {@link timeListCall}. */
function timeCall(setup: Setup, body: Record<string, unknown>, expectedTotal: number) {
  return timeListCall(
    setup.testApp.app,
    {
      url: `${poiRoutes.findPoi.path}?pageNo=1&pageSize=20`,
      token: setup.token,
      json: { projectid: setup.projectId, ...body },
    },
    expectedTotal,
  )
}

/** Runs the benchmark and writes its report; returns the report. */
export async function runPoisFindBench() {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const seedStartedMs = performance.now()
  const small = await setUp(smallCount)
  const large = await setUp(largeCount)
  const seedSeconds = Math.round((performance.now() - seedStartedMs) / 100) / 10
  try {
    const cases = [
      {
        name: 'first page',
        body: () => ({}),
        small: smallCount,
        large: largeCount,
        hasGoal: true,
      },
      {
        name: 'filtered page: one template of five',
        body: (setup: Setup) => ({ category_id: setup.templateIds[1] }),
        small: smallCount / 5,
        large: largeCount / 5,
        hasGoal: true,
      },
      {
        name: 'filtered page: one floor of ten',
        body: (setup: Setup) => ({ floor_id: setup.floorIds[3] }),
        small: smallCount / 10,
        large: largeCount / 10,
        hasGoal: true,
      },
      {
        name: 'device code prefix (D-0004: 100 POIs in both)',
        body: () => ({ devicecode: 'D-0004' }),
        small: 100,
        large: 100,
        hasGoal: false,
      },
      {
        name: 'name search (door 1, grows with the POIs)',
        body: () => ({ name: 'door 1' }),
        small: 22,
        large: 2_222,
        hasGoal: false,
      },
    ] as const
    const results = []
    for (const testCase of cases) {
      for (let index = 0; index < warmupCalls; index++) {
        await timeCall(small, testCase.body(small), testCase.small)
        await timeCall(large, testCase.body(large), testCase.large)
      }
      const smallMs: number[] = []
      const largeMs: number[] = []
      await quiet.beforeRound(testCase.name)
      for (let index = 0; index < timedCalls; index++) {
        // alternate which goes first, so neither always runs on a warmer cache
        if (index % 2 === 0) {
          smallMs.push(await timeCall(small, testCase.body(small), testCase.small))
          largeMs.push(await timeCall(large, testCase.body(large), testCase.large))
        } else {
          largeMs.push(await timeCall(large, testCase.body(large), testCase.large))
          smallMs.push(await timeCall(small, testCase.body(small), testCase.small))
        }
      }
      quiet.afterRound()
      const smallP50 = percentile(smallMs, 0.5)
      const largeP50 = percentile(largeMs, 0.5)
      const ratio = Math.round((largeP50 / smallP50) * 1000) / 1000
      results.push({
        case: testCase.name,
        totals: { [`pois${smallCount}`]: testCase.small, [`pois${largeCount}`]: testCase.large },
        [`pois${smallCount}`]: {
          p50Ms: smallP50,
          p99Ms: percentile(smallMs, 0.99),
          ...pick(measure(smallMs, 'ms')),
        },
        [`pois${largeCount}`]: {
          p50Ms: largeP50,
          p99Ms: percentile(largeMs, 0.99),
          ...pick(measure(largeMs, 'ms')),
        },
        ratios: [ratioOf(`${largeCount} POIs`, `${smallCount} POIs`, 'p50', largeP50, smallP50)],
        goal: testCase.hasGoal ? { ratioAtMost: 1.5, met: ratio <= 1.5 } : null,
      })
      console.log(
        `${testCase.name}: p50 ${smallP50} ms (${smallCount}) vs ${largeP50} ms (${largeCount}), ratio ${ratio}`,
      )
    }
    const report = {
      benchmark: 'pois-find',
      description:
        'POST /web/poi/findPoi (page of 20 with its total) through inject (auth, validation, ' +
        `envelope) on a real database, a building project of ${smallCount} vs ${largeCount} POIs ` +
        '(5 templates, 10 floors), calls interleaved. The ratio is the larger project’s time ÷ ' +
        'the smaller’s: near 1 means the indexes keep the cost flat.',
      database: small.testApp.app.deps.database.dialect,
      seedSeconds,
      timedCallsPerSide: timedCalls,
      machine,
      results,
    }
    const path = writeBenchResult('pois-find', report, quiet)
    console.log(`written to ${path}`)
    return report
  } finally {
    await small.testApp.close()
    await large.testApp.close()
  }
}

function pick(measurement: ReturnType<typeof measure>) {
  return { medianMs: measurement.median, minMs: measurement.min, maxMs: measurement.max }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runPoisFindBench()
}
