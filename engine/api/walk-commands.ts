/**
 * The WASD walk of the visit tools (SPEC §2 "WASD walk preview", issue 19): a first-person camera
 * at eye height that moves while keys are held, turns with the mouse, stops at the building's
 * walls and follows the floor under it, up steps and down stairs. Walls and floors are found by
 * rays against the models' BVHs in the picking worker (only shown models count), so it walks in
 * any SBM building without a separate collision model. The UI turns keys and drags into these
 * commands; while walking, the orbit controls are off.
 */

/**
 * Three numbers, metres (the same shape as building-snapshot's `Vector3Tuple`; declared here so
 * the snapshot can import this module without a cycle).
 */
type Vector3Tuple = readonly [number, number, number]

/** The walk part of the building snapshot (`snapshot.building.walk`). */
export interface WalkState {
  isWalking: boolean
  /** The eye, scene metres. */
  eye: Vector3Tuple
  /** Heading in degrees: 0 looks along −z, 90 along −x (turning left), as three.js yaw. */
  yawDegrees: number
  /** Up (+) or down (−) from level, −85…85. */
  pitchDegrees: number
  /** Height of the floor the walker stands on, or null over nothing (the height is kept). */
  floorHeight: number | null
  /** A wall (or a rise higher than a step) stopped the last step. */
  isBlocked: boolean
  /** Metres walked since the walk started. */
  distanceWalked: number
}

/** The walk before any was started. */
export function createInitialWalkState(): WalkState {
  return {
    isWalking: false,
    eye: [0, 0, 0],
    yawDegrees: 0,
    pitchDegrees: 0,
    floorHeight: null,
    isBlocked: false,
    distanceWalked: 0,
  }
}

/** Limits of `walk.start`'s options. */
export const walkLimits = {
  eyeHeightMeters: { min: 0.5, max: 3, default: 1.6 },
  speedMetersPerSecond: { min: 0.1, max: 20, default: 1.5 },
  /** The highest rise walked up as a step; anything higher stops the walker like a wall. */
  stepHeightMeters: 0.45,
  /** How close the eye comes to a wall. */
  radiusMeters: 0.3,
} as const

/** Commands of the WASD walk (building scene). */
export interface WalkCommands {
  /**
   * Starts walking: stands on the floor under `at` (scene metres; default the orbit target),
   * eyes `eyeHeightMeters` above it, facing `yawDegrees` (default the camera's heading). Fails
   * with `building.notOpen` without a building and `engine.invalidArgument` on bad numbers.
   */
  'walk.start': {
    args: {
      at?: Vector3Tuple
      yawDegrees?: number
      eyeHeightMeters?: number
      speedMetersPerSecond?: number
    }
    result: WalkState
  }
  /** Leaves the walk (Esc): the orbit controls come back, looking on from where the eye was. */
  'walk.stop': { args: undefined; result: undefined }
  /**
   * The held keys as two axes, −1…1 each: `forward` (W +, S −) and `right` (D +, A −). The
   * walker moves every frame until both are 0 again.
   */
  'walk.setMovement': { args: { forward: number; right: number }; result: undefined }
  /** Turns the view by a mouse drag's worth of degrees (yaw left +, pitch up +). */
  'walk.look': { args: { yawDegrees: number; pitchDegrees: number }; result: undefined }
}
