/** What the Node runner and the city POI bench page exchange (plain JSON). */

/** One camera pose in map terms. */
export interface PoiCameraPose {
  /** Metres east / north of the scene's centre of the point the camera looks at. */
  eastMeters: number
  northMeters: number
  zoom: number
  pitchDegrees: number
  bearingDegrees: number
}

/** The three scenes compared in one round. */
export type PoiBenchCase = 'ours-pois' | 'ours-no-pois' | 'anchor-deck-icon-text'

/** One timed run of one case in a fresh browser context. */
export interface PoiBenchConfig {
  benchCase: PoiBenchCase
  center: { lng: number; lat: number }
  viewport: { width: number; height: number }
  poiCount: number
  /** Share of POIs drawn as 3D models (the rest are 2D icons). */
  share3d: number
  /** Side of the square the POIs are spread over (seeded), metres. */
  spreadMeters: number
  /** Flown at constant speed over `pathDurationMs`. */
  path: PoiCameraPose[]
  pathDurationMs: number
  /** Picks timed after the path (ours-pois only): at each pose, this many random points. */
  pickPoses: PoiCameraPose[]
  picksPerPose: number
}

/** What one run measured. */
export interface PoiBenchSample {
  benchCase: PoiBenchCase
  /** Intervals between drawn map frames while flying the path (after set-up). */
  frameIntervalsMs: number[]
  /**
   * Each drawn map frame's work, flying the path a second time: from the start of the map's
   * animation-frame callback to `a one-pixel `gl.readPixels` after it drew (the page's CPU and the
   * software GPU's drawing of that frame, one frame at a time). Not quantised to display
   * refreshes as the intervals are; the read back serialises frames, so it is a pass of its own.
   */
  frameWorkMs: number[]
  /** The same frames' page-thread part: the callback's start until the frame was issued. */
  frameIssueMs: number[]
  /** Time to hand the scene its POIs (setPois, or the anchor's layers) until the next frame. */
  setupMs: number
  /** `city.pickPoiAtScreenPoint` durations (ours-pois only). */
  pickDurationsMs: number[]
  /** Picks that found a POI (a pick on the land finds none). */
  pickHits: number
  /** Markers and clusters our scene drew at the end (snapshot), 0 for others. */
  drawnCount: number
}

declare global {
  interface Window {
    runPoiCityBench(config: PoiBenchConfig): Promise<PoiBenchSample>
  }
}
