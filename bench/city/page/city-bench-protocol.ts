/** What the Node runner and the city bench page exchange (plain JSON). */

/** Prefix of the page's `performance.mark`s around the first render (read from a trace). */
export const cityBenchMarkPrefix = 'city-bench:'

/** One camera pose in map terms, shared by both renderers. */
export interface CameraKeyframe {
  /** Metres east / north of the tileset origin of the point the camera looks at. */
  eastMeters: number
  northMeters: number
  /** MapLibre zoom (512 px tiles). */
  zoom: number
  pitchDegrees: number
  bearingDegrees: number
}

/** One timed run of one renderer in a fresh browser context. */
export interface CityBenchConfig {
  renderer: 'ours' | 'anchor'
  tilesetUrl: string
  origin: { lng: number; lat: number }
  /** Column-major local ENU → ECEF root transform of the tileset. */
  rootTransform: number[]
  viewport: { width: number; height: number }
  maximumScreenSpaceError: number
  memoryCapMB: number
  /** Flown at constant speed over `pathDurationMs`, then the last pose is held. */
  path: CameraKeyframe[]
  pathDurationMs: number
  /** Gives up waiting for the final view to settle after this long. */
  settleTimeoutMs: number
  /**
   * After the run (CITY_BENCH_GPU_PROBE), this many frames are drawn one at a time at the
   * final view, each followed by a 1-pixel read that waits until the GPU has finished it: what
   * a frame really costs the GPU, against what the fences and the pacing say. 0: none.
   */
  gpuProbeFrames: number
  /**
   * Ends the run one frame after the first render (CITY_BENCH_FIRST_RENDER_ONLY): a quick A/B
   * of the first render alone; settling, frame times and long tasks are then not measured.
   */
  stopAtFirstRender: boolean
}

/** What one run measured. */
export interface CityBenchSample {
  renderer: 'ours' | 'anchor'
  /** From start to the first frame that drew tile content. */
  firstRenderMs: number
  /** From start to the final view with nothing left loading (NaN when it never settled). */
  settledMs: number
  /** rAF intervals from start until settled. */
  frameIntervalsMs: number[]
  /**
   * Intervals between frames the renderer drew, over the same window: ours, when the map drew
   * (its GPU frame pacing skips frames while the GPU is behind); the anchor draws in every rAF.
   */
  drawnFrameIntervalsMs: number[]
  /** Long Tasks API entries (≥ 50 ms) from start until settled. */
  longTaskCount: number
  longestLongTaskMs: number
  /** Highest tile memory the renderer reported (its own estimate). */
  peakTileMemoryBytes: number
  tilesLoadedAtEnd: number
  tileErrors: number
  /**
   * Ours only: ms after start when the map first drew, the tileset's tree was ready, the root
   * preview and the first streamed tile were drawn (as the page's frame loop saw them).
   */
  milestonesMs: Record<string, number>
  /**
   * Ours only: the engine's User Timing marks named `city:…` (first of each name), ms after
   * start: the steps inside the engine that the snapshot does not show.
   */
  engineMarksMs: Record<string, number>
  /** Ours only: per pacing fence, ms from its creation to the first poll that saw it signalled. */
  fenceSignalledAfterMs: number[]
  /** Ours only: polls of a pacing fence that said "not yet". */
  unsignalledFencePolls: number
  /** Per probe frame (`gpuProbeFrames`): ms from the frame's end to the GPU having finished it. */
  gpuFrameMs: number[]
}

declare global {
  interface Window {
    runCityBench(config: CityBenchConfig): Promise<CityBenchSample>
  }
}
