import { launchBenchBrowser } from './browser'
import { buildBenchPage, openBenchPage } from './bench-page'
import { exposeQuietRounds, QuietRounds } from './quiet-rounds'
import { startStaticServer } from './static-server'
import { machineInfo, measure, ratioOf, writeBenchResult } from './stats'

/** Issue 19 goal: rain or snow costs at most this much frame time over no weather. */
export const styleFramesGoals = { weatherVsNoneAtMost: 1.15 }

/** What a weather-frames page is given: rounds interleave the cases, few long 1080p frames. */
export interface WeatherFramesConfig {
  rounds: number
  warmupRounds: number
  framesPerRound: number
}

/** What a weather-frames page answers: frame times per case, and anything else it counted. */
export interface WeatherFramesResult {
  frames: Record<'sunny' | 'rain' | 'snow', number[]>
  [count: string]: unknown
}

/**
 * Runs one weather-frames page (the building's or the city's): builds it, runs it in Chromium
 * at 1920×1080 with quiet-round bookkeeping, and writes the report with the rain and snow
 * ratios against no weather and whether they meet {@link styleFramesGoals}.
 */
export async function runWeatherFramesBench(
  bench: {
    /** The result file's name, also the log prefix and the page's console tag. */
    name: string
    pageRoot: string
    htmlFile: string
    /** The page's global entry function. */
    entry: string
    description: string
    outDir: string
  },
  options: { rounds?: number; log?: (line: string) => void } = {},
) {
  const log = options.log ?? console.log
  const startedAtMs = performance.now()
  log(`${bench.name}: building the bench page (vite, production)…`)
  await buildBenchPage(bench.pageRoot, bench.htmlFile, bench.outDir)
  const server = await startStaticServer(bench.outDir)
  const browser = await launchBenchBrowser()
  try {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } })
    const quiet = new QuietRounds()
    const page = await openBenchPage(
      context,
      {
        url: `${server.origin}/${bench.htmlFile}`,
        entry: bench.entry,
        logPrefix: bench.name,
        log,
        consoleTag: `[${bench.name}]`,
      },
      (page) => exposeQuietRounds(page, quiet),
    )
    const config: WeatherFramesConfig = {
      rounds: options.rounds ?? (Number(process.env.BENCH_ROUNDS) || 2),
      warmupRounds: 1,
      // SwiftShader draws 1080p at a few frames a second on a shared machine: few, long frames
      framesPerRound: 6,
    }
    const { frames, ...counts } = await page.evaluate(
      ([entry, pageConfig]) =>
        (window as unknown as Record<string, (c: WeatherFramesConfig) => WeatherFramesResult>)[
          entry
        ]!(pageConfig),
      [bench.entry, config] as const,
    )
    const cases = {
      sunny: { ...measure(frames.sunny, 'ms'), samples: undefined },
      rain: { ...measure(frames.rain, 'ms'), samples: undefined },
      snow: { ...measure(frames.snow, 'ms'), samples: undefined },
    }
    const versusNone = (label: string, median: number) =>
      ratioOf(label, 'no weather', 'frame time median (ms)', median, cases.sunny.median)
    const ratios = {
      rainVsNone: versusNone('rain (GPU particles)', cases.rain.median),
      snowVsNone: versusNone('snow (GPU particles)', cases.snow.median),
    }
    const report = {
      benchmark: bench.name,
      description: bench.description,
      machine: machineInfo(browser.version()),
      config,
      cases,
      ...counts,
      ratios,
      goals: {
        ...styleFramesGoals,
        rainMet: ratios.rainVsNone.value <= styleFramesGoals.weatherVsNoneAtMost,
        snowMet: ratios.snowVsNone.value <= styleFramesGoals.weatherVsNoneAtMost,
      },
      durationMs: Math.round(performance.now() - startedAtMs),
    }
    log(`${bench.name}: wrote ${writeBenchResult(bench.name, report, quiet)}`)
    return report
  } finally {
    await browser.close()
    await server.close()
  }
}
