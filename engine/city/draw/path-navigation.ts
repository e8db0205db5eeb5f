import type { DrawPosition } from '../../api/draw-commands'
import type { NavigationRate, NavigationSpeed, NavigationState } from '../../api/navigate-commands'
import { createInitialNavigationState } from '../../api/navigate-commands'
import type { CitySceneContext } from '../city-scene-parts'
import {
  flightSpeedMetersPerSecond,
  type MeasuredPath,
  measurePath,
  positionAlong,
} from './path-flight'

/** The camera's tilt while flying: looking ahead along the path, not down on it. */
const flightPitch = 60
/** Street-level zoom while flying. */
const flightZoom = 18
/** The snapshot follows the flight this often (the camera moves every frame). */
const publishIntervalMs = 250

/**
 * Path navigation (issue 18): each animation frame moves the camera the metres the pace covers
 * in the frame's time along the geodesic path (`path-flight.ts`) and turns it to the segment's
 * bearing. A long frame (a hidden tab) is capped so the camera does not jump to the end.
 */
export class PathNavigation {
  private path: MeasuredPath | null = null
  private navigation: NavigationState = createInitialNavigationState()
  private frame = 0
  private lastFrameAtMs = 0
  private lastPublishAtMs = 0

  constructor(private readonly context: CitySceneContext) {}

  /** The navigation state of the snapshot. */
  state(): NavigationState {
    return this.navigation
  }

  /** Starts a flight (see `navigate.start`). */
  start(
    pathId: string,
    points: readonly DrawPosition[],
    speed: NavigationSpeed,
    rate: NavigationRate,
  ): void {
    this.cancelFrame()
    this.path = measurePath(points.map(([lng, lat]) => [lng, lat] as [number, number]))
    this.navigation = {
      status: 'flying',
      pathId,
      meters: 0,
      totalMeters: this.path.totalMeters,
      speed,
      rate,
    }
    this.placeCamera()
    this.publish()
    this.scheduleFrame()
  }

  /** Pauses or resumes. */
  pause(isPaused: boolean): void {
    const { status } = this.navigation
    if (isPaused && status === 'flying') {
      this.cancelFrame()
      this.navigation = { ...this.navigation, status: 'paused' }
    } else if (!isPaused && status === 'paused') {
      this.navigation = { ...this.navigation, status: 'flying' }
      this.scheduleFrame()
    } else return
    this.publish()
  }

  /** Changes the pace. */
  setPace(speed: NavigationSpeed, rate: NavigationRate): void {
    this.navigation = { ...this.navigation, speed, rate }
    this.publish()
  }

  /** Ends the flight. */
  stop(): void {
    this.cancelFrame()
    this.path = null
    this.navigation = {
      ...createInitialNavigationState(),
      speed: this.navigation.speed,
      rate: this.navigation.rate,
    }
    this.publish()
  }

  dispose(): void {
    this.cancelFrame()
  }

  private scheduleFrame(): void {
    this.lastFrameAtMs = performance.now()
    this.frame = requestAnimationFrame((now) => this.onFrame(now))
  }

  private cancelFrame(): void {
    if (this.frame) cancelAnimationFrame(this.frame)
    this.frame = 0
  }

  private onFrame(nowMs: number): void {
    this.frame = 0
    if (this.context.isDisposed() || !this.path || this.navigation.status !== 'flying') return
    const seconds = Math.min(Math.max(nowMs - this.lastFrameAtMs, 0), 250) / 1000
    this.lastFrameAtMs = nowMs
    const { speed, rate } = this.navigation
    const meters = Math.min(
      this.navigation.meters + flightSpeedMetersPerSecond[speed] * rate * seconds,
      this.path.totalMeters,
    )
    const isDone = meters >= this.path.totalMeters
    this.navigation = { ...this.navigation, meters, status: isDone ? 'done' : 'flying' }
    this.placeCamera()
    if (isDone || nowMs - this.lastPublishAtMs >= publishIntervalMs) {
      this.lastPublishAtMs = nowMs
      this.publish()
    }
    if (!isDone) this.frame = requestAnimationFrame((next) => this.onFrame(next))
  }

  private placeCamera(): void {
    if (!this.path) return
    const { position, bearing } = positionAlong(this.path, this.navigation.meters)
    this.context.map.jumpTo({
      center: position as [number, number],
      bearing,
      pitch: flightPitch,
      zoom: flightZoom,
    })
  }

  private publish(): void {
    this.context.publish({ navigation: this.navigation })
  }
}
