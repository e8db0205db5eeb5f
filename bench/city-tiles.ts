/**
 * City tiles: our city engine (engine/city — MapLibre + deck.gl interleaved + loaders.gl 3D
 * Tiles) against 3DTilesRendererJS 0.5.3 (TilesRenderer + three.js on its own canvas), both on a
 * production build in Chromium, flying the same camera path over the same generated tileset
 * (1,365 textured b3dm tiles) with the same screen-space error and tile memory cap. Runs
 * alternate between the two, each in a fresh browser context (empty HTTP cache).
 * Standalone: `npx tsx bench/city-tiles.ts`; writes bench/results/city-tiles.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type CameraKeyframe,
  type CityBenchConfig,
  type CityBenchSample,
  cityBenchMarkPrefix,
} from './city/page/city-bench-protocol'
import { buildBenchPage, openBenchPage } from './lib/bench-page'
import { launchBenchBrowser } from './lib/browser'
import { measureThreadCpu, traceCategories } from './lib/chromium-trace'
import { benchTilesetRecipe, generateTileset } from './lib/generate-tileset'
import { startStaticServer } from './lib/static-server'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'

/** Issue 7 goals, first render from issue 23 (ours ÷ anchor unless stated). */
export const cityTilesGoals = {
  firstRenderVsAnchorAtMost: 0.6,
  settledVsAnchorAtMost: 1,
  /** Fewer main-thread tasks over 50 ms than the anchor. */
  longTasksVsAnchorBelow: 1,
  /** Peak tile memory never above the cap (each renderer's own estimate). */
  peakMemoryVsCapAtMost: 1,
}

/**
 * Who runs in a round: ours, the anchor, and (CITY_BENCH_COMPARE) ours with the engine of
 * another checkout, `compare-<n>` for the n-th.
 */
type BenchSide = 'ours' | 'anchor' | `compare-${number}`

/** Options of {@link runCityTilesBench}. */
export interface CityTilesBenchOptions {
  rounds?: number
  memoryCapMB?: number
  maximumScreenSpaceError?: number
  log?: (line: string) => void
}

/**
 * From the whole city seen from above down into the streets and across, ending low and oblique:
 * every level of the pyramid is needed somewhere along the way.
 */
export const cityTilesPath: CameraKeyframe[] = [
  { eastMeters: 0, northMeters: 0, zoom: 14.5, pitchDegrees: 0, bearingDegrees: 0 },
  { eastMeters: -400, northMeters: -400, zoom: 16.5, pitchDegrees: 45, bearingDegrees: 30 },
  { eastMeters: 0, northMeters: 200, zoom: 17.5, pitchDegrees: 60, bearingDegrees: 90 },
  { eastMeters: 500, northMeters: 500, zoom: 17.5, pitchDegrees: 60, bearingDegrees: 180 },
  { eastMeters: 300, northMeters: -300, zoom: 18, pitchDegrees: 50, bearingDegrees: 240 },
]

/** What a traced run records: tasks with CPU times, marks, network, GPU process work. */
const cityTraceCategories = [
  ...traceCategories,
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'gpu',
  'loading',
  'netlog',
]

const pageRoot = fileURLToPath(new URL('./city/page/', import.meta.url))
const outDir = fileURLToPath(new URL('../dist/bench-city/', import.meta.url))

function summarise(samples: CityBenchSample[]) {
  return {
    firstRender: measure(
      samples.map((sample) => sample.firstRenderMs),
      'ms',
    ),
    settled: measure(
      samples.map((sample) => sample.settledMs),
      'ms',
    ),
    frameTimeP95: measure(
      samples.map((sample) => percentile(sample.frameIntervalsMs, 0.95)),
      'ms',
    ),
    frameTimeMedian: measure(
      samples.map((sample) => percentile(sample.frameIntervalsMs, 0.5)),
      'ms',
    ),
    animationFrames: measure(
      samples.map((sample) => sample.frameIntervalsMs.length),
      'frames',
    ),
    drawnFrames: measure(
      samples.map((sample) => sample.drawnFrameIntervalsMs.length),
      'frames',
    ),
    drawnFrameTimeP95: measure(
      samples.map((sample) => percentile(sample.drawnFrameIntervalsMs, 0.95)),
      'ms',
    ),
    drawnFrameTimeMedian: measure(
      samples.map((sample) => percentile(sample.drawnFrameIntervalsMs, 0.5)),
      'ms',
    ),
    longTasks: measure(
      samples.map((sample) => sample.longTaskCount),
      'tasks ≥ 50 ms',
    ),
    longestLongTask: measure(
      samples.map((sample) => sample.longestLongTaskMs),
      'ms',
    ),
    peakTileMemory: measure(
      samples.map((sample) => sample.peakTileMemoryBytes / 2 ** 20),
      'MiB',
    ),
    tilesLoadedAtEnd: measure(
      samples.map((sample) => sample.tilesLoadedAtEnd),
      'tiles',
    ),
    tileErrors: measure(
      samples.map((sample) => sample.tileErrors),
      'tiles',
    ),
    neverSettled: samples.filter((sample) => Number.isNaN(sample.settledMs)).length,
    // CITY_BENCH_GPU_PROBE: the GPU's real time per frame at the final view (after the run).
    gpuFrameTimeMedian: measure(
      samples.map((sample) => percentile(sample.gpuFrameMs ?? [], 0.5)),
      'ms',
    ),
    ...(samples[0]?.renderer === 'ours' ? oursOnly(samples) : {}),
  }
}

/** Where ours' first render went, and how its GPU frame pacing waited (see the README). */
function oursOnly(samples: CityBenchSample[]) {
  const byName = (read: (sample: CityBenchSample) => Record<string, number>) => {
    const names = [...new Set(samples.flatMap((sample) => Object.keys(read(sample))))]
    return Object.fromEntries(
      names.map((name) => [
        name,
        measure(
          samples.map((sample) => read(sample)[name] ?? Number.NaN),
          'ms after start',
        ),
      ]),
    )
  }
  return {
    milestones: byName((sample) => sample.milestonesMs),
    engineMarks: byName((sample) => sample.engineMarksMs ?? {}),
    fenceSignalledAfterMedian: measure(
      samples.map((sample) => percentile(sample.fenceSignalledAfterMs, 0.5)),
      'ms',
    ),
    fenceSignalledAfterP95: measure(
      samples.map((sample) => percentile(sample.fenceSignalledAfterMs, 0.95)),
      'ms',
    ),
    unsignalledFencePolls: measure(
      samples.map((sample) => sample.unsignalledFencePolls),
      'polls',
    ),
  }
}

/** Generates the tileset, builds the page, runs both renderers alternately, writes the report. */
export async function runCityTilesBench(options: CityTilesBenchOptions = {}) {
  const log = options.log ?? console.log
  const rounds = options.rounds ?? (Number(process.env.BENCH_ROUNDS) || 5)
  const memoryCapMB = options.memoryCapMB ?? 48
  const maximumScreenSpaceError = options.maximumScreenSpaceError ?? 16
  const startedAtMs = performance.now()

  log('city-tiles: building the bench page (vite, production)…')
  await buildBenchPage(pageRoot, 'city.html', outDir)
  // CITY_BENCH_COMPARE=<checkout>[,<checkout>…] also runs ours with the engine of other
  // checkouts of the project (this page; their engine/ and workers/) in the same rounds: an A/B
  // of engine versions against the same anchor on the same machine at the same time.
  const compareTrees = (process.env.CITY_BENCH_COMPARE ?? '').split(',').filter(Boolean)
  for (const [index, tree] of compareTrees.entries()) {
    log(`city-tiles: building the page again with the engine of ${tree}…`)
    await buildBenchPage(pageRoot, 'city.html', join(outDir, `compare-${index}`), [
      { find: /^(\.\.\/){3}engine\//, replacement: `${resolve(tree, 'engine')}/` },
    ])
  }
  const compareSides = compareTrees.map((_, index): BenchSide => `compare-${index}`)
  const sides: BenchSide[] = ['ours', ...compareSides, 'anchor']
  log('city-tiles: generating the tileset…')
  const generated = generateTileset(benchTilesetRecipe, join(outDir, 'tileset'))
  log(
    `city-tiles: ${generated.tileCount} tiles, ${(generated.totalBytes / 2 ** 20).toFixed(1)} MiB`,
  )

  const server = await startStaticServer(outDir)
  const externalRequests = new Set<string>()
  // CITY_BENCH_FRAME_RATE_LIMITED=1 keeps the display's frame pacing (to compare drawn frames).
  const isFrameRateLimited = process.env.CITY_BENCH_FRAME_RATE_LIMITED === '1'
  // CITY_BENCH_TRACE=<folder> records a Chromium trace of each measured run there (a trace
  // slows the run: read its order of events and CPU per thread, not its times).
  // CITY_BENCH_GPU_PROBE=<frames> measures, after each run, what a frame at the final view
  // really costs the GPU (each frame waited for by a 1-pixel read): is the pacing right?
  const gpuProbeFrames = Number(process.env.CITY_BENCH_GPU_PROBE) || 0
  // CITY_BENCH_FIRST_RENDER_ONLY=1 ends each measured run one frame after its first render: an
  // A/B of the first render in a fraction of the time (settled, frames and long tasks are not
  // measured then, and their ratios say nothing).
  const isFirstRenderOnly = process.env.CITY_BENCH_FIRST_RENDER_ONLY === '1'
  const traceDir = process.env.CITY_BENCH_TRACE
  if (traceDir) mkdirSync(traceDir, { recursive: true })
  const browser = await launchBenchBrowser({ isFrameRateLimited })
  const chromiumVersion = browser.version()
  const samples: { side: BenchSide; sample: CityBenchSample }[] = []
  const quiet = new QuietRounds()
  try {
    // Round 0 warms the browser up and is not measured: the first page of a fresh browser pays
    // for the GPU process's start, shader caches and the like, whichever renderer it runs.
    for (let round = 0; round <= rounds; round++) {
      const isWarmUp = round === 0
      // Rotating which goes first each round spreads the machine's drift over every side.
      const order = sides.map((_, index) => sides[(index + round) % sides.length]!)
      for (const side of order) {
        const renderer = side === 'anchor' ? 'anchor' : 'ours'
        const context = await browser.newContext({ viewport: { width: 960, height: 600 } })
        const page = await openBenchPage(
          context,
          {
            url: `${server.origin}/${side.startsWith('compare') ? `${side}/` : ''}city.html`,
            entry: 'runCityBench',
            logPrefix: `city-tiles: ${side}`,
            log,
          },
          async (page) => {
            page.on('request', (request) => {
              const url = request.url()
              // blob: URLs carry their creator's origin (3DTilesRendererJS decodes textures so);
              // data: URLs never touch a network.
              if (url.startsWith('data:') || new URL(url).origin === server.origin) return
              externalRequests.add(url)
            })
          },
        )
        const config: CityBenchConfig = {
          renderer,
          tilesetUrl: `${server.origin}/tileset/tileset.json`,
          origin: benchTilesetRecipe.origin,
          rootTransform: generated.rootTransform,
          viewport: { width: 960, height: 600 },
          maximumScreenSpaceError,
          memoryCapMB,
          path: cityTilesPath,
          pathDurationMs: isWarmUp ? 2_000 : 8_000,
          settleTimeoutMs: isWarmUp ? 0 : 30_000,
          gpuProbeFrames: isWarmUp ? 0 : gpuProbeFrames,
          stopAtFirstRender: isFirstRenderOnly && !isWarmUp,
        }
        const isTraced = Boolean(traceDir) && !isWarmUp
        if (isTraced) await browser.startTracing(page, { categories: cityTraceCategories })
        const sample = await quiet.round(
          `round ${round} ${side}`,
          () => page.evaluate((pageConfig) => window.runCityBench(pageConfig), config),
          !isWarmUp,
        )
        if (isTraced) {
          const trace = (await browser.stopTracing()).toString('utf8')
          const file = join(traceDir!, `city-tiles-${round}-${side}.json`)
          writeFileSync(file, trace)
          const cpu = measureThreadCpu(trace, cityBenchMarkPrefix).get('first-render')
          log(`city-tiles: trace ${file}; CPU to first render by thread: ${JSON.stringify(cpu)}`)
        }
        await context.close()
        if (isWarmUp) {
          log(`city-tiles: warm-up ${side}: first render ${sample.firstRenderMs.toFixed(0)} ms`)
          continue
        }
        log(
          `city-tiles: round ${round} ${side}: first render ${sample.firstRenderMs.toFixed(0)} ms, settled ${sample.settledMs.toFixed(0)} ms, long tasks ${sample.longTaskCount}, peak ${(sample.peakTileMemoryBytes / 2 ** 20).toFixed(1)} MiB, ${sample.tilesLoadedAtEnd} tiles`,
        )
        if (Object.keys(sample.engineMarksMs).length > 0) {
          log(
            `city-tiles: round ${round} ${side}: engine marks ${JSON.stringify(sample.engineMarksMs)}`,
          )
        }
        samples.push({ side, sample })
      }
    }
  } finally {
    await browser.close()
    await server.close()
  }

  const of = (side: BenchSide) =>
    samples.filter((entry) => entry.side === side).map((entry) => entry.sample)
  const ours = summarise(of('ours'))
  const anchor = summarise(of('anchor'))
  const compares = compareSides.map((side, index) => ({
    engineOf: compareTrees[index]!,
    ...summarise(of(side)),
  }))
  const ratios = {
    firstRender: ratioOf(
      'engine/city (MapLibre + deck.gl + loaders.gl)',
      '3DTilesRendererJS 0.5.3 + three.js',
      'ms to first tile drawn',
      ours.firstRender.median,
      anchor.firstRender.median,
    ),
    settled: ratioOf(
      'ours',
      'anchor',
      'ms to the settled final view',
      ours.settled.median,
      anchor.settled.median,
    ),
    frameTimeP95: ratioOf(
      'ours',
      'anchor',
      'p95 frame interval while streaming (ms)',
      ours.frameTimeP95.median,
      anchor.frameTimeP95.median,
    ),
    drawnFrameTimeP95: ratioOf(
      'ours',
      'anchor',
      'p95 interval between drawn frames while streaming (ms)',
      ours.drawnFrameTimeP95.median,
      anchor.drawnFrameTimeP95.median,
    ),
    longTasks: ratioOf(
      'ours',
      'anchor',
      'main-thread tasks ≥ 50 ms',
      ours.longTasks.median,
      anchor.longTasks.median,
    ),
    compareFirstRender: compares.map((compare) =>
      ratioOf(
        `ours with the engine of ${compare.engineOf}`,
        '3DTilesRendererJS 0.5.3 + three.js',
        'ms to first tile drawn',
        compare.firstRender.median,
        anchor.firstRender.median,
      ),
    ),
    firstRenderVsCompare: compares.map((compare) =>
      ratioOf(
        'ours',
        `ours with the engine of ${compare.engineOf}`,
        'ms to first tile drawn',
        ours.firstRender.median,
        compare.firstRender.median,
      ),
    ),
  }
  const report = {
    benchmark: 'city-tiles',
    description:
      'Fly a fixed camera path over a generated oblique-photography tileset in Chromium (production build, SwiftShader WebGL, shared 2-core machine). Ratios are ours ÷ anchor of medians from the same run; runs alternate, each in a fresh browser context, after one unmeasured warm-up run of each. Peak tile memory is each renderer’s own estimate (loaders.gl gpuMemoryUsageInBytes, 3DTilesRendererJS lruCache.cachedBytes).',
    machine: machineInfo(chromiumVersion),
    recipe: benchTilesetRecipe,
    tileset: { tileCount: generated.tileCount, totalBytes: generated.totalBytes },
    settings: {
      maximumScreenSpaceError,
      memoryCapMB,
      rounds,
      isFrameRateLimited,
      isFirstRenderOnly,
      path: cityTilesPath,
    },
    ours,
    anchor,
    ...(compares.length > 0 ? { compares } : {}),
    ratios,
    externalRequests: [...externalRequests],
    goals: {
      ...cityTilesGoals,
      firstRenderMet: ratios.firstRender.value <= cityTilesGoals.firstRenderVsAnchorAtMost,
      settledMet: ratios.settled.value <= cityTilesGoals.settledVsAnchorAtMost,
      longTasksMet: ours.longTasks.median < anchor.longTasks.median,
      oursPeakMemoryWithinCap: ours.peakTileMemory.max <= memoryCapMB,
      anchorPeakMemoryWithinCap: anchor.peakTileMemory.max <= memoryCapMB,
      noRequestLeftLocalhost: externalRequests.size === 0,
    },
    durationMs: Math.round(performance.now() - startedAtMs),
  }
  log(`city-tiles: wrote ${writeBenchResult('city-tiles', report, quiet)}`)
  return report
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runCityTilesBench()
  console.log(JSON.stringify({ ratios: report.ratios, goals: report.goals }, null, 2))
}
