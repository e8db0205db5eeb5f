/** What the driver (bench/poi-building-frames.ts) asks the page to run. */
export interface PoiFramesConfig {
  /** POIs drawn while orbiting (2D and 3D mixed). */
  poiCount: number
  /** Share of them that are 3D (instanced template models). */
  share3d: number
  /** POIs among which picking is timed. */
  pickPoiCount: number
  rounds: number
  warmupRounds: number
  /** Frames per case per round along the fixed camera path. */
  framesPerRound: number
  picksPerRound: number
}

/** Frame times per case (ms, every timed frame), and pick times (ms). */
export interface PoiFramesResult {
  frames: { baseline: number[]; ours: number[]; anchor: number[] }
  drawCalls: { baseline: number; ours: number; anchor: number }
  /** CPU time of the POI layer's per-frame work (projection, clusters, labels), ms. */
  layerMs: number[]
  pickMs: number[]
  pickHitShare: number
}
