/**
 * The template list and search (`/poi/selectPoiTemplatePage`, issue 15 "Performance") at 10,000
 * templates of one owner against the same calls at 100: with the (owner, created_at) index and
 * the gram index of search, a page costs about the same however many templates the owner has.
 * Both databases are real (SQLite files, or PostgreSQL schemas when DATABASE_URL is set), both
 * answer through the whole HTTP stack (`inject`: auth, validation, envelope), and the calls are
 * interleaved one by one so machine noise hits both.
 *
 *   npx tsx bench/templates/templates-list.ts      (or `npm run bench -- templates`)
 *
 * Writes bench/results/templates.json. Goal: ratio ≤ 1.5 for the list and a selective search.
 * A search matching a fixed share of all templates (one in five) is reported too: its answer's
 * total grows with the templates, so its cost does.
 */
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { templateCalls } from '../../contract/templates'
import { timestampOf } from '../../server/modules/time/clock'
import { writeGrams } from '../../server/modules/templates/template-search'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testEditor,
} from '../../server/testing/test-app'
import { timeInterleaved } from '../lib/interleaved'
import { timeListCall } from '../lib/timed-list-call'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, ratioOf, writeBenchResult } from '../lib/stats'

const smallCount = 100
const largeCount = 10_000
const timedCalls = 150
const warmupCalls = 20
const kinds = ['Camera', 'Sensor', 'Pump', 'Valve', 'Lamp'] as const

/** Fills the demo editor's templates: `<kind> <n>`, code `T-<n, 5 digits>`, under one category. */
async function seedTemplates(testApp: TestApp, count: number): Promise<void> {
  const { database, repositories } = testApp.app.deps
  const owner = await repositories.users.findByName(testEditor.name)
  if (!owner) throw new Error('the test app has no demo editor')
  const baseMs = Date.parse('2026-01-01T00:00:00.000Z')
  await database.db.transaction().execute(async (transaction) => {
    const categoryId = randomUUID()
    await transaction
      .insertInto('poi_categories')
      .values({
        id: categoryId,
        owner_id: owner.id,
        pid: '1',
        kind: 'poi',
        category_name: 'Bench',
        created_at: timestampOf(baseMs),
        updated_at: timestampOf(baseMs),
      })
      .execute()
    for (let index = 0; index < count; index++) {
      const at = timestampOf(baseMs + index * 1_000)
      const row = {
        id: randomUUID(),
        owner_id: owner.id,
        uuid: randomUUID(),
        name: `${kinds[index % kinds.length]} ${index}`,
        poicategory_code: `T-${String(index).padStart(5, '0')}`,
        piddes: `1,${categoryId}`,
        category_id: categoryId,
        type: '2D' as const,
        iconpath: '/web/files/icon.png',
        category_zip_uuid: '',
        bgtype: '1',
        template_type: '0' as const,
        use_shadow_editor_render: 0,
        is_iot_device: 0,
        levels_json: '[]',
        file_path: '',
        jpg_name: '',
        xml_name: '',
        glbf_name: '',
        created_at: at,
        updated_at: at,
      }
      await transaction.insertInto('poi_templates').values(row).execute()
      await writeGrams(transaction, row)
    }
  })
}

interface Setup {
  testApp: TestApp
  token: string
}

/** How many shared (library) templates the seed made: they are in lists that show the library. */
async function librarySize(setup: Setup): Promise<number> {
  const answer = await callApi<{ total: number }>(setup.testApp.app, {
    url: `${templateCalls.selectTemplatePage.url}?pageNo=1&pageSize=1`,
    token: setup.token,
    json: { scope: 'system' },
  })
  return answer.envelope.datum.total
}

async function setUp(count: number): Promise<Setup> {
  const testApp = await createTestApp()
  await seedTemplates(testApp, count)
  const { database } = testApp.app.deps
  if (database.dialect === 'postgres') {
    // what autovacuum does after a bulk load: statistics for the planner, and the visibility
    // map that lets counts read the index alone
    await sql`vacuum analyze poi_templates, poi_template_grams`.execute(database.db)
  }
  return { testApp, token: await signIn(testApp.app, testEditor) }
}

/** One list call's time; see {@link timeListCall}. */
function timeCall(setup: Setup, body: Record<string, unknown>, expectedTotal: number) {
  return timeListCall(
    setup.testApp.app,
    {
      url: `${templateCalls.selectTemplatePage.url}?pageNo=1&pageSize=20`,
      token: setup.token,
      json: body,
    },
    expectedTotal,
  )
}

/** Runs the benchmark and writes its report; returns the report. */
export async function runTemplatesBench() {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const small = await setUp(smallCount)
  const large = await setUp(largeCount)
  // the seeded library (shared templates) is in both lists that show it
  const libraryTotal = await librarySize(small)
  try {
    const cases = [
      {
        name: 'first page, own templates',
        body: { scope: 'own' },
        small: smallCount,
        large: largeCount,
        hasGoal: true,
      },
      {
        name: 'first page, own and library',
        body: {},
        small: smallCount + libraryTotal,
        large: largeCount + libraryTotal,
        hasGoal: true,
      },
      {
        name: 'search one code (T-00042)',
        body: { keyword: 'T-00042' },
        small: 1,
        large: 1,
        hasGoal: true,
      },
      {
        name: 'search a common word (pump, 1 in 5)',
        body: { keyword: 'pump', scope: 'own' },
        small: smallCount / 5,
        large: largeCount / 5,
        hasGoal: false,
      },
    ] as const
    const results = []
    for (const testCase of cases) {
      const timings = await timeInterleaved({
        small: () => timeCall(small, testCase.body, testCase.small),
        large: () => timeCall(large, testCase.body, testCase.large),
        warmupCalls,
        timedCalls,
        quiet: { name: testCase.name, rounds: quiet },
      })
      const smallP50 = timings.small.p50Ms
      const largeP50 = timings.large.p50Ms
      const ratio = Math.round((largeP50 / smallP50) * 1000) / 1000
      results.push({
        case: testCase.name,
        body: testCase.body,
        totals: {
          [`templates${smallCount}`]: testCase.small,
          [`templates${largeCount}`]: testCase.large,
        },
        [`templates${smallCount}`]: timings.small,
        [`templates${largeCount}`]: timings.large,
        ratios: [
          ratioOf(`${largeCount} templates`, `${smallCount} templates`, 'p50', largeP50, smallP50),
        ],
        goal: testCase.hasGoal ? { ratioAtMost: 1.5, met: ratio <= 1.5 } : null,
      })
      console.log(
        `${testCase.name}: p50 ${smallP50} ms (${smallCount}) vs ${largeP50} ms (${largeCount}), ratio ${ratio}`,
      )
    }
    const report = {
      benchmark: 'templates',
      description:
        'POST /web/poi/selectPoiTemplatePage (page of 20) through inject (auth, validation, envelope) ' +
        `on a real database, ${smallCount} vs ${largeCount} templates of one editor, calls interleaved. ` +
        'The ratio is the larger list’s time ÷ the smaller’s: near 1 means the indexes keep the cost flat.',
      database: small.testApp.app.deps.database.dialect,
      timedCallsPerSide: timedCalls,
      machine,
      results,
    }
    const path = writeBenchResult('templates', report, quiet)
    console.log(`written to ${path}`)
    return report
  } finally {
    await small.testApp.close()
    await large.testApp.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runTemplatesBench()
}
