/** What the Node runner and the city drawing frames bench page exchange (plain JSON). */

/** The two scenes compared in one round. */
export type DrawBenchCase = 'with-drawings' | 'without-drawings'

/** One timed run of one case in a fresh browser context. */
export interface DrawBenchConfig {
  benchCase: DrawBenchCase
  center: { lng: number; lat: number }
  viewport: { width: number; height: number }
  /** Saved areas (polygons and circles) and paths (polylines) drawn. */
  areaCount: number
  pathCount: number
  /** Side of the square they are spread over (seeded), metres. */
  spreadMeters: number
  /** One orbit of this many degrees of bearing at a fixed zoom and pitch. */
  zoom: number
  pitchDegrees: number
  pathDurationMs: number
}

/** What one run measured. */
export interface DrawBenchSample {
  benchCase: DrawBenchCase
  /** Intervals between drawn map frames while orbiting (after set-up). */
  frameIntervalsMs: number[]
  /** `draw.setShapes` until the next frame. */
  setupMs: number
  /** `draw.setShapes` until the tilted view's ground picture is shown (the set-up included). */
  pictureMs: number
  /** The page's longest task meanwhile, ms (0: none of 50 ms or more, Chromium's floor). */
  longestTaskMs: number
  /** Ground pictures asked for while orbiting (each plans on the page's thread and paints). */
  orbitPaints: number
  /**
   * A second orbit (half as long) after the first: each drawn frame's work, from the animation
   * frame's start to one pixel read back (the software GPU done), ms. Not quantised to refreshes as
   * the intervals are.
   */
  frameWorkMs: number[]
  /**
   * After the orbit, one drawing saved among the others (\`draw.setShapes\` with one more): the
   * page's longest task until its picture is shown, ms (0: none of 50 ms or more; 0 without
   * drawings).
   */
  saveOneLongestTaskMs: number
  /** Shapes shown (snapshot), 0 without drawings. */
  visibleShapeCount: number
}

declare global {
  interface Window {
    runDrawCityBench(config: DrawBenchConfig): Promise<DrawBenchSample>
    /** Set by a runner that reads the browser's processes' CPU at the orbit's start and end. */
    drawBenchMark?(point: 'start' | 'end'): Promise<void>
  }
}
