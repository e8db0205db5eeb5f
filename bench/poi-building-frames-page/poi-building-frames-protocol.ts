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
  /**
   * Diagnostic cases beside the three (`POI_FRAMES_PARTS=1`): ours with one kind of the layer's
   * meshes left out of the draw (the layer's CPU work still runs), to see which draw costs.
   */
  partCases?: boolean
  /** Only these cases (by name), e.g. a quick same-run A/B of `baseline` and `ours`. */
  caseNames?: string[]
}

/** Frame times per case (ms, every timed frame), and pick times (ms). */
export interface PoiFramesResult {
  frames: Record<string, number[]>
  drawCalls: Record<string, number>
  /**
   * Draws as SwiftShader runs them in each case's last frame: it runs an instanced draw as one
   * draw per instance, each with its own set-up, so this, not `drawCalls`, is what its frame
   * time follows.
   */
  rasterDraws: Record<string, number>
  /** Triangles drawn in each case's last frame (three's count): the vertex work beside the draws. */
  triangles: Record<string, number>
  /** CPU time of the POI layer's per-frame work (projection, clusters, labels), ms. */
  layerMs: number[]
  pickMs: number[]
  pickHitShare: number
}
