/** The messages between the unzip benchmark's driver (Node) and its page (Chromium). */

/** The ways of extracting the archive that are timed side by side. */
export type UnzipCaseName =
  | 'ours-worker'
  | 'ours-single-worker'
  /** The default pool inflating every entry with fflate (before session 13), for an A/B. */
  | 'ours-worker-fflate'
  | 'fflate-unzipSync-main'
  | 'decompression-stream-main'

/** What the driver asks the page to do. */
export interface UnzipPageConfig {
  archiveUrl: string
  cases: UnzipCaseName[]
  /** Untimed rounds first: JIT warm-up, worker start, first allocation of big buffers. */
  warmupRounds: number
  rounds: number
}

/** Prefix of the performance marks around each extraction, which the driver finds in the trace. */
export const unzipMarkPrefix = 'unzip-bench:'

/** One timed extraction. */
export interface UnzipCaseSample {
  caseName: UnzipCaseName
  /** Names its window in the trace: marks `<prefix>start:<label>` and `<prefix>end:<label>`. */
  label: string
  durationMs: number
  /** Longest Long Tasks API entry on the main thread during the run; 0 if none (all < 50 ms). */
  longestTaskMs: number
  /** Longest gap of a 4 ms timer heartbeat on the main thread during the run. */
  longestHeartbeatGapMs: number
}

/** What the page reports back. */
export interface UnzipPageResult {
  archiveSizeBytes: number
  uncompressedSizeBytes: number
  fileCount: number
  samples: UnzipCaseSample[]
  userAgent: string
  isCrossOriginIsolated: boolean
}
