/**
 * Milliseconds per phase of one model load (fetch, container checks, geometry decode, BVH
 * attach, copies …), measured where the work runs and sent back with the result, so the
 * benchmarks can publish where a load's time goes (bench/README.md, sbm). Phases add up:
 * a phase entered several times (once per primitive) accumulates.
 */
export type LoadTimings = Record<string, number>

/** A lap timer: each `lap(phase)` books the time since the previous lap to `phase`. */
export interface LapTimer {
  lap(phase: string): void
  readonly timings: LoadTimings
}

/** Starts a {@link LapTimer} now, adding to `timings` when given. */
export function startLapTimer(timings: LoadTimings = {}): LapTimer {
  let lastMs = performance.now()
  return {
    timings,
    lap(phase) {
      const nowMs = performance.now()
      timings[phase] = (timings[phase] ?? 0) + (nowMs - lastMs)
      lastMs = nowMs
    },
  }
}
