import type { Vector3Tuple } from './building-snapshot'

/**
 * Visit mode's engine commands (issue 19): a PNG of the scene at the current view, saved by the
 * UI as a capture (contract/visit.ts) together with `snapshot.building.camera`, and the camera
 * flight between views that tours use.
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
  /**
   * Flies the camera to `position` looking at `target` (scene metres) in `durationMs` (0–10,000,
   * default 1,500), eased and lifted on an arc. Answers when the flight ends: `arrived` is false
   * when a new flight, `building.setCamera` or the user's own drag ended it first.
   */
  'building.flyCamera': {
    args: { position: Vector3Tuple; target: Vector3Tuple; durationMs?: number }
    result: { arrived: boolean }
  }
}
