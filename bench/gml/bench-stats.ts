import { cpus, freemem, loadavg, totalmem } from 'node:os'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { percentile } from '../lib/stats'

/** Distribution of one measured quantity over its samples. */
export interface Summary {
  median: number
  p95: number
  p99: number
  min: number
  max: number
  mean: number
  /** Number of samples the summary is made of. */
  runs: number
}

/** Median, tail percentiles, extremes and mean of a sample set, rounded for reading. */
export function summarize(samples: number[], digits = 4): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const round = (value: number) => Number(value.toFixed(digits))
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length)
  return {
    median: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    p99: round(percentile(sorted, 0.99)),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
    mean: round(mean),
    runs: sorted.length,
  }
}

/** ours ÷ anchor, to 3 decimals: below 1 means we are faster (or smaller). */
export function ratio(ours: number, anchor: number): number {
  return Number((ours / anchor).toFixed(3))
}

/**
 * What the numbers were measured on. The load average matters here: the benchmark machines
 * share 2 cores with other work, so only ratios measured in the same run compare.
 */
export function machine() {
  const [cpu] = cpus()
  return {
    cpuModel: cpu?.model ?? 'unknown',
    cpuCount: cpus().length,
    totalMemoryBytes: totalmem(),
    freeMemoryBytesAtStart: freemem(),
    loadAverageAtStart: loadavg().map((value) => Number(value.toFixed(2))),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: new Date().toISOString(),
  }
}

/** True when a module is the script node was started with (standalone run). */
export function isMainModule(moduleUrl: string): boolean {
  const entry = process.argv[1]
  if (!entry) return false
  const modulePath = fileURLToPath(moduleUrl)
  return modulePath === resolve(entry) || modulePath === resolve(`${entry}.ts`)
}
