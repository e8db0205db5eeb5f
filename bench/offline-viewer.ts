/**
 * The offline viewer's first frame (issue 20, performance): the seeded building case ("House
 * (SBM building)") with the issue's 10,000 POIs, opened two ways on the same machine in the same run —
 * the package's viewer unzipped on disk (`file://…/index.html`, network cut) and the online
 * preview (`/bim4/outPreview`) served by the production server — alternating, each in a fresh
 * browser context (empty cache). The clock is the page's own (`performance.now()`, from
 * navigation start): the viewer's first frame with its scene up (`data-first-frame-ms`, set
 * when the first frame with every model, POI and network is drawn), the preview's first
 * animation frame with every model loaded. Goal: viewer ≤ 1.0× the preview. A third side: the
 * same viewer served by the package's own `serve.mjs` (for browsers that refuse `file://`),
 * reported against the viewer from disk.
 *
 * Needs the production build (`npm run build`). `npx tsx bench/offline-viewer.ts` (or `npm run
 * bench -- offline-viewer`); BENCH_ROUNDS timed loads per side (default 5), BENCH_PORT the
 * server's port (default 4460). Writes bench/results/offline-viewer.json.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import BetterSqlite3 from 'better-sqlite3'
import type { Browser } from 'playwright-core'
import { startPackageServer } from '../server/testing/package-server'
import { launchBenchBrowser } from './lib/browser'
import { productServer } from './lib/product-server'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from './lib/stats'

const port = Number(process.env.BENCH_PORT) || 4460
const timedRuns = Number(process.env.BENCH_ROUNDS) || 5
/** POIs in the project (BENCH_POIS, default the issue's 10,000). */
const poiCount = Number(process.env.BENCH_POIS) || 10_000
const server = productServer(port, 'Bench')
const { base, admin, post } = server

/**
 * The building case with `poiCount` POIs of a seeded template (12 placed through the API, the
 * rest copies of the first); its package built, downloaded and unzipped into `folder`. Answers the preview's address and the viewer's.
 */
async function seed(folder: string): Promise<{ previewUrl: string; viewerUrl: string }> {
  const { token } = await post<{ token: string }>('login', admin)
  const cases = await post<{ id: string; kind: string }[]>('project/findProjectCases', {}, token)
  const house = cases.find((project) => project.kind === 'building')
  if (!house) throw new Error('The building case was not seeded.')
  const templates = await post<{ list: { id: string }[] }>(
    'poi/selectPoiTemplatePage?pageSize=2',
    { type: '2D' },
    token,
  )
  const info = await post<{ structure: { floors: { id: string }[] } }>(
    'model/findModelInfo',
    { project_id: house.id },
    token,
  )
  const floorId = info.structure.floors[0]?.id
  const template = templates.list[0]
  if (!floorId || !template) throw new Error('The case has no floor, or no template was seeded.')
  await server.placePoiRing({
    projectId: house.id,
    floorId,
    templateIds: [template.id],
    namePrefix: 'Bench POI',
    token,
  })
  fillPoisUpTo(join(folder, 'data', 'twinscape.sqlite'), house.id, poiCount)
  await post('bimBiz/buildSbkFile', { project_id: house.id }, token)
  let url: string | null = null
  for (let attempt = 0; attempt < 600 && url === null; attempt++) {
    const state = await post<{ package: { state: string; download_url: string | null } | null }>(
      'bimBiz/checkSbkDownloadState',
      { project_id: house.id },
      token,
    )
    if (state.package?.state === 'failed') throw new Error('The package build failed.')
    url = state.package?.state === 'ready' ? state.package.download_url : null
    if (url === null) await new Promise((resolve) => setTimeout(resolve, 500))
  }
  if (url === null) throw new Error('The package was not built in time.')
  const zip = Buffer.from(await (await fetch(`${base}${url}`)).arrayBuffer())
  await writeFile(join(folder, 'package.zip'), zip)
  execFileSync('unzip', ['-q', join(folder, 'package.zip'), '-d', join(folder, 'unpacked')])
  const share = await post<{ url: string }>('project/projectShareUrl', { id: house.id }, token)
  return {
    previewUrl: `${base}/${share.url.replace(/^\//, '')}`,
    viewerUrl: pathToFileURL(join(folder, 'unpacked', 'index.html')).href,
  }
}

/**
 * Copies the project's first POI until it has `count` (the issue's 10,000), spread on a grid
 * over the building's floor at three heights: written into the server's database directly, as
 * 10,000 API calls would take minutes on a shared machine and test nothing this bench measures.
 */
function fillPoisUpTo(databaseFile: string, projectId: string, count: number): void {
  const database = new BetterSqlite3(databaseFile)
  try {
    database.pragma('busy_timeout = 10000')
    const columns = (
      database.prepare(`select name from pragma_table_info('pois') order by cid`).all() as Array<{
        name: string
      }>
    ).map(({ name }) => name)
    const { placed } = database
      .prepare('select count(*) as placed from pois where project_id = ?')
      .get(projectId) as { placed: number }
    const side = Math.ceil(Math.sqrt(count))
    // a fresh UUID per row, from SQLite's own random bytes
    const uuid = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' ||
      substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' ||
      hex(randomblob(6)))`
    const valueOfColumn: Record<string, string> = {
      id: uuid,
      name: `'Bench POI ' || (n.i + ${placed + 1})`,
      x: `(n.i % ${side}) * 24.0 / ${side} - 12`,
      y: '1 + n.i % 3',
      z: `(n.i / ${side}) * 24.0 / ${side} - 12`,
    }
    database
      .prepare(
        `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?)
         insert into pois (${columns.map((name) => `"${name}"`).join(', ')})
         select ${columns.map((name) => valueOfColumn[name] ?? `first."${name}"`).join(', ')}
         from n, (select * from pois where project_id = ? order by created_at, id limit 1) as first`,
      )
      .run(count - placed, projectId)
  } finally {
    database.close()
  }
}

const viewport = { width: 1280, height: 720 }

/**
 * The viewer's first frame with its scene, ms from navigation start; from disk with the network
 * cut, or served (`isServed`: from 127.0.0.1, which a cut network would refuse too).
 */
async function viewerFirstFrame(browser: Browser, url: string, isServed = false): Promise<number> {
  const context = await browser.newContext({ viewport, offline: !isServed })
  try {
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 })
    await page.waitForSelector('body[data-viewer="ready"]', { timeout: 120_000 })
    return Number(await page.getAttribute('body', 'data-first-frame-ms'))
  } finally {
    await context.close()
  }
}

/** The preview's first animation frame with every model loaded, ms from navigation start. */
async function previewFirstFrame(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport })
  try {
    await context.addInitScript(() => localStorage.setItem('twinTest', '1'))
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 })
    const handle = await page.waitForFunction(
      () => {
        const models = window.__twinTest?.getEngineSnapshot?.()?.building?.models ?? []
        const isUp = models.length > 0 && models.every((model) => model.loadState === 'success')
        return isUp ? performance.now() : false
      },
      null,
      { polling: 'raf', timeout: 120_000 },
    )
    return (await handle.jsonValue()) as number
  } finally {
    await context.close()
  }
}

/** Runs the benchmark and writes its report. */
export async function runOfflineViewerBench(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'twinscape-viewer-bench-'))
  const serverProcess = server.start(join(folder, 'data'))
  const quiet = new QuietRounds()
  let browser: Browser | undefined
  let packageServer: Awaited<ReturnType<typeof startPackageServer>> | undefined
  try {
    await server.waitUntilUp()
    const { previewUrl, viewerUrl } = await seed(folder)
    packageServer = await startPackageServer(join(folder, 'unpacked'))
    const servedUrl = packageServer.url
    browser = await launchBenchBrowser()
    const viewerMs: number[] = []
    const previewMs: number[] = []
    const servedMs: number[] = []
    // warm-up of each (shader caches of the GPU process, the server's first reads)
    await viewerFirstFrame(browser, viewerUrl)
    await previewFirstFrame(browser, previewUrl)
    await viewerFirstFrame(browser, servedUrl, true)
    for (let round = 0; round < timedRuns; round++) {
      await quiet.beforeRound(`round ${round + 1}`)
      // alternating order, so neither side always runs on a machine the other just warmed
      if (round % 2 === 0) {
        viewerMs.push(await viewerFirstFrame(browser, viewerUrl))
        previewMs.push(await previewFirstFrame(browser, previewUrl))
        servedMs.push(await viewerFirstFrame(browser, servedUrl, true))
      } else {
        servedMs.push(await viewerFirstFrame(browser, servedUrl, true))
        previewMs.push(await previewFirstFrame(browser, previewUrl))
        viewerMs.push(await viewerFirstFrame(browser, viewerUrl))
      }
      quiet.afterRound()
      console.log(
        `round ${round + 1}: viewer ${viewerMs.at(-1)?.toFixed(0)} ms, preview ${previewMs.at(-1)?.toFixed(0)} ms, served ${servedMs.at(-1)?.toFixed(0)} ms`,
      )
    }
    const viewer = measure(viewerMs, 'ms')
    const preview = measure(previewMs, 'ms')
    const served = measure(servedMs, 'ms')
    const report = {
      description:
        'First frame with the scene up, ms from navigation start: the offline package viewer ' +
        'unzipped on disk (file://, network cut) vs the online preview (/bim4/outPreview) of ' +
        `the same project (the seeded building case + ${poiCount.toLocaleString('en')} POIs), fresh context each load, ` +
        "alternating; and the same viewer served by the package's serve.mjs (127.0.0.1).",
      machine: machineInfo(browser.version()),
      viewer,
      preview,
      served,
      servedAgainstDisk: ratioOf(
        'viewer served by serve.mjs',
        'viewer from disk',
        'median ms',
        served.median,
        viewer.median,
      ),
      ratio: ratioOf(
        'offline viewer',
        'online preview',
        'median ms',
        viewer.median,
        preview.median,
      ),
      goal: 'viewer ≤ 1.0× preview',
    }
    console.log(
      JSON.stringify({ ratio: report.ratio, servedAgainstDisk: report.servedAgainstDisk }),
    )
    console.log(`wrote ${writeBenchResult('offline-viewer', report, quiet)}`)
  } finally {
    await browser?.close()
    packageServer?.child.kill()
    serverProcess.kill('SIGTERM')
    await new Promise((resolve) => serverProcess.once('exit', resolve))
    await rm(folder, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runOfflineViewerBench()
}
