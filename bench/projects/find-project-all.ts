/**
 * `findProjectAll` at 10,000 projects against the same call at 100 projects (issue 4,
 * acceptance): the project home asks for one page, so with the list indexes the cost should
 * stay flat as a user's projects grow. Both databases are real (SQLite files, or PostgreSQL
 * schemas when DATABASE_URL is set), both answer through the whole HTTP stack (`inject`: auth,
 * validation, envelope), and the calls are interleaved one by one so machine noise hits both.
 *
 *   npx tsx bench/projects/find-project-all.ts      (or `npm run bench -- find-project-all`)
 *
 * Writes bench/results/find-project-all.json.
 */
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { projectDefaults } from '../../contract/project'
import { timestampOf } from '../../server/modules/time/clock'
import { createProjectsRepository } from '../../server/modules/projects/projects.repository'
import { projectFileHolder } from '../../server/modules/projects/projects.service'
import { createUploadsRepository } from '../../server/modules/projects/uploads.repository'
import { createTestApp, signIn, type TestApp, testEditor } from '../../server/testing/test-app'
import { timeInterleaved } from '../lib/interleaved'
import { timeListCall } from '../lib/timed-list-call'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, ratioOf, writeBenchResult } from '../lib/stats'

/** The two list sizes compared, and how many timed calls each gets. */
const smallCount = 100
const largeCount = 10_000
const timedCalls = 400
const warmupCalls = 40

/** Fills the editor's project list with `count` city and building projects sharing one cover. */
async function seedProjects(testApp: TestApp, count: number): Promise<void> {
  const { database, repositories } = testApp.app.deps
  const owner = await repositories.users.findByName(testEditor.name)
  if (!owner) throw new Error('the test app has no demo editor')
  const { db } = database
  const baseMs = Date.parse('2026-01-01T00:00:00.000Z')
  await db.transaction().execute(async (transaction) => {
    const projects = createProjectsRepository(transaction, database.dialect)
    const uploads = createUploadsRepository(transaction)
    const coverId = randomUUID()
    await uploads.insert({
      id: coverId,
      sha256: '0'.repeat(64),
      size_bytes: 1,
      content_type: 'image/png',
      extension: 'png',
      original_name: 'cover.png',
      thumbnail_sha256: null,
      owner_id: owner.id,
      project_id: null,
      purpose: 'project-cover',
      created_at: timestampOf(baseMs),
    })
    for (let index = 0; index < count; index++) {
      const id = randomUUID()
      const at = timestampOf(baseMs + index * 1_000)
      await projects.insert({
        id,
        kind: index % 2 === 0 ? 'city' : 'building',
        name: `Project ${index}`,
        area_id: null,
        area_name: null,
        detailedaddress: `Address ${index}`,
        prewiewpath_uuid: coverId,
        description: 'Generated for the benchmark',
        ...projectDefaults,
        tile_coordinates: null,
        project_center_lng: 121.6,
        project_center_lat: 31.2,
        shell_json_path: null,
        owner_id: owner.id,
        created_at: at,
        updated_at: at,
      })
      await uploads.addReference(coverId, projectFileHolder(id), at)
    }
  })
}

interface Setup {
  testApp: TestApp
  token: string
}

async function setUp(count: number): Promise<Setup> {
  const testApp = await createTestApp()
  await seedProjects(testApp, count)
  return { testApp, token: await signIn(testApp.app, testEditor) }
}

/** One list call's time; see {@link timeListCall}. */
function timeCall(setup: Setup, body: Record<string, unknown>, expectedTotal: number) {
  return timeListCall(
    setup.testApp.app,
    { url: '/web/project/findProjectAll', token: setup.token, json: body },
    expectedTotal,
  )
}

/** Runs the benchmark and writes its report; returns the report. */
export async function runFindProjectAllBench() {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const small = await setUp(smallCount)
  const large = await setUp(largeCount)
  try {
    // the project home's call: one kind, first page of 12, newest change first
    const homePage = { kind: 'city', pageNo: 1, pageSize: 12 }
    const cases = [
      {
        name: 'first page of a kind',
        body: homePage,
        smallTotal: smallCount / 2,
        largeTotal: largeCount / 2,
      },
      {
        name: 'last page of a kind',
        body: (count: number) => ({ ...homePage, pageNo: Math.ceil(count / 2 / 12) }),
        smallTotal: smallCount / 2,
        largeTotal: largeCount / 2,
      },
      {
        name: 'keyword search, all kinds',
        body: { keyword: 'project 9', pageNo: 1, pageSize: 12 },
        smallTotal: 11,
        largeTotal: 1_111,
      },
    ] as const
    const results = []
    for (const testCase of cases) {
      const bodyFor = (count: number) =>
        typeof testCase.body === 'function' ? testCase.body(count) : testCase.body
      const timings = await timeInterleaved({
        small: () => timeCall(small, bodyFor(smallCount), testCase.smallTotal),
        large: () => timeCall(large, bodyFor(largeCount), testCase.largeTotal),
        warmupCalls,
        timedCalls,
        quiet: { name: testCase.name, rounds: quiet },
      })
      const { p50Ms: smallP50, p99Ms: smallP99 } = timings.small
      const { p50Ms: largeP50, p99Ms: largeP99 } = timings.large
      results.push({
        case: testCase.name,
        [`projects${smallCount}`]: timings.small,
        [`projects${largeCount}`]: timings.large,
        ratios: [
          ratioOf(`${largeCount} projects`, `${smallCount} projects`, 'p50', largeP50, smallP50),
          ratioOf(`${largeCount} projects`, `${smallCount} projects`, 'p99', largeP99, smallP99),
        ],
      })
      console.log(
        `${testCase.name}: p50 ${smallP50} ms (${smallCount}) vs ${largeP50} ms (${largeCount}), ` +
          `ratio ${(largeP50 / smallP50).toFixed(2)}; p99 ${smallP99} vs ${largeP99} ms`,
      )
    }
    const report = {
      benchmark: 'find-project-all',
      description:
        'POST /web/project/findProjectAll through inject (auth, validation, envelope) on a real ' +
        `database, ${smallCount} vs ${largeCount} projects of one editor, calls interleaved. ` +
        'The ratio is the larger list’s time ÷ the smaller’s: near 1 means paging keeps the cost flat.',
      database: small.testApp.app.deps.database.dialect,
      timedCallsPerSide: timedCalls,
      machine,
      results,
    }
    const path = writeBenchResult('find-project-all', report, quiet)
    console.log(`written to ${path}`)
    return report
  } finally {
    await small.testApp.close()
    await large.testApp.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runFindProjectAllBench()
}
