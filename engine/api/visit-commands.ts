/**
 * Visit mode's engine commands (issue 19): a PNG of the scene at the current view, saved by the
 * UI as a capture (contract/visit.ts) together with `snapshot.building.camera`.
 */

/** What `building.capturePng` answers. */
export interface CapturedPng {
  png: Blob
  width: number
  height: number
}

/** Commands of visit mode in the building scene. */
export interface VisitCommands {
  /**
   * Renders the current view and encodes it as a PNG, scaled down to at most `maxWidth` pixels
   * wide (default 1920; never scaled up). Fails with `view.noCanvas` without a canvas.
   */
  'building.capturePng': { args: { maxWidth?: number }; result: CapturedPng }
}
