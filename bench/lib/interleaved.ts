import type { QuietRounds } from './quiet-rounds'
import { measure, percentile } from './stats'

/** One side's timings: p50, p99 and median/min/max of every timed call. */
export interface SideTimings {
  p50Ms: number
  p99Ms: number
  medianMs: number
  minMs: number
  maxMs: number
}

/**
 * Times the same call against a small and a large setup, interleaved one call each, the order
 * alternating every call so neither side always runs on the warmer cache, after `warmupCalls`
 * untimed pairs. Each `call` resolves to its own wall time in ms (it checks its answer, so a
 * wrong answer fails the benchmark instead of timing an error).
 */
export async function timeInterleaved(options: {
  small: () => Promise<number>
  large: () => Promise<number>
  warmupCalls: number
  timedCalls: number
  /** Waits (bounded) for a quiet machine before the timed calls and records the load around them. */
  quiet?: { name: string; rounds: QuietRounds }
}): Promise<{ small: SideTimings; large: SideTimings; smallMs: number[]; largeMs: number[] }> {
  const { small, large, warmupCalls, timedCalls, quiet } = options
  for (let index = 0; index < warmupCalls; index++) {
    await small()
    await large()
  }
  await quiet?.rounds.beforeRound(quiet.name)
  const smallMs: number[] = []
  const largeMs: number[] = []
  for (let index = 0; index < timedCalls; index++) {
    if (index % 2 === 0) {
      smallMs.push(await small())
      largeMs.push(await large())
    } else {
      largeMs.push(await large())
      smallMs.push(await small())
    }
  }
  quiet?.rounds.afterRound()
  const side = (samples: number[]): SideTimings => {
    const measured = measure(samples, 'ms')
    return {
      p50Ms: percentile(samples, 0.5),
      p99Ms: percentile(samples, 0.99),
      medianMs: measured.median,
      minMs: measured.min,
      maxMs: measured.max,
    }
  }
  return { small: side(smallMs), large: side(largeMs), smallMs, largeMs }
}
