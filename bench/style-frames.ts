/**
 * Weather cost (issue 19): frame time with rain or snow falling vs the same styled scene without
 * weather (goal: ≤ 1.15×), at 1920×1080 in Chromium (SwiftShader: the ratio is what counts).
 * The real engine draws a seeded 8-floor building under the default sky with a grass ground;
 * cases are interleaved round by round in one page. `npm run bench -- style-frames`; writes
 * bench/results/style-frames.json.
 */
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { launchBenchBrowser } from './lib/browser'
import { exposeQuietRounds, QuietRounds } from './lib/quiet-rounds'
import { startStaticServer } from './lib/static-server'
import { machineInfo, measure, ratioOf, writeBenchResult } from './lib/stats'
import type { StyleFramesConfig, StyleFramesResult } from './style-frames-page/style-frames-page'

/** Issue 19 goal. */
export const styleFramesGoals = { weatherVsNoneAtMost: 1.15 }

const pageRoot = fileURLToPath(new URL('./style-frames-page/', import.meta.url))
const outDir = fileURLToPath(new URL('../dist/bench-style-frames/', import.meta.url))

/** Builds the page, runs it in Chromium, writes the report. */
export async function runStyleFramesBench(
  options: { rounds?: number; log?: (line: string) => void } = {},
) {
  const log = options.log ?? console.log
  const startedAtMs = performance.now()
  log('style-frames: building the bench page (vite, production)…')
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
      rollupOptions: { input: { frames: `${pageRoot}style-frames.html` } },
    },
  })
  const server = await startStaticServer(outDir)
  const browser = await launchBenchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
    page.on('console', (message) => {
      if (message.text().startsWith('[style-frames]'))
        log(`style-frames: ${message.text().slice(15)}`)
    })
    page.on('pageerror', (error) => log(`style-frames: page error: ${error.message}`))
    const quiet = new QuietRounds()
    await exposeQuietRounds(page, quiet)
    await page.goto(`${server.origin}/style-frames.html`)
    await page.waitForFunction(() => typeof window.runStyleFramesBench === 'function')
    const config: StyleFramesConfig = {
      rounds: options.rounds ?? 2,
      warmupRounds: 1,
      // SwiftShader draws 1080p at a few frames a second on a shared machine: few, long frames
      framesPerRound: 6,
    }
    const result: StyleFramesResult = await page.evaluate(
      (pageConfig) => window.runStyleFramesBench(pageConfig),
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
      benchmark: 'style-frames',
      description:
        'Frame time (camera step + render + pixel read-back through building.sampleStylePixels, so SwiftShader GPU work counts) along a fixed orbit of a seeded 8-floor building, 1920×1080, sunny sky and grass ground, production build in Chromium; cases interleaved by round in one page.',
      machine: machineInfo(browser.version()),
      config,
      cases,
      drawCalls: result.drawCalls,
      particleCounts: result.particleCounts,
      ratios,
      goals: {
        ...styleFramesGoals,
        rainMet: ratios.rainVsNone.value <= styleFramesGoals.weatherVsNoneAtMost,
        snowMet: ratios.snowVsNone.value <= styleFramesGoals.weatherVsNoneAtMost,
      },
      durationMs: Math.round(performance.now() - startedAtMs),
    }
    log(`style-frames: wrote ${writeBenchResult('style-frames', report, quiet)}`)
    return report
  } finally {
    await browser.close()
    await server.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runStyleFramesBench()
  console.log(
    JSON.stringify({ cases: report.cases, ratios: report.ratios, goals: report.goals }, null, 2),
  )
}
