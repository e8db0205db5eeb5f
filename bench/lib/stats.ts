import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { QuietRounds } from './quiet-rounds'

/** One measured quantity of one case, over its timed runs. */
export interface Measurement {
  median: number
  min: number
  max: number
  /** How many timed runs the numbers come from. */
  runs: number
  unit: string
  samples: number[]
}

/** Summarises samples; values are rounded to 0.01 of their unit for reading. */
export function measure(samples: readonly number[], unit: string): Measurement {
  const sorted = [...samples].sort((a, b) => a - b)
  const round = (value: number) => Math.round(value * 100) / 100
  const middle = Math.floor(sorted.length / 2)
  const median =
    sorted.length % 2 === 1
      ? sorted[middle]!
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
  return {
    median: round(median),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted.at(-1) ?? Number.NaN),
    runs: sorted.length,
    unit,
    samples: samples.map(round),
  }
}

/**
 * The `fraction` quantile of samples by nearest rank (p99 = the smallest sample at or above 99 %
 * of them), rounded to microseconds when the unit is ms; NaN with no samples. One definition for
 * every benchmark, so their tails are comparable.
 */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))
  return Math.round(sorted[index]! * 1000) / 1000
}

/**
 * The frame interval that covers the given fraction of the run's time, shortest first: for a
 * fraction of 0.5, half of the time a person watched, frames came at least this often. Unlike
 * the plain median, a map that drew two quick frames and then froze for half a minute is not
 * reported as quick (each interval counts for as long as it lasted).
 */
export function timeWeightedPercentile(intervals: readonly number[], fraction: number): number {
  if (intervals.length === 0) return Number.NaN
  const sorted = [...intervals].sort((a, b) => a - b)
  const total = sorted.reduce((sum, interval) => sum + interval, 0)
  let covered = 0
  for (const interval of sorted) {
    covered += interval
    if (covered >= fraction * total) return Math.round(interval * 1000) / 1000
  }
  return Math.round(sorted[sorted.length - 1]! * 1000) / 1000
}

/** One "ours ÷ anchor" comparison of medians measured in the same run. */
export interface Ratio {
  ours: string
  anchor: string
  metric: string
  /** ours ÷ anchor: below 1 means ours takes less (time) or has less (of the metric). */
  value: number
}

/** Builds a {@link Ratio} from two medians. */
export function ratioOf(
  ours: string,
  anchor: string,
  metric: string,
  oursMedian: number,
  anchorMedian: number,
): Ratio {
  return { ours, anchor, metric, value: Math.round((oursMedian / anchorMedian) * 1000) / 1000 }
}

/** What the numbers were measured on; the load average shows how shared the machine was. */
export interface MachineInfo {
  cpuModel: string
  cpuCount: number
  totalMemoryBytes: number
  loadAverageAtStart: number[]
  node: string
  chromium: string | null
  platform: string
}

/** Describes this machine; pass the Chromium version for browser benchmarks. */
export function machineInfo(chromium: string | null): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpuCount: cpus().length,
    totalMemoryBytes: totalmem(),
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    node: process.version,
    chromium,
    platform: `${process.platform}-${process.arch}`,
  }
}

/**
 * Writes bench/results/<name>.json and returns its path. The file starts with `noisy` (a round
 * ran while other processes used the machine, or no round was recorded) and ends with the
 * rounds' `load` record (bench/lib/quiet-rounds.ts), so no result is written without them.
 */
export function writeBenchResult(name: string, report: object, rounds: QuietRounds): string {
  const load = rounds.record()
  const noisy = load.roundCount === 0 || load.noisyRoundCount > 0
  // BENCH_RESULTS_DIR sends a run elsewhere (e.g. a noisy one that must not replace a quiet result).
  const folder = process.env.BENCH_RESULTS_DIR
    ? `${process.env.BENCH_RESULTS_DIR.replace(/\/$/, '')}/`
    : fileURLToPath(new URL('../results/', import.meta.url))
  mkdirSync(folder, { recursive: true })
  const path = `${folder}${name}.json`
  writeFileSync(path, `${JSON.stringify({ noisy, ...report, load }, null, 2)}\n`)
  return path
}
