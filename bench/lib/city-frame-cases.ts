import { join, resolve } from 'node:path'
import { buildBenchPage, openBenchPage } from './bench-page'
import { launchBenchBrowser } from './browser'
import { QuietRounds } from './quiet-rounds'
import { startStaticServer } from './static-server'
import { measure, percentile } from './stats'

/** What every city frames page answers for one case. */
export interface CityFrameSample<Case extends string> {
  benchCase: Case
  frameIntervalsMs: number[]
  setupMs: number
}

/** How {@link runCityFrameCases} builds, opens and drives one city frames page. */
export interface CityFrameCasesOptions<Case extends string, Config, Sample> {
  /** The benchmark's name: the log prefix. */
  name: string
  /** The page's folder, its HTML entry and the build's output folder. */
  page: { root: string; html: string; outDir: string }
  /** The page's `window` function that runs one case: `(config) => Promise<Sample>`. */
  entry: string
  cases: readonly Case[]
  /** Timed rounds (one unmeasured warm-up round of every case comes first). */
  rounds: number
  viewport: { width: number; height: number }
  configOf(benchCase: Case, isWarmUp: boolean): Config
  /** Extra words of a case's log line, after its frame times. */
  describe(sample: Sample): string
  log: (line: string) => void
  /**
   * Other checkouts of the project whose engine (their engine/ and workers/) also runs this page
   * in the same rounds, interleaved with ours: a same-run A/B of engine versions.
   */
  compareTrees?: readonly string[]
}

/**
 * The shared loop of the city frames benchmarks (draw-city-frames, poi-city-frames): builds the
 * page (production), serves it, and runs every case round by round in a fresh browser context,
 * the order rotated each round, after one warm-up of each; the browser paced to the frame rate.
 * Answers the timed samples (and those of each compared checkout), Chromium's version and the
 * quiet-round record for the report.
 */
export async function runCityFrameCases<
  Case extends string,
  Config,
  Sample extends CityFrameSample<Case>,
>(options: CityFrameCasesOptions<Case, Config, Sample>) {
  const { name, log, cases, viewport } = options
  log(`${name}: building the bench page (vite, production)…`)
  await buildBenchPage(options.page.root, options.page.html, options.page.outDir)
  const compareTrees = options.compareTrees ?? []
  for (const [index, tree] of compareTrees.entries()) {
    log(`${name}: building the page again with the engine of ${tree}…`)
    await buildBenchPage(
      options.page.root,
      options.page.html,
      join(options.page.outDir, `compare-${index}`),
      [{ find: /^(\.\.\/){3}engine\//, replacement: `${resolve(tree, 'engine')}/` }],
    )
  }
  // Side 0 is ours; side i + 1 runs the engine of compareTrees[i].
  const sides = [
    options.page.html,
    ...compareTrees.map((_, index) => `compare-${index}/${options.page.html}`),
  ]
  const compared: Sample[][] = compareTrees.map(() => [])
  const server = await startStaticServer(options.page.outDir)
  const browser = await launchBenchBrowser({ isFrameRateLimited: true })
  const chromiumVersion = browser.version()
  const samples: Sample[] = []
  const quiet = new QuietRounds()
  try {
    for (let round = 0; round <= options.rounds; round++) {
      const isWarmUp = round === 0
      const order = cases.map((_, index) => cases[(index + round) % cases.length]!)
      const runs = order.flatMap((benchCase) =>
        sides.map((_, offset) => ({ benchCase, side: (offset + round) % sides.length })),
      )
      for (const { benchCase, side } of runs) {
        // Each case waits for a quiet machine and records its load, so the result says `noisy`
        // only when other work really ran beside it.
        const label = `${isWarmUp ? 'warm-up' : `round ${round}`} ${benchCase}${side > 0 ? ` (${compareTrees[side - 1]})` : ''}`
        const sample = await quiet.round(
          label,
          async () => {
            const context = await browser.newContext({ viewport })
            const page = await openBenchPage(context, {
              url: `${server.origin}/${sides[side]}`,
              entry: options.entry,
              logPrefix: `${name}: ${benchCase}`,
              log,
            })
            const measured = (await page.evaluate(
              ({ entry, config }) =>
                (window as unknown as Record<string, (config: unknown) => Promise<unknown>>)[
                  entry
                ]!(config),
              { entry: options.entry, config: options.configOf(benchCase, isWarmUp) },
            )) as Sample
            await context.close()
            return measured
          },
          !isWarmUp,
        )
        const median = percentile(sample.frameIntervalsMs, 0.5)
        const p95 = percentile(sample.frameIntervalsMs, 0.95)
        log(
          `${name}: ${label}: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, setup ${sample.setupMs.toFixed(0)} ms, ${options.describe(sample)}`,
        )
        if (!isWarmUp) (side === 0 ? samples : compared[side - 1]!).push(sample)
      }
    }
  } finally {
    await browser.close()
    await server.close()
  }
  return { samples, compared, chromiumVersion, quiet }
}

/** The frame times and setup time of one case's samples, as both city frames reports give them. */
export function summariseCityFrames(samples: ReadonlyArray<CityFrameSample<string>>) {
  return {
    frameTimeMedian: measure(
      samples.map((sample) => percentile(sample.frameIntervalsMs, 0.5)),
      'ms',
    ),
    frameTimeP95: measure(
      samples.map((sample) => percentile(sample.frameIntervalsMs, 0.95)),
      'ms',
    ),
    setup: measure(
      samples.map((sample) => sample.setupMs),
      'ms',
    ),
  }
}
