/** What the SBM bench page is asked to do (sent by bench/sbm/sbm-browser-bench.ts). */
export interface SbmPageConfig {
  glbUrl: string
  sbmUrl: string
  rounds: number
  warmupRounds: number
  /** Sequential picks through the worker after loading, for the latency distribution. */
  pickCount: number
  /** Rays per throughput batch, in the worker and on the main thread. */
  batchRayCount: number
  seed: number
  /** Also load by the decode worker fetching the URL itself (session 11's path), for an A/B. */
  compareWorkerFetch?: boolean
  /**
   * Also load the way session 13 tried (`pickingWorkerDecodes: true`): the picking worker decodes
   * positions, indices and BVHs from the bytes it forwards to the decode worker, which decodes
   * what drawing needs; for an A/B against ours (one decode, copied for picking).
   */
  comparePickingWorkerDecodes?: boolean
  /**
   * Also load with the decode split across two decode workers (session 21, `splitDecode`), for
   * an A/B against ours (one decode worker decodes everything).
   */
  compareSplitDecode?: boolean
}

/** One timed load, with what the main thread went through meanwhile. */
export interface SbmLoadSample {
  loadToPickableMs: number
  /** Longest Long Tasks API entry (tasks ≥ 50 ms); 0 when none. */
  longestLongTaskMs: number
  longTaskCount: number
  /** Longest gap of a 4 ms timer heartbeat: catches blocking below 50 ms too. */
  longestHeartbeatGapMs: number
  /** Animation frames delivered during the load, and the longest gap between two. */
  frameCount: number
  longestFrameGapMs: number
  /** Ours only: when the decode worker's answer and the picking worker's answer arrived. */
  decodedAtMs?: number
  pickerReadyAtMs?: number
  /** Ours only: ms per phase, from the decode worker, the main thread and the picking worker. */
  phasesMs?: Record<string, number>
}

/** What the page returns. */
export interface SbmPageResult {
  anchor: SbmLoadSample[]
  ours: SbmLoadSample[]
  /** With `compareWorkerFetch`: ours with the decode worker fetching for itself. */
  oursWorkerFetch?: SbmLoadSample[]
  /** With `comparePickingWorkerDecodes`: ours with the picking worker decoding its share. */
  oursPickingWorkerDecodes?: SbmLoadSample[]
  /** With `compareSplitDecode`: ours with the decode split across two decode workers. */
  oursSplitDecode?: SbmLoadSample[]
  /** Ours, the first load of freshly started workers (warm-up: module load, wasm init, JIT). */
  oursCold: SbmLoadSample
  triangleCount: number
  /** Round trips of single picks through the picking worker (ms). */
  pickRoundTripMs: number[]
  pickHitShare: number
  /** Hover bursts of 10 requests: how many were answered stale (skipped work). */
  hoverStaleShare: number
  /** Rays per second: one batch in the picking worker vs three.js Raycaster on the main thread. */
  workerRaysPerSecond: number[]
  mainThreadRaysPerSecond: number[]
}

/** Prefix of the page's `performance.mark` names around each load (`<prefix>start:ours 1`). */
export const sbmTraceMarkPrefix = 'sbm-load:'
