import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { launchBenchBrowser } from '../lib/browser'
import { generateArchive } from '../lib/generate-archive'
import { startStaticServer } from '../lib/static-server'
import {
  machineInfo,
  measure,
  type Measurement,
  type Ratio,
  ratioOf,
  writeBenchResult,
} from '../lib/stats'
import type { UnzipCaseName, UnzipPageConfig, UnzipPageResult } from '../pages/unzip-bench-protocol'

/**
 * Zip extraction of a ≥ 100 MB seeded archive in Chromium, three ways in the same page run:
 * our worker (through the engine, as the app does it), fflate.unzipSync on the main thread, and
 * DecompressionStream('deflate-raw') per entry on the main thread.
 */
const recipe = { seed: 20261125, targetCompressedSizeBytes: 100_000_000 }
const cases: UnzipCaseName[] = [
  'ours-worker',
  'ours-worker-no-crc',
  'fflate-unzipSync-main',
  'decompression-stream-main',
]
/** Issue 2 goals: a free main thread while extracting, at ≥ 0.9× unzipSync's throughput. */
export const unzipGoals = { longestMainThreadTaskBelowMs: 50, throughputVsUnzipSyncAtLeast: 0.9 }

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
      rounds: options.rounds ?? 5,
    }
    const result: UnzipPageResult = await page.evaluate(
      (pageConfig) => window.runUnzipBench(pageConfig),
      config,
    )
    const report = buildReport(result, browser.version(), config, performance.now() - startedAtMs)
    log(`unzip: wrote ${writeBenchResult('unzip', report)}`)
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
}

function buildReport(
  result: UnzipPageResult,
  chromiumVersion: string,
  config: UnzipPageConfig,
  durationMs: number,
) {
  const byCase = {} as Record<UnzipCaseName, CaseReport>
  for (const name of config.cases) {
    const samples = result.samples.filter((sample) => sample.caseName === name)
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
        'ms (0 = no task ≥ 50 ms)',
      ),
      longestHeartbeatGapMs: measure(
        samples.map((sample) => sample.longestHeartbeatGapMs),
        'ms',
      ),
    }
  }
  const ours = byCase['ours-worker']
  const unzipSync = byCase['fflate-unzipSync-main']
  const time = (name: UnzipCaseName) => byCase[name].durationMs.median
  const ratios: Ratio[] = [
    ratioOf(
      'ours-worker',
      'fflate-unzipSync-main',
      'durationMs',
      time('ours-worker'),
      time('fflate-unzipSync-main'),
    ),
    ratioOf(
      'ours-worker',
      'decompression-stream-main',
      'durationMs',
      time('ours-worker'),
      time('decompression-stream-main'),
    ),
    ratioOf(
      'ours-worker-no-crc',
      'fflate-unzipSync-main',
      'durationMs',
      time('ours-worker-no-crc'),
      time('fflate-unzipSync-main'),
    ),
    ratioOf(
      'ours-worker-no-crc',
      'decompression-stream-main',
      'durationMs',
      time('ours-worker-no-crc'),
      time('decompression-stream-main'),
    ),
  ]
  const throughputVsUnzipSync =
    Math.round((unzipSync.durationMs.median / ours.durationMs.median) * 1000) / 1000
  const longestOursTaskMs = Math.max(
    ...result.samples
      .filter((sample) => sample.caseName === 'ours-worker')
      .map((sample) => sample.longestTaskMs),
  )
  const longestOursGapMs = ours.longestHeartbeatGapMs.max
  return {
    benchmark: 'unzip',
    description:
      'Extraction of one seeded zip in Chromium (production build). ours-worker: engine.run("archive.extract") on the unzip worker, CRC-32 verified (the product default); ours-worker-no-crc: the same without CRC checks, like the anchors; fflate-unzipSync-main: fflate.unzipSync on the main thread; decompression-stream-main: DecompressionStream("deflate-raw") entry by entry on the main thread. Cases interleaved, order rotated each round.',
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
      throughputVsUnzipSync,
      longestMainThreadTaskDuringOursMs: longestOursTaskMs,
      longestHeartbeatGapDuringOursMs: longestOursGapMs,
      isMainThreadGoalMet:
        longestOursTaskMs < unzipGoals.longestMainThreadTaskBelowMs &&
        longestOursGapMs < unzipGoals.longestMainThreadTaskBelowMs,
      isThroughputGoalMet: throughputVsUnzipSync >= unzipGoals.throughputVsUnzipSyncAtLeast,
    },
  }
}
