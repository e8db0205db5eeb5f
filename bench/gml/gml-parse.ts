import { execFile } from 'node:child_process'
import { createWriteStream, existsSync, renameSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { QuietRounds } from '../lib/quiet-rounds'
import { writeBenchResult } from '../lib/stats'
import { isMainModule, machine, ratio, summarize } from './bench-stats'
import { type BuildingRecipe, generateBuilding, writeIndoorGml } from './generate-building'

/**
 * Parsing benchmark (issue 6, performance): a generated IndoorGML file of more than 100 MB,
 * parsed by our streaming parser (saxes underneath, the file read in 1 MiB chunks, only the
 * navigation network kept) and by fast-xml-parser building a document of the whole file.
 * Each parse runs alone in a child process, so its peak memory (VmHWM) is its own; an idle
 * child gives the runtime's own share.
 */

/** About 32,000 States with a box solid per CellSpace: ~110 MB, mostly primal geometry. */
export const PARSE_BUILDING: BuildingRecipe = {
  seed: 11,
  storeys: 8,
  corridorRows: 25,
  corridorColumns: 40,
  roomsPerJunction: 3,
  stairCores: 4,
  reverseShare: 0.2,
  storeyHeight: 3.4,
}

/** Bumped whenever the generator's output changes, so a cached file is never stale. */
const GENERATOR_VERSION = 1
const MINIMUM_SIZE_BYTES = 100 * 1000 * 1000

interface ChildResult {
  mode: string
  durationMs: number
  buildDurationMs?: number
  maxRssBytes: number
  counts: Record<string, number>
}

/** Writes the generated file once per recipe; later runs reuse it from the temp folder. */
async function generatedFile(log: (line: string) => void): Promise<string> {
  const path = join(
    tmpdir(),
    `twinscape-gml-bench-v${GENERATOR_VERSION}-${PARSE_BUILDING.seed}-${PARSE_BUILDING.storeys}x${PARSE_BUILDING.corridorRows}x${PARSE_BUILDING.corridorColumns}.gml`,
  )
  if (existsSync(path) && statSync(path).size >= MINIMUM_SIZE_BYTES) return path
  log(`gml-parse: writing ${path}…`)
  const partial = `${path}.partial`
  const out = createWriteStream(partial)
  const chunks = writeIndoorGml(generateBuilding(PARSE_BUILDING), {
    withCellGeometry: true,
    seed: 1,
  })
  for (const chunk of chunks) {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  )
  renameSync(partial, path)
  if (statSync(path).size < MINIMUM_SIZE_BYTES) {
    throw new Error(`generated file is only ${statSync(path).size} bytes; raise PARSE_BUILDING`)
  }
  return path
}

function runChild(mode: string, file: string): Promise<ChildResult> {
  const child = fileURLToPath(new URL('./parse-child.ts', import.meta.url))
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      // fast-xml-parser's document of a 100 MB file needs more than the default heap.
      ['--max-old-space-size=8192', '--import', 'tsx', child, mode, file],
      { maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${mode} failed: ${stderr || error.message}`))
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildResult)
      },
    )
  })
}

/** Up to `maxRuns` runs, stopping early once `budgetMs` is spent (the slow anchor). */
async function repeat(
  mode: string,
  file: string,
  maxRuns: number,
  budgetMs: number,
  rounds: QuietRounds,
  log: (line: string) => void,
): Promise<ChildResult[]> {
  const results: ChildResult[] = []
  let spentMs = 0
  while (results.length < maxRuns && (results.length === 0 || spentMs < budgetMs)) {
    const result = await rounds.round(`${mode} #${results.length + 1}`, () => runChild(mode, file))
    results.push(result)
    spentMs += result.durationMs
    log(
      `  ${mode}: ${(result.durationMs / 1000).toFixed(2)} s, peak RSS ${(result.maxRssBytes / 1e6).toFixed(0)} MB`,
    )
  }
  return results
}

/** Options of a parsing benchmark run. */
export interface GmlParseBenchOptions {
  /** Runs per parser at most; the anchor stops early when it is slow. */
  maxRuns?: number
  shouldWriteResult?: boolean
  log?: (line: string) => void
}

/** Runs the parsing benchmark and returns (and by default writes) its report. */
export async function runGmlParseBench(options: GmlParseBenchOptions = {}) {
  const log = options.log ?? ((line: string) => console.log(line))
  const maxRuns = options.maxRuns ?? 3
  const startedAt = performance.now()
  const machineInfo = machine()
  const file = await generatedFile(log)
  const sizeBytes = statSync(file).size
  log(`gml-parse: ${file} (${(sizeBytes / 1e6).toFixed(1)} MB)`)

  const rounds = new QuietRounds()
  const [baseline] = await repeat('baseline', file, 1, 0, rounds, log)
  const ours = await repeat('ours', file, maxRuns, 30_000, rounds, log)
  const [withGraph] = await repeat('ours-graph', file, 1, 0, rounds, log)
  const anchor = await repeat('fast-xml-parser', file, maxRuns, 40_000, rounds, log)

  const time = (results: ChildResult[]) =>
    summarize(
      results.map((result) => result.durationMs),
      1,
    )
  const peak = (results: ChildResult[]) =>
    summarize(
      results.map((result) => result.maxRssBytes),
      0,
    )
  const oursTime = time(ours)
  const anchorTime = time(anchor)
  const oursPeak = peak(ours)
  const anchorPeak = peak(anchor)
  const runtimeRss = baseline!.maxRssBytes
  const report = {
    benchmark: 'gml-parse',
    description:
      'Parse of a generated IndoorGML file > 100 MB: our streaming parser (saxes, 1 MiB chunks, keeps only the navigation network) vs fast-xml-parser building a document of the whole file read as one string. Each run in its own child process; peak memory = VmHWM (own peak RSS) of that process. Ratio = ours ÷ anchor (below 1 is better).',
    machine: machineInfo,
    durationMs: Math.round(performance.now() - startedAt),
    file: { path: file, sizeBytes, recipe: PARSE_BUILDING, counts: ours[0]!.counts },
    ours: {
      durationMs: oursTime,
      peakRssBytes: oursPeak,
      throughputMBPerSecond: Number((sizeBytes / 1e6 / (oursTime.median / 1000)).toFixed(1)),
    },
    oursWithGraphBuild: {
      durationMs: withGraph!.durationMs,
      buildDurationMs: withGraph!.buildDurationMs,
      peakRssBytes: withGraph!.maxRssBytes,
      counts: withGraph!.counts,
    },
    fastXmlParser: {
      durationMs: anchorTime,
      peakRssBytes: anchorPeak,
      throughputMBPerSecond: Number((sizeBytes / 1e6 / (anchorTime.median / 1000)).toFixed(1)),
    },
    runtimeOnlyPeakRssBytes: runtimeRss,
    ratios: {
      durationMedian: ratio(oursTime.median, anchorTime.median),
      peakRssMedian: ratio(oursPeak.median, anchorPeak.median),
      /** Same, after taking away what an idle Node + tsx process holds anyway. */
      peakRssAboveRuntime: ratio(oursPeak.median - runtimeRss, anchorPeak.median - runtimeRss),
    },
  }
  if (options.shouldWriteResult !== false) {
    log(`gml-parse: wrote ${writeBenchResult('gml-parse', report, rounds)}`)
  }
  return report
}

if (isMainModule(import.meta.url)) {
  const report = await runGmlParseBench()
  console.log(
    `ours ${report.ours.durationMs.median} ms, ${(report.ours.peakRssBytes.median / 1e6).toFixed(0)} MB | fast-xml-parser ${report.fastXmlParser.durationMs.median} ms, ${(report.fastXmlParser.peakRssBytes.median / 1e6).toFixed(0)} MB | ratios ${JSON.stringify(report.ratios)}`,
  )
}
