/**
 * `creatPoiList` of 1,000 POIs (issue 16 "Performance": ≤ 2 s on SQLite): one call through the
 * whole HTTP stack (`inject`: auth, a 1,000-item JSON body, validation, the transaction with
 * its checks, rows, custom properties, name grams and counts, and the 1,000 records answered),
 * into a city project that already holds 10,000 POIs, as a copy layout of a POI with custom
 * properties sends it (`isCopyProperties`). The anchor is the same rows written by one plain
 * multi-row INSERT per 200 POIs in one transaction (what the database itself needs), so the
 * ratio shows what the checks and the extra tables cost.
 *
 *   npx tsx bench/pois/pois-create-list.ts      (or `npm run bench -- pois-create-list`)
 *
 * Writes bench/results/pois-create-list.json.
 */
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { type CreatedPoisDatum, type PoiDetail, poiRoutes } from '../../contract/pois'
import type { TemplatePage } from '../../contract/templates'
import { templateRoutes } from '../../contract/templates'
import { timestampOf } from '../../server/modules/time/clock'
import { createProject } from '../../server/routes/web/project-test-kit'
import { callApi, createTestApp, signIn, testEditor } from '../../server/testing/test-app'
import { QuietRounds } from '../lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from '../lib/stats'

const listSize = 1_000
const existing = 10_000
const rounds = Number(process.env.POI_BENCH_ROUNDS) || 5

/** Runs the benchmark and writes its report; returns the report. */
export async function runPoisCreateListBench() {
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
    const create = async (list: unknown[], query = '') => {
      const answer = await callApi<CreatedPoisDatum>(app, {
        url: `${poiRoutes.creatPoiList.path}${query}`,
        token,
        json: { projectid: project.id, list },
      })
      if (answer.envelope.code !== '0') throw new Error(answer.envelope.message)
      return answer.envelope.datum
    }
    // the project already holds POIs, as a real one does
    for (let start = 0; start < existing; start += listSize) {
      await create(
        Array.from({ length: listSize }, (_, index) => ({
          name: `Existing ${start + index}`,
          category_id: camera.id,
          x: 121 + (start + index) * 1e-5,
          y: 31,
        })),
      )
    }
    const source = await callApi<PoiDetail>(app, {
      url: poiRoutes.creatPoi.path,
      token,
      json: { projectid: project.id, name: 'Source', category_id: camera.id, x: 121.5, y: 31.2 },
    })
    // a multi-layer array copy of the source: 10 × 10 × 10
    const copies = (round: number) =>
      Array.from({ length: listSize }, (_, index) => ({
        name: `Copy ${round}-${index}`,
        category_id: camera.id,
        x: 121.5 + (index % 10) * 1e-5,
        y: 31.2 + (Math.floor(index / 10) % 10) * 1e-5,
        z: Math.floor(index / 100) * 3,
        heading: 90,
        devicecode: `C-${round}-${index}`,
        source_id: source.envelope.datum.id,
      }))

    const ourMs: number[] = []
    const anchorMs: number[] = []
    const { database } = app.deps
    for (let round = 0; round < rounds + 1; round++) {
      const list = copies(round)
      // the first round warms up
      await quiet.beforeRound(`round ${round}`, round > 0)
      let startedAt = performance.now()
      const created = await create(list, '?isCopyProperties=true')
      const ours = performance.now() - startedAt
      if (created.count !== listSize) throw new Error('not all created')

      // the anchor: the same rows, plain, one statement per 200
      const now = timestampOf(Date.now())
      startedAt = performance.now()
      await database.db.transaction().execute(async (transaction) => {
        const rows = list.map((item) => ({
          id: randomUUID(),
          project_id: project.id,
          name: `${item.name} plain`,
          category_id: camera.id,
          poicategory_code: 'CAM-2D',
          template_type: '0',
          category_type: '2D',
          x: item.x,
          y: item.y,
          z: item.z,
          heading: item.heading,
          created_at: now,
          updated_at: now,
        }))
        for (let at = 0; at < rows.length; at += 200) {
          await transaction
            .insertInto('pois')
            .values(rows.slice(at, at + 200))
            .execute()
        }
      })
      const anchor = performance.now() - startedAt
      quiet.afterRound()
      if (round === 0) continue
      ourMs.push(ours)
      anchorMs.push(anchor)
      console.log(
        `round ${round}: creatPoiList ${ours.toFixed(0)} ms, plain insert ${anchor.toFixed(0)} ms`,
      )
    }
    const ours = measure(ourMs, 'ms')
    const anchor = measure(anchorMs, 'ms')
    const report = {
      benchmark: 'pois-create-list',
      description:
        `POST /web/poi/creatPoiList?isCopyProperties=true with ${listSize} copies of a POI ` +
        `(10 × 10 × 10 layout, device codes, custom properties copied) into a city project of ` +
        `${existing}+ POIs, through inject; anchor: the same rows by plain multi-row INSERTs in ` +
        'one transaction (no checks, no properties, grams or counts, no HTTP).',
      database: database.dialect,
      machine,
      cases: { creatPoiList: ours, plainInsert: anchor },
      ratios: [ratioOf('creatPoiList', 'plain insert', 'median', ours.median, anchor.median)],
      goals: [{ goal: 'creatPoiList of 1,000 POIs ≤ 2 s (median)', met: ours.median <= 2_000 }],
    }
    const path = writeBenchResult('pois-create-list', report, quiet)
    console.log(`creatPoiList median ${ours.median} ms; written to ${path}`)
    return report
  } finally {
    await testApp.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runPoisCreateListBench()
}
