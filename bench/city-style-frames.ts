/**
 * Weather cost in the city (issue 19): frame time with rain or snow falling vs the same styled
 * map without weather (goal: ≤ 1.15×, the building's style-frames goal), at 1920×1080 in
 * Chromium (SwiftShader: the ratio is what counts). The real city engine draws an offline map
 * tilted to 70° under the sunny sky; cases are interleaved round by round in one page.
 * `npm run bench -- city-style-frames`; writes bench/results/city-style-frames.json.
 */
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { launchBenchBrowser } from './lib/browser'
import { exposeQuietRounds, QuietRounds } from './lib/quiet-rounds'
import { startStaticServer } from './lib/static-server'
import { machineInfo, measure, ratioOf, writeBenchResult } from './lib/stats'
import type {
  CityStyleFramesConfig,
  CityStyleFramesResult,
} from './city-style-frames-page/city-style-frames-page'
import { styleFramesGoals } from './style-frames'

const pageRoot = fileURLToPath(new URL('./city-style-frames-page/', import.meta.url))
const outDir = fileURLToPath(new URL('../dist/bench-city-style-frames/', import.meta.url))

/** Builds the page, runs it in Chromium, writes the report. */
export async function runCityStyleFramesBench(
  options: { rounds?: number; log?: (line: string) => void } = {},
) {
  const log = options.log ?? console.log
  const startedAtMs = performance.now()
  log('city-style-frames: building the bench page (vite, production)…')
  await build({
    configFile: false,
    root: pageRoot,
    base: './',
    logLevel: 'warn',
    worker: { format: 'es' },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      rollupOptions: { input: { frames: `${pageRoot}city-style-frames.html` } },
    },
  })
  const server = await startStaticServer(outDir)
  const browser = await launchBenchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    page.on('console', (message) => {
      if (message.text().startsWith('[city-style-frames]'))
        log(`city-style-frames: ${message.text().slice(20)}`)
    })
    page.on('pageerror', (error) => log(`city-style-frames: page error: ${error.message}`))
    const quiet = new QuietRounds()
    await exposeQuietRounds(page, quiet)
    await page.goto(`${server.origin}/city-style-frames.html`)
    await page.waitForFunction(() => typeof window.runCityStyleFramesBench === 'function')
    const config: CityStyleFramesConfig = {
      rounds: options.rounds ?? 2,
      warmupRounds: 1,
      // SwiftShader draws 1080p at a few frames a second on a shared machine: few, long frames
      framesPerRound: 6,
    }
    const result: CityStyleFramesResult = await page.evaluate(
      (pageConfig) => window.runCityStyleFramesBench(pageConfig),
      config,
    )
    const cases = {
      sunny: { ...measure(result.frames.sunny, 'ms'), samples: undefined },
      rain: { ...measure(result.frames.rain, 'ms'), samples: undefined },
      snow: { ...measure(result.frames.snow, 'ms'), samples: undefined },
    }
    const ratios = {
      rainVsNone: ratioOf(
        'rain (GPU particles)',
        'no weather',
        'frame time median (ms)',
        cases.rain.median,
        cases.sunny.median,
      ),
      snowVsNone: ratioOf(
        'snow (GPU particles)',
        'no weather',
        'frame time median (ms)',
        cases.snow.median,
        cases.sunny.median,
      ),
    }
    const report = {
      benchmark: 'city-style-frames',
      description:
        'Frame time (camera turn + MapLibre render + pixel read-back through city.sampleStylePixels, so SwiftShader GPU work counts) of the city map tilted to 70° under the sunny sky, 1920×1080, production build in Chromium; cases interleaved by round in one page.',
      machine: machineInfo(browser.version()),
      config,
      cases,
      particleCounts: result.particleCounts,
      ratios,
      goals: {
        ...styleFramesGoals,
        rainMet: ratios.rainVsNone.value <= styleFramesGoals.weatherVsNoneAtMost,
        snowMet: ratios.snowVsNone.value <= styleFramesGoals.weatherVsNoneAtMost,
      },
      durationMs: Math.round(performance.now() - startedAtMs),
    }
    log(`city-style-frames: wrote ${writeBenchResult('city-style-frames', report, quiet)}`)
    return report
  } finally {
    await browser.close()
    await server.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runCityStyleFramesBench()
  console.log(
    JSON.stringify({ cases: report.cases, ratios: report.ratios, goals: report.goals }, null, 2),
  )
}
