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
  /**
   * Also load the way the app did before session 22 (the page reads the download and posts each
   * chunk to the decode worker, `fetchAndDecodeSbm`), for an A/B against ours (the decode worker
   * downloads the file itself, `decodeFetchedByWorker`).
   */
  comparePosted?: boolean
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
  /**
   * Also load with the decode split across two decode workers, the first downloading the file
   * itself and passing each chunk on to the second (`decodeFetchedByWorker` with `split`).
   */
  compareFetchedSplitDecode?: boolean
  /**
   * Also time the download alone (the page reads the whole body and drops it, no decode): the
   * floor the network path (server, network process, renderer) sets under any decode.
   */
  compareDownloadOnly?: boolean
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
  /** With `comparePosted`: ours with the page reading the download and posting its chunks. */
  oursPosted?: SbmLoadSample[]
  /** With `comparePickingWorkerDecodes`: ours with the picking worker decoding its share. */
  oursPickingWorkerDecodes?: SbmLoadSample[]
  /** With `compareSplitDecode`: ours with the decode split across two decode workers. */
  oursSplitDecode?: SbmLoadSample[]
  /** With `compareFetchedSplitDecode`: ours split across two workers, the first downloading. */
  oursFetchedSplitDecode?: SbmLoadSample[]
  /** With `compareDownloadOnly`: the page's download of the SBM alone, to its last byte. */
  downloadOnly?: SbmLoadSample[]
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
