import type { Vector3Tuple } from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import type { VisitCommands } from '../api/visit-commands'
import { createAnimationFrameScheduler, type FrameScheduler } from '../core/frame-scheduler'

/** The longest flight a caller may ask for. */
export const maxFlightMs = 10_000

/** The part of the view a flight moves: where the camera is and a way to place it. */
export interface FlightView {
  readonly camera: { readonly position: { x: number; y: number; z: number } }
  readonly target: { x: number; y: number; z: number }
  setCamera(position: readonly number[], target: readonly number[]): void
}

/** Slow in, slow out (cubic): a flight starts and lands gently. */
export function easeInOut(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2
}

/**
 * The camera pose a fraction `t` (0..1) of the way from `from` to `to`: position and target eased
 * along straight lines, and the camera lifted on an arc (a quarter of the distance travelled at
 * the middle) so a long move reads as a flight over the building rather than a slide through it.
 */
export function flightPose(
  from: { position: Vector3Tuple; target: Vector3Tuple },
  to: { position: Vector3Tuple; target: Vector3Tuple },
  t: number,
): { position: Vector3Tuple; target: Vector3Tuple } {
  const e = easeInOut(Math.min(1, Math.max(0, t)))
  const lerp = (a: Vector3Tuple, b: Vector3Tuple): Vector3Tuple => [
    a[0] + (b[0] - a[0]) * e,
    a[1] + (b[1] - a[1]) * e,
    a[2] + (b[2] - a[2]) * e,
  ]
  const travelled = Math.hypot(
    to.position[0] - from.position[0],
    to.position[1] - from.position[1],
    to.position[2] - from.position[2],
  )
  const [x, y, z] = lerp(from.position, to.position)
  const lift = travelled * 0.25 * Math.sin(Math.PI * e)
  return { position: [x, y + lift, z], target: lerp(from.target, to.target) }
}

/**
 * Flies the building camera between views (issue 19 "tour transitions"): one flight at a time; a
 * new flight, a `building.setCamera` or the user dragging the view ends the one under way, which
 * then answers `arrived: false`.
 */
export class CameraFlight {
  private cancelFrame: (() => void) | undefined
  private finish: ((arrived: boolean) => void) | undefined

  constructor(
    private readonly view: FlightView,
    private readonly scheduler: FrameScheduler = createAnimationFrameScheduler(),
  ) {}

  /** Flies to `to` in `durationMs` (0 places the camera at once); true when it got there. */
  fly(to: { position: Vector3Tuple; target: Vector3Tuple }, durationMs: number): Promise<boolean> {
    this.cancel()
    const { position } = this.view.camera
    const from = {
      position: [position.x, position.y, position.z] as Vector3Tuple,
      target: [this.view.target.x, this.view.target.y, this.view.target.z] as Vector3Tuple,
    }
    if (durationMs <= 0) {
      this.view.setCamera(to.position, to.target)
      return Promise.resolve(true)
    }
    return new Promise<boolean>((resolve) => {
      this.finish = resolve
      let startMs: number | undefined
      let placed: Vector3Tuple | undefined
      const step = (timeMs: number) => {
        this.cancelFrame = undefined
        const now = this.view.camera.position
        // the user took the view (orbit, pan, zoom) since the last frame: the flight gives way
        if (placed && Math.hypot(now.x - placed[0], now.y - placed[1], now.z - placed[2]) > 1e-6) {
          this.end(false)
          return
        }
        startMs ??= timeMs
        const t = (timeMs - startMs) / durationMs
        const pose = t >= 1 ? to : flightPose(from, to, t)
        this.view.setCamera(pose.position, pose.target)
        if (t >= 1) {
          this.end(true)
          return
        }
        const after = this.view.camera.position
        placed = [after.x, after.y, after.z]
        this.cancelFrame = this.scheduler.requestFrame(step)
      }
      this.cancelFrame = this.scheduler.requestFrame(step)
    })
  }

  /** Ends the flight under way, if any (it answers `arrived: false`). */
  cancel(): void {
    this.end(false)
  }

  private end(arrived: boolean): void {
    this.cancelFrame?.()
    this.cancelFrame = undefined
    const finish = this.finish
    this.finish = undefined
    finish?.(arrived)
  }
}

/** The `building.flyCamera` handler over a flight. */
export function createVisitFlightHandlers(flight: CameraFlight): {
  'building.flyCamera': (
    args: VisitCommands['building.flyCamera']['args'],
  ) => Promise<VisitCommands['building.flyCamera']['result']>
} {
  const isPoint = (point: unknown): point is Vector3Tuple =>
    Array.isArray(point) && point.length === 3 && point.every(Number.isFinite)
  return {
    'building.flyCamera': async ({ position, target, durationMs = 1_500 }) => {
      if (!isPoint(position) || !isPoint(target)) {
        throw new EngineError('engine.invalidArgument', 'Camera points need three finite numbers.')
      }
      if (!Number.isFinite(durationMs) || durationMs < 0 || durationMs > maxFlightMs) {
        throw new EngineError(
          'engine.invalidArgument',
          `A flight lasts 0 to ${maxFlightMs} ms, not ${durationMs}.`,
        )
      }
      return { arrived: await flight.fly({ position, target }, durationMs) }
    },
  }
}
