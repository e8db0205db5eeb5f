/**
 * City drawing frames (issue 18): frame time while orbiting the city map with 1,000 saved areas
 * and 1,000 paths shown (engine/city/draw: one ground picture painted on a worker, and plain
 * triangles) against the same map without them, and the page's longest task while the picture
 * is made. Goal: frame time ≤ 1.2× without them. Production build in Chromium
 * (SwiftShader); the cases alternate round by round, each in a fresh browser context, after one
 * unmeasured warm-up of each.
 * Standalone: `npx tsx bench/draw-city-frames.ts`; writes bench/results/draw-city-frames.json.
 */
import { fileURLToPath } from 'node:url'
import type {
  DrawBenchCase,
  DrawBenchConfig,
  DrawBenchSample,
} from './draw-city/page/draw-city-bench-protocol'
import { runCityFrameCases, summariseCityFrames } from './lib/city-frame-cases'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'

/** Issue 18 goal. */
export const drawCityGoals = { medianVsWithoutAtMost: 1.2 }

const cases: DrawBenchCase[] = ['with-drawings', 'without-drawings']

/** The scene both cases orbit (also bench/draw-city-cpu.ts's). */
export const drawCitySettings = {
  center: { lng: 126.978, lat: 37.5665 },
  viewport: { width: 960, height: 600 },
  areaCount: 1_000,
  pathCount: 1_000,
  spreadMeters: 2_000,
  zoom: 14.5,
  pitchDegrees: 45,
}

function summarise(samples: DrawBenchSample[]) {
  return {
    ...summariseCityFrames(samples),
    // Each drawn frame's work to one pixel read back (the GPU done) in a second orbit: not quantised to refreshes.
    frameWorkMedian: measure(
      samples.map((sample) => percentile(sample.frameWorkMs, 0.5)),
      'ms',
    ),
    frameWorkP95: measure(
      samples.map((sample) => percentile(sample.frameWorkMs, 0.95)),
      'ms',
    ),
    visibleShapes: measure(
      samples.map((sample) => sample.visibleShapeCount),
      'shapes',
    ),
    // The editor must never freeze while the drawings' picture is made (issue 18 #18 frames).
    pictureReady: measure(
      samples.map((sample) => sample.pictureMs),
      'ms',
    ),
    longestMainThreadTask: measure(
      samples.map((sample) => sample.longestTaskMs),
      'ms',
    ),
    // One drawing saved among the 2,000 after the orbit: the page's longest task until shown.
    saveOneLongestTask: measure(
      samples.map((sample) => sample.saveOneLongestTaskMs ?? 0),
      'ms',
    ),
  }
}

/** Both cases of one engine's samples, and its ratios of with against without drawings. */
function casesOf(samples: DrawBenchSample[]) {
  const byCase = (benchCase: DrawBenchCase) =>
    summarise(samples.filter((sample) => sample.benchCase === benchCase))
  const withDrawings = byCase('with-drawings')
  const without = byCase('without-drawings')
  const ratios = {
    medianVsWithout: ratioOf(
      'engine/city with 1,000 areas and 1,000 paths',
      'engine/city without drawings',
      'median frame interval (ms)',
      withDrawings.frameTimeMedian.median,
      without.frameTimeMedian.median,
    ),
    p95VsWithout: ratioOf(
      'engine/city with 1,000 areas and 1,000 paths',
      'engine/city without drawings',
      'p95 frame interval (ms)',
      withDrawings.frameTimeP95.median,
      without.frameTimeP95.median,
    ),
    // Beside the intervals (the goal's measure), the frames' work, which refreshes do not round.
    workMedianVsWithout: ratioOf(
      'engine/city with 1,000 areas and 1,000 paths',
      'engine/city without drawings',
      'median frame work, animation frame start to a pixel read back (ms)',
      withDrawings.frameWorkMedian.median,
      without.frameWorkMedian.median,
    ),
    workP95VsWithout: ratioOf(
      'engine/city with 1,000 areas and 1,000 paths',
      'engine/city without drawings',
      'p95 frame work, animation frame start to a pixel read back (ms)',
      withDrawings.frameWorkP95.median,
      without.frameWorkP95.median,
    ),
  }
  return { withDrawings, without, ratios }
}

/** Builds the page, runs both cases alternately, writes the report. */
export async function runDrawCityFramesBench(
  options: { rounds?: number; log?: (line: string) => void; compareTrees?: string[] } = {},
) {
  const log = options.log ?? console.log
  const rounds = options.rounds ?? 3
  const startedAtMs = performance.now()
  const settings = drawCitySettings
  const { viewport } = settings
  const compareTrees = options.compareTrees ?? []
  const { samples, compared, chromiumVersion, quiet } = await runCityFrameCases<
    DrawBenchCase,
    DrawBenchConfig,
    DrawBenchSample
  >({
    name: 'draw-city-frames',
    page: {
      root: fileURLToPath(new URL('./draw-city/page/', import.meta.url)),
      html: 'draw-city.html',
      outDir: fileURLToPath(new URL('../dist/bench-draw-city/', import.meta.url)),
    },
    entry: 'runDrawCityBench',
    cases,
    rounds,
    viewport,
    configOf: (benchCase, isWarmUp) => ({
      benchCase,
      ...settings,
      pathDurationMs: isWarmUp ? 2_000 : 8_000,
    }),
    describe: (sample) =>
      `work median ${percentile(sample.frameWorkMs, 0.5).toFixed(1)} ms p95 ${percentile(sample.frameWorkMs, 0.95).toFixed(1)} ms (${sample.frameWorkMs.length} frames), shapes ${sample.visibleShapeCount}, picture ${sample.pictureMs.toFixed(0)} ms, longest task ${sample.longestTaskMs.toFixed(0)} ms, saving one more: longest task ${(sample.saveOneLongestTaskMs ?? 0).toFixed(0)} ms`,
    log,
    compareTrees,
  })
  const { withDrawings, without, ratios } = casesOf(samples)
  const report = {
    benchmark: 'draw-city-frames',
    description:
      'Orbit the city map (one turn, zoom 14.5, pitch 45°, 8 s) with 1,000 seeded saved areas (6-gons and circles of 20–80 m) and 1,000 8-point paths in a 2 km square, drawn by engine/city/draw (one ground picture painted on a worker, deck.gl), against the same map without them; Chromium production build (SwiftShader), drawn-frame intervals once the picture is shown (the goal measure), and in a second orbit of half the time the work of each drawn frame from the start of its animation frame until one pixel read back from the map arrives (the software GPU done; not quantised to display refreshes). Also the time until it is shown and the longest task of the page meanwhile (longtask entries, 50 ms floor), and after the orbit the longest task while one more drawing is saved among them until its picture is shown. Ratios of medians over rounds; cases rotate, each in a fresh context, after one warm-up of each.',
    machine: machineInfo(chromiumVersion),
    settings: { rounds, ...settings },
    cases: { 'with-drawings': withDrawings, 'without-drawings': without },
    ratios,
    // The same page with the engine of other checkouts (DRAW_BENCH_COMPARE), in the same rounds.
    compared: compareTrees.map((tree, index) => ({ tree, ...casesOf(compared[index]!) })),
    goals: {
      ...drawCityGoals,
      medianVsWithoutMet: ratios.medianVsWithout.value <= drawCityGoals.medianVsWithoutAtMost,
    },
    durationMs: Math.round(performance.now() - startedAtMs),
  }
  log(`draw-city-frames: wrote ${writeBenchResult('draw-city-frames', report, quiet)}`)
  return report
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runDrawCityFramesBench({
    rounds: Number(process.env.DRAW_BENCH_ROUNDS ?? 3),
    // DRAW_BENCH_COMPARE=<checkout>[,<checkout>…]: an A/B against other engine versions.
    compareTrees: (process.env.DRAW_BENCH_COMPARE ?? '').split(',').filter(Boolean),
  })
  console.log(
    JSON.stringify(
      {
        ratios: report.ratios,
        compared: report.compared.map(({ tree, ratios }) => ({ tree, ratios })),
        goals: report.goals,
      },
      null,
      2,
    ),
  )
}
