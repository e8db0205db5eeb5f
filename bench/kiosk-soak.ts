/**
 * R8 kiosk soak (issue 19): the seeded building case (an SBM house) with POIs of 2D and 3D
 * templates and three captures, opened as a kiosk preview
 * (`&kiosk=1&idle=5`), left alone so its tour loops, while the JS heap (after a forced GC) and
 * the engine's live GPU resources (geometries, textures, programs) are sampled from the end of
 * the first tour (the camera back at the first view). Halfway the network is cut for
 * `SOAK_OFFLINE_SECONDS` and the server is restarted; the preview must keep its scene, say it is
 * reconnecting, and come back live by itself. R8's plain hour has no cut: `SOAK_OFFLINE_SECONDS=0`.
 *
 * The issue's run is 60 minutes (`SOAK_MINUTES=60`); the default is a shortened 3-minute run;
 * CI runs 5 minutes beside its PostgreSQL stage (.ci/kiosk-soak.sh).
 * Needs the production build (`npm run build`). `npx tsx bench/kiosk-soak.ts`; writes
 * bench/results/kiosk-soak.json (or `SOAK_OUT`): growth of heap and GPU resources after the
 * first tour (goal ≤ 5 %), uncaught errors (goal 0), context losses, whether the scene was drawn
 * at the end and whether it recovered; exits 1 when it missed a goal (bench/lib/kiosk-soak-verdict.ts).
 * `SOAK_PORT` and `SOAK_DATA_DIR` let runs share a machine. `SOAK_JS_FLAGS` passes V8 flags for a
 * diagnosis (`--no-opt --no-maglev`: how much of the growth is optimised machine code).
 */
import type { ChildProcess } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { launchBenchBrowser } from './lib/browser'
import {
  HeapGraph,
  type HeapSplit,
  newCompiledCodeByScript,
  newObjects,
  splitHeap,
  takeHeapSnapshot,
} from './lib/heap-snapshot'
import { kioskSoakFailures, kioskSoakGoals } from './lib/kiosk-soak-verdict'
import { productServer } from './lib/product-server'

const port = Number(process.env.SOAK_PORT ?? 4414)
const minutes = Number(process.env.SOAK_MINUTES ?? 3)
// R8 asks for two runs: the plain hour (`SOAK_OFFLINE_SECONDS=0`: no cut) and the same with the
// network cut and the server restarted in the middle (the cut is 60 s)
const offlineSeconds = Number(process.env.SOAK_OFFLINE_SECONDS ?? 20)
const hasCut = offlineSeconds > 0
const sampleEveryMs = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10) * 1000
// SOAK_HEAP_DIFF=1: heap snapshots after the first tour and at the end, and which objects
// allocated in between are still alive (by constructor, with who holds them)
const isHeapDiff = process.env.SOAK_HEAP_DIFF === '1'
const productServerOfSoak = productServer(port, 'Soak')
const { base, admin, post } = productServerOfSoak
const dataDir = process.env.SOAK_DATA_DIR ?? '/tmp/kiosk-soak-data'
// SOAK_HEAP_LIMIT_PERCENT: the heap bound the run is judged by (R8's 5 % by default; CI's
// 5-minute run, mostly warm-up, uses a looser one: .ci/kiosk-soak.sh)
const heapLimitPercent = Number(
  process.env.SOAK_HEAP_LIMIT_PERCENT ?? kioskSoakGoals.growthAtMostPercent,
)
const reportFile = process.env.SOAK_OUT
  ? resolve(process.env.SOAK_OUT)
  : fileURLToPath(new URL('./results/kiosk-soak.json', import.meta.url))

/** What the soak started and must not leave running, however it ends. */
const running: { server?: ChildProcess; browser?: Browser } = {}
// CI stops a soak still running when another stage failed: its server and browser go with it
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    running.server?.kill('SIGTERM')
    void (running.browser?.close() ?? Promise.resolve()).finally(() => process.exit(143))
  })
}

/** What the soak opens: the kiosk address and what the project holds. */
interface SeededKiosk {
  url: string
  projectName: string
  poiCount: number
  /** The captures' camera positions, in tour order. */
  views: Vector3[]
}

type Vector3 = readonly [number, number, number]

/**
 * Signs in and prepares the "building case with POIs": the seeded building case (its
 * SBM house and structure, as the gallery opens it) with POIs of the seeded 2D and 3D templates
 * placed around the house, and three captures for the tour; answers its kiosk address.
 */
async function seedKioskProject(): Promise<SeededKiosk> {
  const { token } = await post<{ token: string }>('login', admin)
  const cases = await post<{ id: string; kind: string; name: string }[]>(
    'project/findProjectCases',
    {},
    token,
  )
  const house = cases.find((project) => project.kind === 'building')
  if (!house) throw new Error('The building case was not seeded.')
  const templatesOf = async (type: '2D' | '3D') =>
    (
      await post<{ list: { id: string; name: string }[] }>(
        'poi/selectPoiTemplatePage?pageSize=5',
        { type },
        token,
      )
    ).list
  const templates = [
    ...(await templatesOf('2D')).slice(0, 2),
    ...(await templatesOf('3D')).slice(0, 2),
  ]
  if (templates.length === 0) throw new Error('No POI template was seeded.')
  // a building's POIs stand on a floor: the case's ground floor
  const info = await post<{ structure: { floors: { id: string }[] } }>(
    'model/findModelInfo',
    { project_id: house.id },
    token,
  )
  const floorId = info.structure.floors[0]?.id
  if (!floorId) throw new Error('The building case has no floor.')
  const poiCount = await productServerOfSoak.placePoiRing({
    projectId: house.id,
    floorId,
    templateIds: templates.map((template) => template.id),
    namePrefix: 'Soak POI',
    token,
  })
  const png = await readFile(
    new URL('../server/resources/cases/building-cover.png', import.meta.url),
  )
  const views: Vector3[] = [
    [18, 10, 18],
    [-18, 12, 6],
    [0, 25, 1],
  ]
  for (const [index, position] of views.entries()) {
    const form = new FormData()
    form.append('project_id', house.id)
    form.append('name', `View ${index + 1}`)
    form.append('dwell_seconds', '2')
    form.append('camera', JSON.stringify({ position, target: [0, 1, 0] }))
    form.append('file', new Blob([png], { type: 'image/png' }), 'capture.png')
    const answer = (await (
      await fetch(`${base}/web/project/addCapture`, {
        method: 'POST',
        headers: { Token: token },
        body: form,
      })
    ).json()) as { code: string; message: string }
    if (answer.code !== '0') throw new Error(`addCapture: ${answer.message}`)
  }
  const share = await post<{ url: string }>('project/projectShareUrl', { id: house.id }, token)
  return {
    url: `${base}/${share.url.replace(/^\//, '')}&kiosk=1&idle=5`,
    projectName: house.name,
    poiCount,
    views,
  }
}

/**
 * Waits until the kiosk's tour has shown its last view and flown back to its first: the end of
 * the first tour, where R8 starts counting. Polls the engine's camera (a state, not a time:
 * under load the tour's flights take longer).
 */
async function waitForFirstTourEnd(page: Page, views: readonly Vector3[]): Promise<void> {
  const isAt = (position: Vector3, view: Vector3) =>
    Math.hypot(position[0] - view[0], position[1] - view[1], position[2] - view[2]) < 0.5
  let hasShownLast = false
  const deadline = Date.now() + 300_000
  while (Date.now() < deadline) {
    const position = await page.evaluate(
      () => window.__twinTest?.getEngineSnapshot().building.camera.position ?? null,
    )
    if (position !== null) {
      if (isAt(position, views.at(-1)!)) hasShownLast = true
      else if (hasShownLast && isAt(position, views[0]!)) return
    }
    await new Promise((settle) => setTimeout(settle, 200))
  }
  throw new Error('The kiosk tour did not come back to its first view within 5 minutes.')
}

interface Sample {
  atSeconds: number
  heapBytes: number
  geometries: number
  textures: number
  programs: number
  liveness: string | null
}

async function main(): Promise<void> {
  await rm(dataDir, { recursive: true, force: true })
  running.server = productServerOfSoak.start(dataDir)
  try {
    await soak()
  } finally {
    await running.browser?.close().catch(() => undefined)
    running.server?.kill('SIGTERM')
  }
}

/** Seeds the project, opens its kiosk preview, samples it and writes the report. */
async function soak(): Promise<void> {
  await productServerOfSoak.waitUntilUp()
  const seeded = await seedKioskProject()
  const browser = await launchBenchBrowser({
    isFrameRateLimited: true,
    // a diagnosis, never R8's run: e.g. `--no-opt --no-maglev` tells V8's optimised code from the rest
    extraJsFlags: process.env.SOAK_JS_FLAGS,
  })
  running.browser = browser
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const page = await context.newPage()
  await page.addInitScript(() => {
    localStorage.setItem('twinTest', '1')
    // every canvas the page makes, also one the preview builds anew after a lost context
    const state = { lost: 0 }
    window.addEventListener('webglcontextlost', () => state.lost++, true)
    ;(window as unknown as { __soak: typeof state }).__soak = state
  })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(seeded.url)
  await page.waitForFunction(
    () => typeof window.__twinTest?.getEngineSnapshot === 'function',
    null,
    {
      timeout: 120_000,
    },
  )
  const cdp = await context.newCDPSession(page)
  const sample = async (startMs: number): Promise<Sample> => {
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = await cdp.send('Runtime.getHeapUsage')
    const state = await page.evaluate(() => ({
      render: window.__twinTest?.getEngineSnapshot().building.render ?? null,
      liveness:
        document.querySelector('[data-testid="preview"]')?.getAttribute('data-liveness') ?? null,
    }))
    return {
      atSeconds: Math.round((Date.now() - startMs) / 1000),
      heapBytes: heap.usedSize,
      geometries: state.render?.geometryCount ?? 0,
      textures: state.render?.textureCount ?? 0,
      programs: state.render?.programCount ?? 0,
      liveness: state.liveness,
    }
  }
  // the house and its POIs drawn before anything is measured
  await page.waitForFunction(
    () => {
      const building = window.__twinTest?.getEngineSnapshot().building
      return (
        building !== undefined &&
        building.models.length > 0 &&
        building.models.every((model) => model.loadState === 'success') &&
        building.pois.count > 0
      )
    },
    null,
    { timeout: 120_000 },
  )
  const scene = await page.evaluate(() => {
    const building = window.__twinTest!.getEngineSnapshot().building
    return {
      models: building.models.length,
      triangles: building.models.reduce((sum, model) => sum + model.triangleCount, 0),
      pois: building.pois.count,
    }
  })
  // R8 counts from the end of the first tour: the camera back at the first view after the last
  await waitForFirstTourEnd(page, seeded.views)
  const startMs = Date.now()
  const samples: Sample[] = [await sample(startMs)]
  const firstSnapshot = isHeapDiff ? await takeHeapSnapshot(cdp) : null
  const durationMs = minutes * 60_000
  let wasOffline = false
  let heapBeforeCut: number | null = null
  let cameBack = false
  // from the network's return (the server already up again) to the preview saying it is live
  let secondsToLiveAfterCut: number | null = null
  while (Date.now() - startMs < durationMs) {
    await page.waitForTimeout(sampleEveryMs)
    if (hasCut && !wasOffline && Date.now() - startMs > durationMs / 2) {
      heapBeforeCut = samples.at(-1)!.heapBytes
      wasOffline = true
      await context.setOffline(true)
      running.server?.kill('SIGTERM')
      await page.waitForTimeout(offlineSeconds * 1000)
      running.server = productServerOfSoak.start(dataDir)
      await productServerOfSoak.waitUntilUp()
      await context.setOffline(false)
      const onlineAtMs = Date.now()
      // the preview asks again when the network is back (before: only with its back-off, ≤ 60 s)
      await page
        .waitForFunction(
          () =>
            document.querySelector('[data-testid="preview"]')?.getAttribute('data-liveness') ===
            'live',
          null,
          { timeout: 90_000 },
        )
        .then(() => {
          cameBack = true
          secondsToLiveAfterCut = Number(((Date.now() - onlineAtMs) / 1000).toFixed(1))
        })
        .catch(() => undefined)
    }
    samples.push(await sample(startMs))
  }
  // with SOAK_HEAP_DIFF=1: the snapshots' bytes in V8's code and in everything else
  let heapSplit: { afterFirstTour: HeapSplit; atEnd: HeapSplit } | null = null
  if (firstSnapshot !== null) {
    const before = new HeapGraph(firstSnapshot)
    const after = new HeapGraph(await takeHeapSnapshot(cdp))
    const split = { afterFirstTour: splitHeap(before), atEnd: splitHeap(after) }
    heapSplit = split
    const diff = {
      // the snapshots' bytes in V8's code and in everything else, after the first tour and at the
      // end: which of the two the heap grew by
      split,
      // what V8 compiled since the first tour (warm-up of the tour's code), by script
      newCompiledCode: newCompiledCodeByScript(before, after),
      // the objects allocated since and still alive, by constructor, with who holds them
      newObjects: newObjects(before, after),
    }
    const diffOut = fileURLToPath(new URL('./results/kiosk-soak-heap-diff.json', import.meta.url))
    await writeFile(diffOut, `${JSON.stringify(diff, null, 2)}\n`)
    const percentOf = (from: number, to: number) => (((to - from) / from) * 100).toFixed(2)
    console.log(
      `V8 code ${split.afterFirstTour.codeBytes} → ${split.atEnd.codeBytes} bytes ` +
        `(${percentOf(split.afterFirstTour.codeBytes, split.atEnd.codeBytes)} %); everything else ` +
        `${split.afterFirstTour.otherBytes} → ${split.atEnd.otherBytes} bytes ` +
        `(${percentOf(split.afterFirstTour.otherBytes, split.atEnd.otherBytes)} %)`,
    )
    for (const code of diff.newCompiledCode) {
      console.log(`${code.bytes}\t${code.functions} functions compiled\t${code.script}`)
    }
    for (const group of diff.newObjects) {
      console.log(`${group.bytes}\t${group.count}\t${group.group}\n\t${group.path.join('\n\t')}`)
    }
  }
  const contextLosses = await page.evaluate(
    () => (window as unknown as { __soak: { lost: number } }).__soak.lost,
  )
  // the building drawn at the end: whatever was lost on the way came back
  const isDrawnAtEnd = await page
    .evaluate(async () => (await window.__twinTest?.canvasHasContent()) ?? false)
    .catch(() => false)
  const first = samples[0]!
  const last = samples.at(-1)!
  const growth = (from: number, to: number) => (from > 0 ? ((to - from) / from) * 100 : 0)
  const heapGrowthPercent = Number(growth(first.heapBytes, last.heapBytes).toFixed(2))
  // the part of it before the cut: R8's plain hour, when the run also had the cut
  const heapGrowthBeforeCutPercent =
    heapBeforeCut === null ? null : Number(growth(first.heapBytes, heapBeforeCut).toFixed(2))
  const resourcesOf = (each: Sample) => ({
    geometries: each.geometries,
    textures: each.textures,
    programs: each.programs,
  })
  const failures = kioskSoakFailures(
    {
      heapGrowthPercent,
      gpuResources: { first: resourcesOf(first), last: resourcesOf(last) },
      uncaughtErrors: errors,
      contextLosses,
      isDrawnAtEnd,
      recoveredAfterOfflineAndRestart: wasOffline ? cameBack : null,
    },
    heapLimitPercent,
  )
  const report = {
    name: 'kiosk-soak',
    minutes,
    offlineSeconds,
    goals: kioskSoakGoals,
    heapLimitPercent,
    project: { name: seeded.projectName, seededPois: seeded.poiCount, ...scene },
    heapGrowthPercent,
    heapGrowthBeforeCutPercent,
    heapSplit,
    gpuResourceGrowth: {
      geometries: last.geometries - first.geometries,
      textures: last.textures - first.textures,
      programs: last.programs - first.programs,
    },
    uncaughtErrors: errors,
    contextLosses,
    isDrawnAtEnd,
    recoveredAfterOfflineAndRestart: wasOffline ? cameBack : null,
    secondsToLiveAfterCut,
    failures,
    samples,
    note:
      'Shortened run unless SOAK_MINUTES=60; GPU memory is tracked as live three.js resources. ' +
      'The project is the seeded building case (its SBM house) with POIs and three captures.' +
      (process.env.SOAK_NOTE ? ` ${process.env.SOAK_NOTE}` : ''),
  }
  await mkdir(dirname(reportFile), { recursive: true })
  await writeFile(reportFile, `${JSON.stringify(report, null, 2)}\n`)
  console.log(JSON.stringify({ ...report, samples: samples.length }, null, 2))
  if (failures.length > 0) {
    console.error(`kiosk soak missed R8:\n- ${failures.join('\n- ')}`)
    process.exitCode = 1
  } else {
    console.log('kiosk soak met R8')
  }
}

await main()
