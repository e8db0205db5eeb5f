import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { launchBenchBrowser } from '../lib/browser'
import { measureTraceWindows, type TraceWindow, traceCategories } from '../lib/chromium-trace'
import { generateArchive } from '../lib/generate-archive'
import { exposeQuietRounds, QuietRounds } from '../lib/quiet-rounds'
import { startStaticServer } from '../lib/static-server'
import {
  machineInfo,
  measure,
  type Measurement,
  type Ratio,
  ratioOf,
  writeBenchResult,
} from '../lib/stats'
import {
  type UnzipCaseName,
  type UnzipPageConfig,
  type UnzipPageResult,
  unzipMarkPrefix,
} from '../pages/unzip-bench-protocol'

/**
 * Zip extraction of a ≥ 100 MB seeded archive in Chromium, three ways in the same page run:
 * our worker (through the engine, as the app does it), fflate.unzipSync on the main thread, and
 * DecompressionStream('deflate-raw') per entry on the main thread.
 */
const recipe = { seed: 20261125, targetCompressedSizeBytes: 100_000_000 }
const cases: UnzipCaseName[] = [
  'ours-worker',
  'ours-single-worker',
  'fflate-unzipSync-main',
  'decompression-stream-main',
  // BENCH_UNZIP_COMPARE=1: the default pool with fflate for every entry (before session 13)
  ...(process.env.BENCH_UNZIP_COMPARE === '1' ? (['ours-worker-fflate'] as const) : []),
]
/** Issue 2 goals: a free main thread while extracting, at ≥ 0.9× unzipSync's throughput. */
export const unzipGoals = { longestMainThreadTaskBelowMs: 50, throughputVsUnzipSyncAtLeast: 0.9 }
/** Issue 23's bar: the default pool at ≥ 1.5× unzipSync's throughput. */
export const unzipIssue23Goals = { throughputVsUnzipSyncAtLeast: 1.5 }

const distFolder = new URL('../../dist/', import.meta.url)

/** The archive is generated once per recipe (≈ 25 s) and kept under dist/, which git ignores. */
function ensureArchive(log: (line: string) => void): string {
  const folder = fileURLToPath(new URL('bench-data/', distFolder))
  const path = `${folder}unzip-${recipe.seed}-${recipe.targetCompressedSizeBytes}.zip`
  if (existsSync(path)) return path
  log('unzip: generating the seeded archive (once)…')
  mkdirSync(folder, { recursive: true })
  const archive = generateArchive(recipe)
  writeFileSync(`${path}.partial`, archive.bytes)
  renameSync(`${path}.partial`, path)
  return path
}

/** Options of {@link runUnzipBench}. */
export interface UnzipBenchOptions {
  rounds?: number
  warmupRounds?: number
  log?: (line: string) => void
}

/** Runs the benchmark and writes bench/results/unzip.json; returns the report. */
export async function runUnzipBench(options: UnzipBenchOptions = {}) {
  const log = options.log ?? console.log
  const startedAtMs = performance.now()
  const archivePath = ensureArchive(log)
  log('unzip: building the bench page (vite, production)…')
  await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)) })

  const server = await startStaticServer(fileURLToPath(new URL('bench/', distFolder)), {
    '/archive.zip': archivePath,
  })
  const browser = await launchBenchBrowser()
  try {
    const page = await browser.newPage()
    const quiet = new QuietRounds()
    await exposeQuietRounds(page, quiet)
    page.on('console', (message) => {
      if (message.text().startsWith('[unzip-bench]')) log(`unzip: ${message.text().slice(14)}`)
    })
    page.on('pageerror', (error) => log(`unzip: page error: ${error.message}`))
    await page.goto(`${server.origin}/unzip.html`)
    await page.waitForFunction(() => typeof window.runUnzipBench === 'function')
    const config: UnzipPageConfig = {
      archiveUrl: '/archive.zip',
      cases,
      warmupRounds: options.warmupRounds ?? 1,
      rounds: options.rounds ?? (Number(process.env.BENCH_ROUNDS) || 5),
    }
    // Traced so that CPU time per thread can be told apart from waiting for a busy machine.
    await browser.startTracing(page, { categories: traceCategories })
    const result: UnzipPageResult = await page.evaluate(
      (pageConfig) => window.runUnzipBench(pageConfig),
      config,
    )
    const traceJson = (await browser.stopTracing()).toString('utf8')
    const trace = measureTraceWindows(traceJson, unzipMarkPrefix)
    const report = buildReport(
      result,
      trace,
      browser.version(),
      config,
      performance.now() - startedAtMs,
    )
    log(`unzip: wrote ${writeBenchResult('unzip', report, quiet)}`)
    return report
  } finally {
    await browser.close()
    await server.close()
  }
}

interface CaseReport {
  durationMs: Measurement
  throughputMBps: Measurement
  longestMainThreadTaskMs: Measurement
  longestHeartbeatGapMs: Measurement
  rendererCpuMs: Measurement
  longestMainThreadTaskCpuMs: Measurement
}

const description = [
  'Extraction of one seeded zip in Chromium (production build), every case from the same Blob.',
  'ours-worker: engine.run("archive.extract") with the default worker pool (one worker per core, up to 4, splitting the entries), CRC-32 verified;',
  'ours-single-worker: the same with a pool of one worker;',
  'fflate-unzipSync-main: blob.arrayBuffer() then fflate.unzipSync on the main thread;',
  'decompression-stream-main: DecompressionStream("deflate-raw") entry by entry on the main thread;',
  'ours-worker-fflate (BENCH_UNZIP_COMPARE=1): ours-worker inflating every entry with fflate, the path before session 13.',
  'Cases interleaved, order rotated each round. CPU figures come from a Chromium trace.',
].join(' ')

function buildReport(
  result: UnzipPageResult,
  trace: Map<string, TraceWindow>,
  chromiumVersion: string,
  config: UnzipPageConfig,
  durationMs: number,
) {
  const windowOf = (label: string) => {
    const window = trace.get(label)
    if (!window) throw new Error(`the trace has no marks for ${label}`)
    return window
  }
  const byCase = {} as Record<UnzipCaseName, CaseReport>
  for (const name of config.cases) {
    const samples = result.samples.filter((sample) => sample.caseName === name)
    const windows = samples.map((sample) => windowOf(sample.label))
    byCase[name] = {
      durationMs: measure(
        samples.map((sample) => sample.durationMs),
        'ms',
      ),
      throughputMBps: measure(
        samples.map((sample) => result.uncompressedSizeBytes / 1e6 / (sample.durationMs / 1000)),
        'MB/s (10^6 uncompressed bytes per second)',
      ),
      longestMainThreadTaskMs: measure(
        samples.map((sample) => sample.longestTaskMs),
        'ms of wall time (0 = no task reached 50 ms)',
      ),
      longestHeartbeatGapMs: measure(
        samples.map((sample) => sample.longestHeartbeatGapMs),
        'ms of wall time',
      ),
      rendererCpuMs: measure(
        windows.map((window) => window.rendererCpuMs),
        'ms of CPU (main thread + workers)',
      ),
      longestMainThreadTaskCpuMs: measure(
        windows.map((window) => window.longestMainTaskCpuMs),
        'ms of CPU',
      ),
    }
  }

  const median = (name: UnzipCaseName, metric: 'durationMs' | 'rendererCpuMs') =>
    byCase[name][metric].median
  const ratios: Ratio[] = []
  for (const ours of ['ours-worker', 'ours-single-worker'] as const) {
    for (const anchor of ['fflate-unzipSync-main', 'decompression-stream-main'] as const) {
      for (const metric of ['durationMs', 'rendererCpuMs'] as const) {
        ratios.push(ratioOf(ours, anchor, metric, median(ours, metric), median(anchor, metric)))
      }
    }
  }
  const round3 = (value: number) => Math.round(value * 1000) / 1000
  const oursCases = ['ours-worker', 'ours-single-worker'] as const
  const oursSamples = result.samples.filter((sample) =>
    (oursCases as readonly string[]).includes(sample.caseName),
  )
  const longestOursTaskWallMs = Math.max(...oursSamples.map((sample) => sample.longestTaskMs))
  const longestOursTaskCpuMs = Math.max(
    ...oursCases.map((name) => byCase[name].longestMainThreadTaskCpuMs.max),
  )
  const throughputVs = (name: UnzipCaseName, metric: 'durationMs' | 'rendererCpuMs') =>
    round3(median('fflate-unzipSync-main', metric) / median(name, metric))
  const throughputVsUnzipSync = throughputVs('ours-worker', 'durationMs')
  return {
    benchmark: 'unzip',
    description,
    createdAt: new Date().toISOString(),
    durationMs: Math.round(durationMs),
    machine: machineInfo(chromiumVersion),
    input: {
      seed: recipe.seed,
      archiveSizeBytes: result.archiveSizeBytes,
      uncompressedSizeBytes: result.uncompressedSizeBytes,
      fileCount: result.fileCount,
      warmupRounds: config.warmupRounds,
      isCrossOriginIsolated: result.isCrossOriginIsolated,
    },
    cases: byCase,
    ratios,
    goals: {
      ...unzipGoals,
      /** unzipSync time ÷ ours time (medians): ours' throughput relative to the anchor's. */
      throughputVsUnzipSync,
      singleWorkerThroughputVsUnzipSync: throughputVs('ours-single-worker', 'durationMs'),
      /** unzipSync CPU ÷ single-worker CPU: the work per byte, which a busy machine distorts less. */
      singleWorkerCpuEfficiencyVsUnzipSync: throughputVs('ours-single-worker', 'rendererCpuMs'),
      /** Over both ours cases and every run. */
      longestMainThreadTaskDuringOursWallMs: longestOursTaskWallMs,
      longestMainThreadTaskDuringOursCpuMs: longestOursTaskCpuMs,
      isMainThreadGoalMet: longestOursTaskCpuMs < unzipGoals.longestMainThreadTaskBelowMs,
      isMainThreadGoalMetByWallClock:
        longestOursTaskWallMs < unzipGoals.longestMainThreadTaskBelowMs,
      isThroughputGoalMet: throughputVsUnzipSync >= unzipGoals.throughputVsUnzipSyncAtLeast,
      issue23: {
        ...unzipIssue23Goals,
        isThroughputGoalMet:
          throughputVsUnzipSync >= unzipIssue23Goals.throughputVsUnzipSyncAtLeast,
        ...(byCase['ours-worker-fflate']
          ? { beforeThroughputVsUnzipSync: throughputVs('ours-worker-fflate', 'durationMs') }
          : {}),
      },
    },
  }
}
