/**
 * P9 for the building (issue 16): frame time with 10,000 building POIs (2D markers with labels
 * and clusters, 30 % 3D instanced models) while orbiting along a fixed camera path, vs the same
 * scene without POIs (goal: median ≤ 1.2×, p95 ≤ 1.3×) and vs one `THREE.Sprite` per POI (the
 * common three.js way); and picking a POI under the pointer among 100,000 (goal: p99 ≤ 16 ms).
 * Production build in Chromium (SwiftShader), cases interleaved round by round in one page.
 * `npm run bench -- poi-building-frames`; writes bench/results/poi-building-frames.json.
 * `BENCH_ROUNDS` timed rounds (default 2); `POI_FRAMES_PARTS=1` adds diagnostic cases: ours with
 * its models, labels or markers left out of the draw, and with none of them drawn (CPU only);
 * `POI_FRAMES_CASES=baseline,ours` runs only the cases named.
 */
import { fileURLToPath } from 'node:url'
import { buildBenchPage, openBenchPage } from './lib/bench-page'
import { launchBenchBrowser } from './lib/browser'
import { processTreeTicks, QuietRounds } from './lib/quiet-rounds'
import { startStaticServer } from './lib/static-server'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'
import type {
  PoiFramesConfig,
  PoiFramesResult,
} from './poi-building-frames-page/poi-building-frames-protocol'

/** Linux's USER_HZ: /proc CPU times count in hundredths of a second. */
const clockTicksPerSecond = 100

/** Issue 16 goals. */
export const poiBuildingGoals = {
  medianVsNoPoisAtMost: 1.2,
  p95VsNoPoisAtMost: 1.3,
  pickP99MsAtMost: 16,
}

const pageRoot = fileURLToPath(new URL('./poi-building-frames-page/', import.meta.url))
const outDir = fileURLToPath(new URL('../dist/bench-poi-building/', import.meta.url))

function frameStats(samples: readonly number[]) {
  return {
    ...measure(samples, 'ms'),
    samples: undefined,
    p95: percentile(samples, 0.95),
  }
}

/** Builds the page, runs it in Chromium, writes the report. */
export async function runPoiBuildingFramesBench(
  options: { rounds?: number; log?: (line: string) => void } = {},
) {
  const log = options.log ?? console.log
  const startedAtMs = performance.now()
  log('poi-building-frames: building the bench page (vite, production)…')
  await buildBenchPage(pageRoot, 'poi-building-frames.html', outDir)
  const server = await startStaticServer(outDir)
  const browser = await launchBenchBrowser()
  try {
    const quiet = new QuietRounds()
    /** Process-tree CPU ticks per case over its timed rounds. */
    const cpuTicks = new Map<string, number>()
    const page = await openBenchPage(
      await browser.newContext({ viewport: { width: 960, height: 540 } }),
      {
        url: `${server.origin}/poi-building-frames.html`,
        entry: 'runPoiFramesBench',
        logPrefix: 'poi-building-frames',
        log,
        consoleTag: '[poi-frames]',
      },
      async (page) => {
        // The quiet-round hooks, also counting the CPU time the browser spent in each round:
        // on a loaded machine wall time swings many times over, CPU time much less.
        let ticksAtStart = 0
        let label = ''
        await page.exposeFunction('benchRoundStart', async (name: string, timed?: boolean) => {
          await quiet.beforeRound(name, timed ?? true)
          label = timed === false ? '' : name
          ticksAtStart = processTreeTicks(process.pid)
        })
        await page.exposeFunction('benchRoundEnd', () => {
          const ticks = processTreeTicks(process.pid) - ticksAtStart
          quiet.afterRound()
          const caseName = label.replace(/ round \d+$/, '')
          if (label && caseName !== label) {
            cpuTicks.set(caseName, (cpuTicks.get(caseName) ?? 0) + ticks)
          }
        })
      },
    )
    const config: PoiFramesConfig = {
      poiCount: 10_000,
      share3d: 0.3,
      pickPoiCount: 100_000,
      rounds: options.rounds ?? (Number(process.env.BENCH_ROUNDS) || 2),
      warmupRounds: 1,
      framesPerRound: 24,
      picksPerRound: 150,
      partCases: process.env.POI_FRAMES_PARTS === '1',
      // e.g. POI_FRAMES_CASES=baseline,ours: a quick same-run A/B of some cases
      ...(process.env.POI_FRAMES_CASES
        ? { caseNames: process.env.POI_FRAMES_CASES.split(',') }
        : {}),
    }
    const result: PoiFramesResult = await page.evaluate(
      (pageConfig) => window.runPoiFramesBench(pageConfig),
      config,
    )
    const cases = Object.fromEntries(
      Object.entries(result.frames).map(([name, samples]) => [name, frameStats(samples)]),
    ) as Record<string, ReturnType<typeof frameStats>> & {
      baseline: ReturnType<typeof frameStats>
      ours: ReturnType<typeof frameStats>
      anchor?: ReturnType<typeof frameStats>
    }
    const pickP99Ms = percentile(result.pickMs, 0.99)
    const ratios = {
      medianVsNoPois: ratioOf(
        '10,000 POIs: engine POI layer',
        'same scene without POIs',
        'frame time median (ms)',
        cases.ours.median,
        cases.baseline.median,
      ),
      p95VsNoPois: ratioOf(
        'ours',
        'no POIs',
        'frame time p95 (ms)',
        cases.ours.p95,
        cases.baseline.p95,
      ),
      medianVsSprites: ratioOf(
        '10,000 POIs: engine POI layer',
        'one THREE.Sprite per POI',
        'frame time median (ms)',
        cases.ours.median,
        // NaN when a partial run left the anchor out
        cases.anchor?.median ?? Number.NaN,
      ),
    }
    const report = {
      benchmark: 'poi-building-frames',
      description:
        'Frame time (camera step + render + 1-pixel read-back, so SwiftShader GPU work counts) along a fixed orbit of a seeded 8-floor building, 960×540, production build in Chromium; cases interleaved by round in one page. Pick: BuildingPoiLayer.pickAt at random canvas points among 100,000 POIs.',
      machine: machineInfo(browser.version()),
      config,
      cases,
      drawCalls: result.drawCalls,
      // what SwiftShader's frame time follows: it runs an instanced draw once per instance
      rasterDraws: result.rasterDraws,
      triangles: result.triangles,
      // ms of CPU (all of the browser's processes and threads: SwiftShader draws on the CPU) per
      // frame, a steadier measure than wall time on a shared machine
      cpuMsPerFrame: Object.fromEntries(
        [...cpuTicks].map(([name, ticks]) => [
          name,
          Math.round(
            (ticks * (1000 / clockTicksPerSecond)) / (config.rounds * (config.framesPerRound + 1)),
          ),
        ]),
      ),
      oursLayerCpu: frameStats(result.layerMs),
      picking: {
        ...measure(result.pickMs, 'ms'),
        samples: undefined,
        p50: percentile(result.pickMs, 0.5),
        p99: pickP99Ms,
        hitShare: Math.round(result.pickHitShare * 1000) / 1000,
      },
      ratios,
      goals: {
        ...poiBuildingGoals,
        medianMet: ratios.medianVsNoPois.value <= poiBuildingGoals.medianVsNoPoisAtMost,
        p95Met: ratios.p95VsNoPois.value <= poiBuildingGoals.p95VsNoPoisAtMost,
        pickP99Met: pickP99Ms <= poiBuildingGoals.pickP99MsAtMost,
      },
      durationMs: Math.round(performance.now() - startedAtMs),
    }
    log(`poi-building-frames: wrote ${writeBenchResult('poi-building-frames', report, quiet)}`)
    return report
  } finally {
    await browser.close()
    await server.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runPoiBuildingFramesBench()
  console.log(
    JSON.stringify(
      {
        cases: report.cases,
        cpuMsPerFrame: report.cpuMsPerFrame,
        rasterDraws: report.rasterDraws,
        ratios: report.ratios,
        goals: report.goals,
        picking: report.picking,
      },
      null,
      2,
    ),
  )
}
