import type { PerspectiveCamera, Vector3 } from 'three'
import type { BuildingPick, Vector3Tuple } from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import {
  createInitialWalkState,
  type WalkCommands,
  type WalkState,
  walkLimits,
} from '../api/walk-commands'
import { createAnimationFrameScheduler, type FrameScheduler } from '../core/frame-scheduler'
import { checkNumber, normalizedYaw, walkDirection, walkHeading, yawBetween } from './walk-geometry'

/** A ray the walk casts, in scene metres (the picking worker's `PickRay`). */
export interface WalkRay {
  origin: [number, number, number]
  direction: [number, number, number]
  far: number
}

/** What the walk needs from the building around it. */
export interface WalkHost {
  /**
   * The first surface along a ray that a click would hit (a shown model; a see-through shell is
   * passed, as clicks pass it), from the picking worker. Throws when no building is open.
   */
  cast(ray: WalkRay): Promise<Pick<BuildingPick, 'point' | 'normal' | 'distance'> | null>
  /** Where the orbit camera is and looks, to start from. */
  orbit(): { position: Vector3Tuple; target: Vector3Tuple }
  /** Puts the eye at `eye` looking at `lookAt`, the orbit controls off. */
  placeEye(eye: Vector3Tuple, lookAt: Vector3Tuple): void
  /** Gives the camera back to the orbit controls at `eye`, pivoting about `target`. */
  release(eye: Vector3Tuple, target: Vector3Tuple): void
  /** The walk state changed: publish a snapshot. */
  onChange(): void
}

/** Falls further than this below the feet are not followed (the height is kept instead). */
const maxFallMeters = 50
/** The most slanting approach to a wall the walk measures (cos of the angle to its normal). */
const minFacing = 0.05
/** Where the released orbit camera pivots: this far ahead of the eye. */
const releaseLookAheadMeters = 3
/**
 * The WASD walk (see walk-commands.ts). Each frame with keys held it moves the eye by speed ×
 * frame time: rays at head, waist and knee height along the move find walls (the eye stops a
 * radius before one and slides along it), and a ray down from the eye at the new place finds the
 * floor, which the eye follows up a step or down stairs. Every ray is one query of the picking
 * worker, so the main thread never holds a copy of the geometry; a step waits for its answers
 * before the next frame's, so a slow worker slows the walk rather than letting it pass a wall.
 */
export class WalkController {
  private state: WalkState = createInitialWalkState()
  private eyeHeight: number = walkLimits.eyeHeightMeters.default
  private speed: number = walkLimits.speedMetersPerSecond.default
  private movement = { forward: 0, right: 0 }
  private cancelFrame: (() => void) | undefined
  private isStepping = false
  private lastFrameMs: number | undefined
  /** Bumped by every start and stop, so a step still waiting for rays of an old walk is dropped. */
  private generation = 0

  constructor(
    private readonly host: WalkHost,
    private readonly scheduler: FrameScheduler = createAnimationFrameScheduler(),
  ) {}

  /** The snapshot part. */
  snapshot(): WalkState {
    const [x, y, z] = this.state.eye
    return { ...this.state, eye: [x, y, z] }
  }

  /** Whether a walk is under way. */
  get isWalking(): boolean {
    return this.state.isWalking
  }

  /** `walk.start`. */
  async start(args: WalkCommands['walk.start']['args']): Promise<WalkState> {
    const limits = walkLimits
    const eyeHeight = checkNumber(
      args.eyeHeightMeters ?? limits.eyeHeightMeters.default,
      'eyeHeightMeters',
      limits.eyeHeightMeters.min,
      limits.eyeHeightMeters.max,
    )
    const speed = checkNumber(
      args.speedMetersPerSecond ?? limits.speedMetersPerSecond.default,
      'speedMetersPerSecond',
      limits.speedMetersPerSecond.min,
      limits.speedMetersPerSecond.max,
    )
    if (args.yawDegrees !== undefined) checkNumber(args.yawDegrees, 'yawDegrees', -1e6, 1e6)
    if (
      args.at !== undefined &&
      !(Array.isArray(args.at) && args.at.length === 3 && args.at.every(Number.isFinite))
    ) {
      throw new EngineError('engine.invalidArgument', 'at needs three finite numbers.')
    }
    const orbit = this.host.orbit()
    const at = args.at ?? orbit.target
    const generation = ++this.generation
    this.stopLoop()
    // the floor under `at`: the first surface below a point an eye height above it
    const floorHit = await this.host.cast({
      origin: [at[0], at[1] + eyeHeight, at[2]],
      direction: [0, -1, 0],
      far: eyeHeight + maxFallMeters,
    })
    if (generation !== this.generation) return this.snapshot()
    const floorHeight = floorHit ? floorHit.point[1] : null
    this.eyeHeight = eyeHeight
    this.speed = speed
    this.movement = { forward: 0, right: 0 }
    this.state = {
      isWalking: true,
      eye: [at[0], (floorHeight ?? at[1]) + eyeHeight, at[2]],
      yawDegrees: normalizedYaw(args.yawDegrees ?? yawBetween(orbit.position, orbit.target)),
      pitchDegrees: 0,
      floorHeight,
      isBlocked: false,
      distanceWalked: 0,
    }
    this.place()
    return this.snapshot()
  }

  /** `walk.stop`; also ends a walk when the scene closes or a view command takes the camera. */
  stop(): void {
    if (!this.state.isWalking) return
    this.generation++
    this.stopLoop()
    this.movement = { forward: 0, right: 0 }
    const { eye, yawDegrees, pitchDegrees } = this.state
    const direction = walkDirection(yawDegrees, pitchDegrees)
    this.state = { ...this.state, isWalking: false, isBlocked: false }
    this.host.release(eye, [
      eye[0] + direction[0] * releaseLookAheadMeters,
      eye[1] + direction[1] * releaseLookAheadMeters,
      eye[2] + direction[2] * releaseLookAheadMeters,
    ])
    this.host.onChange()
  }

  /** `walk.setMovement`: ignored while not walking (a key released after Esc). */
  setMovement({ forward, right }: WalkCommands['walk.setMovement']['args']): void {
    checkNumber(forward, 'forward', -1, 1)
    checkNumber(right, 'right', -1, 1)
    if (!this.state.isWalking) return
    this.movement = { forward, right }
    if (this.isMoving()) this.schedule()
  }

  /** `walk.look`: ignored while not walking. */
  look({ yawDegrees, pitchDegrees }: WalkCommands['walk.look']['args']): void {
    checkNumber(yawDegrees, 'yawDegrees', -3600, 3600)
    checkNumber(pitchDegrees, 'pitchDegrees', -3600, 3600)
    if (!this.state.isWalking) return
    this.state = {
      ...this.state,
      yawDegrees: normalizedYaw(this.state.yawDegrees + yawDegrees),
      pitchDegrees: Math.min(85, Math.max(-85, this.state.pitchDegrees + pitchDegrees)),
    }
    this.place()
  }

  /** Stops the frame loop for good. */
  dispose(): void {
    this.generation++
    this.stopLoop()
  }

  private isMoving(): boolean {
    return this.movement.forward !== 0 || this.movement.right !== 0
  }

  private stopLoop(): void {
    this.cancelFrame?.()
    this.cancelFrame = undefined
    this.lastFrameMs = undefined
  }

  private schedule(): void {
    if (this.cancelFrame || this.isStepping || !this.state.isWalking || !this.isMoving()) return
    this.cancelFrame = this.scheduler.requestFrame((timeMs) => {
      this.cancelFrame = undefined
      void this.frame(timeMs)
    })
  }

  private async frame(timeMs: number): Promise<void> {
    // the time since the last frame, waiting for the worker included, so the pace is real time
    const seconds =
      this.lastFrameMs === undefined ? 1 / 60 : Math.min(0.1, (timeMs - this.lastFrameMs) / 1000)
    this.lastFrameMs = timeMs
    const generation = this.generation
    this.isStepping = true
    try {
      await this.step(Math.max(0, seconds) * this.speed, generation)
    } catch {
      // the building closed under the step: the walk ends with it
      if (generation === this.generation) this.stop()
    } finally {
      this.isStepping = false
    }
    if (this.isMoving()) this.schedule()
    else this.lastFrameMs = undefined
  }

  private async step(length: number, generation: number): Promise<void> {
    const heading = walkHeading(this.state.yawDegrees, this.movement)
    if (!heading || length <= 0) return
    const start = this.state.eye
    const floor = this.state.floorHeight ?? start[1] - this.eyeHeight
    const first = await this.clearance(start, floor, heading, length)
    let x = start[0] + heading[0] * first.travelled
    let z = start[2] + heading[1] * first.travelled
    let isBlocked = first.wall !== null
    if (first.wall) {
      // slide along the wall with what is left of the step
      const [nx, nz] = first.wall
      const along = heading[0] * nx + heading[1] * nz
      const slide: [number, number] = [heading[0] - nx * along, heading[1] - nz * along]
      const slideLength = Math.hypot(slide[0], slide[1])
      if (slideLength > 0.1) {
        const direction: [number, number] = [slide[0] / slideLength, slide[1] / slideLength]
        const rest = (length - first.travelled) * slideLength
        const second = await this.clearance([x, start[1], z], floor, direction, rest)
        x += direction[0] * second.travelled
        z += direction[1] * second.travelled
      }
    }
    const below = await this.host.cast({
      origin: [x, start[1], z],
      direction: [0, -1, 0],
      far: this.eyeHeight + maxFallMeters,
    })
    if (generation !== this.generation) return
    let floorHeight = below ? below.point[1] : null
    if (floorHeight !== null && floorHeight - floor > walkLimits.stepHeightMeters) {
      // a rise higher than a step that the rays passed over (a thin ledge): it stops the walker
      x = start[0]
      z = start[2]
      floorHeight = this.state.floorHeight
      isBlocked = true
    }
    const eyeY = floorHeight === null ? start[1] : floorHeight + this.eyeHeight
    this.state = {
      ...this.state,
      eye: [x, eyeY, z],
      floorHeight,
      isBlocked,
      distanceWalked: this.state.distanceWalked + Math.hypot(x - start[0], z - start[2]),
    }
    this.place()
  }

  /**
   * How far the eye may move along a horizontal heading (at most `length`), and the horizontal
   * normal of the wall that stops it, if one does: rays at head, waist and knee height (the knee
   * ray is above a step, so steps do not stop the walker).
   */
  private async clearance(
    eye: Vector3Tuple,
    floor: number,
    heading: [number, number],
    length: number,
  ): Promise<{ travelled: number; wall: [number, number] | null }> {
    const radius = walkLimits.radiusMeters
    const heights = [
      eye[1],
      floor + (eye[1] - floor) / 2,
      floor + walkLimits.stepHeightMeters + 0.05,
    ]
    const hits = await Promise.all(
      heights.map((height) =>
        this.host.cast({
          origin: [eye[0], height, eye[2]],
          direction: [heading[0], 0, heading[1]],
          // a wall met at a slant stops the walker further back along the ray (radius / facing)
          far: length + radius / minFacing,
        }),
      ),
    )
    // the wall that stops the walker first: the one it comes within a radius of soonest, which on
    // a slant is further back along the ray than a radius (the radius is measured square to it)
    let best: { travelled: number; wall: [number, number] } | null = null
    for (const hit of hits) {
      if (!hit) continue
      const [nx, , nz] = hit.normal
      const horizontal = Math.hypot(nx, nz)
      const wall: [number, number] =
        horizontal > 1e-6 ? [nx / horizontal, nz / horizontal] : [-heading[0], -heading[1]]
      const facing = Math.max(minFacing, Math.abs(heading[0] * wall[0] + heading[1] * wall[1]))
      const travelled = Math.max(0, hit.distance - radius / facing)
      if (travelled < length && (!best || travelled < best.travelled)) best = { travelled, wall }
    }
    return best ?? { travelled: length, wall: null }
  }

  private place(): void {
    const { eye, yawDegrees, pitchDegrees } = this.state
    const direction = walkDirection(yawDegrees, pitchDegrees)
    this.host.placeEye(eye, [eye[0] + direction[0], eye[1] + direction[1], eye[2] + direction[2]])
    this.host.onChange()
  }
}

/** The view a walk moves: its camera and orbit target, and the orbit controls. */
export interface WalkView {
  readonly camera: PerspectiveCamera
  readonly target: Vector3
  hasUserMovedCamera: boolean
  setOrbitEnabled(isEnabled: boolean): void
  setCamera(position: readonly number[], target: readonly number[]): void
  requestRender(): void
}

/** The walk's host over the building view and the scene's surface casts. */
export function createWalkHost(
  view: WalkView,
  cast: WalkHost['cast'],
  onChange: () => void,
): WalkHost {
  return {
    cast,
    orbit: () => ({
      position: [view.camera.position.x, view.camera.position.y, view.camera.position.z],
      target: [view.target.x, view.target.y, view.target.z],
    }),
    placeEye(eye, lookAt) {
      // the orbit controls would pull the eye back inside their zoom limits about the pivot
      view.setOrbitEnabled(false)
      view.camera.position.set(eye[0], eye[1], eye[2])
      view.target.set(lookAt[0], lookAt[1], lookAt[2])
      view.camera.lookAt(view.target)
      view.hasUserMovedCamera = true
      view.requestRender()
    },
    release(eye, target) {
      view.setOrbitEnabled(true)
      view.setCamera(eye, target)
    },
    onChange,
  }
}

/** The `walk.*` handlers over a walk; `beforeStart` ends what else moves the camera (a flight). */
export function createWalkHandlers(
  walk: WalkController,
  beforeStart: () => void,
): {
  [Name in keyof WalkCommands]: (
    args: WalkCommands[Name]['args'],
  ) => Promise<WalkCommands[Name]['result']>
} {
  return {
    'walk.start': (args) => {
      beforeStart()
      return walk.start(args ?? {})
    },
    'walk.stop': async () => {
      walk.stop()
      return undefined
    },
    'walk.setMovement': async (args) => {
      walk.setMovement(args)
      return undefined
    },
    'walk.look': async (args) => {
      walk.look(args)
      return undefined
    },
  }
}
