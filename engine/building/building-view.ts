import {
  type Box3,
  Color,
  DirectionalLight,
  Group,
  Matrix4,
  HemisphereLight,
  PerspectiveCamera,
  Scene,
  Sphere,
  SRGBColorSpace,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import type { PickRay } from '../../workers/bvh/picking-scene'
import type { BuildingPlacement, BuildingRenderState } from '../api/building-snapshot'
import { createAnimationFrameScheduler, type FrameScheduler } from '../core/frame-scheduler'
import { engineContextAttributes } from '../view/webgl-probe'
import { clampDistance, clipPlanes, fitDistance, wheelZoomSpeed, zoomLimits } from './camera-limits'

type EngineCanvas = HTMLCanvasElement | OffscreenCanvas

/** The clear colour: a light grey, so both dark and white models stand out and tests can tell. */
export const BACKGROUND_RGB: readonly [number, number, number] = [0xd8, 0xdd, 0xe3]

/** What the view reports after each render and each camera move. */
export interface BuildingViewListener {
  onRendered(stats: BuildingRenderState): void
  onCameraChanged(): void
  /** Runs right before each render, so the scene can scale markers to the camera. */
  beforeRender?(camera: PerspectiveCamera, viewportPixels: Vector2): void
  /**
   * Hides what the style draws around the building (sky, ground, weather) for a pixel count
   * that tells a drawn building from an empty canvas; returns what puts it back.
   */
  hideSurroundings?(): () => void
}

/**
 * The renderer, camera and orbit controls of the building scene. It renders on demand only:
 * every change calls `requestRender`, which draws once at the next animation frame, so an idle
 * scene costs no GPU (SwiftShader) or CPU time at all.
 */
export class BuildingView {
  readonly scene = new Scene()
  readonly camera = new PerspectiveCamera(45, 1, 0.1, 1000)
  readonly target = new Vector3()
  private renderer: WebGLRenderer | null = null
  private controls: OrbitControls | null = null
  private canvas: EngineCanvas | null = null
  private resizeObserver: ResizeObserver | null = null
  private cancelRender: (() => void) | undefined
  private readonly scheduler: FrameScheduler = createAnimationFrameScheduler()
  private renderCount = 0
  private sceneRadius = 10
  private zoomFactors = { min: 1, max: 1 }
  private distanceBases: { min: number; max: number } | undefined
  private limits = zoomLimits(1, 1)
  private zoomSpeed = wheelZoomSpeed(1)
  private mouseSpeed = 1
  /** While true (weather is falling), every render asks for the next frame. */
  private isAnimating = false
  /** The engine's own lights, shown until a style brings its own (engine/building/style). */
  readonly neutralLights = new Group()
  /** Set once the user moved the camera; after that, loading more models does not refit. */
  hasUserMovedCamera = false
  /**
   * The building's own frame inside the scene: models, POIs, library models, the GML network and
   * the pick marker hang below it, and its matrix is the stored placement (identity when none),
   * so all of them turn and scale together and stay where they were saved on the building.
   */
  readonly placed = new Group()
  private placementInForce: BuildingPlacement | null = null

  constructor(private readonly listener: BuildingViewListener) {
    this.scene.background = new Color().setRGB(
      BACKGROUND_RGB[0] / 255,
      BACKGROUND_RGB[1] / 255,
      BACKGROUND_RGB[2] / 255,
      SRGBColorSpace,
    )
    const hemisphere = new HemisphereLight(0xffffff, 0x6b6660, 2.2)
    const sun = new DirectionalLight(0xffffff, 1.6)
    sun.position.set(0.6, 1, 0.4)
    this.neutralLights.add(hemisphere, sun)
    this.scene.add(this.neutralLights)
    this.placed.name = 'placed-building'
    this.placed.matrixAutoUpdate = false
    this.scene.add(this.placed)
    this.camera.position.set(20, 16, 20)
    this.camera.lookAt(this.target)
  }

  /** The placement the building is drawn with (null: as modelled). */
  get placement(): BuildingPlacement | null {
    return this.placementInForce
  }

  /**
   * Turns the building's frame `headingDegrees` clockwise seen from above (its +y axis, three's
   * −z, from north toward east) and scales it about its origin; null undoes both.
   */
  setPlacement(placement: BuildingPlacement | null): void {
    this.placementInForce = placement && { ...placement }
    this.placed.matrix.copy(placementMatrix(placement))
    this.placed.updateMatrixWorld(true)
    this.requestRender()
  }

  /**
   * Runs `measure` with the building's frame as the scene's (boxes measured in it, e.g. the GML
   * network fitted onto the models, must not grow by the placement's turn).
   */
  inBuildingFrame<T>(measure: () => T): T {
    this.placed.matrix.identity()
    this.placed.updateMatrixWorld(true)
    try {
      return measure()
    } finally {
      this.placed.matrix.copy(placementMatrix(this.placementInForce))
      this.placed.updateMatrixWorld(true)
    }
  }

  /** Whether a canvas (and so a renderer) is attached. */
  get hasCanvas(): boolean {
    return this.renderer !== null
  }

  /** The renderer's resource counts (zeros without a renderer). */
  renderState(): BuildingRenderState | null {
    if (!this.renderer) return null
    const info = this.renderer.info
    return {
      renderCount: this.renderCount,
      drawCalls: info.render.calls,
      triangles: info.render.triangles,
      geometryCount: info.memory.geometries,
      textureCount: info.memory.textures,
      programCount: info.programs?.length ?? 0,
    }
  }

  /**
   * Renders into `canvas` from now on (null detaches). The renderer reuses the canvas's WebGL2
   * context when `view.probeWebGL` already made one, since a canvas has only one context.
   */
  attach(canvas: EngineCanvas | null): void {
    if (canvas === this.canvas) return
    this.detach()
    if (!canvas) return
    const context = canvas.getContext('webgl2', engineContextAttributes) as WebGL2RenderingContext
    if (!context) return
    this.canvas = canvas
    const renderer = new WebGLRenderer({ canvas, context, antialias: true })
    // The context belongs to the canvas and outlives a scene; three must not reset its state.
    renderer.setPixelRatio(typeof devicePixelRatio === 'number' ? devicePixelRatio : 1)
    this.renderer = renderer
    this.resize()
    if (typeof HTMLCanvasElement !== 'undefined' && canvas instanceof HTMLCanvasElement) {
      const controls = new OrbitControls(this.camera, canvas)
      controls.target.copy(this.target)
      controls.screenSpacePanning = true
      controls.addEventListener('start', () => {
        this.hasUserMovedCamera = true
      })
      controls.addEventListener('change', () => this.cameraMoved())
      this.controls = controls
      this.applyLimits()
      if (typeof ResizeObserver === 'function') {
        this.resizeObserver = new ResizeObserver(() => {
          this.resize()
          this.requestRender()
        })
        this.resizeObserver.observe(canvas)
      }
    }
    this.requestRender()
  }

  /** Turns the orbit controls off while the WASD walk moves the camera, and on again. */
  setOrbitEnabled(isEnabled: boolean): void {
    if (this.controls) this.controls.enabled = isEnabled
  }

  /** The renderer, while a canvas is attached (the style renders its sky cube with it). */
  getRenderer(): WebGLRenderer | null {
    return this.renderer
  }

  /** The radius of what was last framed, metres (fog and ground scale with it). */
  get framedRadius(): number {
    return this.sceneRadius
  }

  /** Renders every frame while on (weather falls), on demand again when off. */
  setAnimating(isAnimating: boolean): void {
    this.isAnimating = isAnimating
    if (isAnimating) this.requestRender()
  }

  /** Turning and panning speed of the controls (1 normal). */
  setMouseSpeed(speed: number): void {
    this.mouseSpeed = speed
    this.applyLimits()
  }

  /**
   * The base distances the zoom factors multiply (a style's visual distance), or undefined for
   * the building defaults; the camera is pulled inside the new range.
   */
  setDistanceBases(bases: { min: number; max: number } | undefined): void {
    this.distanceBases = bases
    this.setZoomLimits(this.zoomFactors.min, this.zoomFactors.max)
  }

  /** Sets the zoom limit factors (SPEC §9) and pulls the camera inside the new range. */
  setZoomLimits(minFactor: number, maxFactor: number): void {
    this.limits = zoomLimits(minFactor, maxFactor, this.distanceBases)
    this.zoomFactors = { min: minFactor, max: maxFactor }
    this.applyLimits()
    const distance = this.camera.position.distanceTo(this.target)
    const clamped = clampDistance(distance, this.limits)
    if (clamped !== distance) this.placeCamera(this.currentDirection(), clamped)
    this.cameraMoved()
  }

  /** Sets the wheel scale option; the controls zoom at this × 0.5. */
  setWheelScale(scale: number): void {
    this.zoomSpeed = wheelZoomSpeed(scale)
    this.applyLimits()
  }

  /** Current limits. */
  getLimits(): { minDistance: number; maxDistance: number } {
    return this.limits
  }

  /** Frames a box: the camera keeps its viewing direction and backs off until the box fits. */
  fitTo(box: Box3): void {
    if (box.isEmpty()) return
    const sphere = box.getBoundingSphere(new Sphere())
    this.sceneRadius = Math.max(sphere.radius, 1)
    this.target.copy(sphere.center)
    const distance = clampDistance(
      fitDistance(sphere.radius, this.camera.fov, this.camera.aspect),
      this.limits,
    )
    this.placeCamera(this.currentDirection(), distance)
    this.cameraMoved()
  }

  /** Puts the camera at `position` looking at `target`, moved along that line into the limits. */
  setCamera(position: readonly number[], target: readonly number[]): void {
    const [targetX = 0, targetY = 0, targetZ = 0] = target
    const [positionX = 0, positionY = 0, positionZ = 0] = position
    this.target.set(targetX, targetY, targetZ)
    const offset = new Vector3(positionX, positionY, positionZ).sub(this.target)
    const distance = clampDistance(offset.length(), this.limits)
    this.placeCamera(offset.lengthSq() > 0 ? offset.normalize() : this.currentDirection(), distance)
    this.hasUserMovedCamera = true
    this.cameraMoved()
  }

  /**
   * The world-space ray under a point of the canvas, in CSS pixels from its top-left. The camera
   * matrices are refreshed first: nothing may have rendered since the camera last moved.
   */
  rayAt(x: number, y: number): PickRay {
    const { width, height } = this.cssSize()
    this.updateClipPlanes()
    this.camera.updateMatrixWorld()
    const ndc = new Vector3((x / width) * 2 - 1, -(y / height) * 2 + 1, 0.5)
    const origin = this.camera.position.clone()
    const direction = ndc.unproject(this.camera).sub(origin).normalize()
    return {
      origin: [origin.x, origin.y, origin.z],
      direction: [direction.x, direction.y, direction.z],
      near: 0,
      far: this.camera.far,
    }
  }

  /** Canvas size in CSS pixels (the drawing buffer size for an OffscreenCanvas). */
  cssSize(): { width: number; height: number } {
    const canvas = this.canvas
    if (!canvas) return { width: 1, height: 1 }
    if (typeof HTMLCanvasElement !== 'undefined' && canvas instanceof HTMLCanvasElement) {
      return {
        width: canvas.clientWidth || canvas.width,
        height: canvas.clientHeight || canvas.height,
      }
    }
    return { width: canvas.width, height: canvas.height }
  }

  /** Draws once at the next animation frame (many requests in one frame draw once). */
  requestRender(): void {
    if (!this.renderer || this.cancelRender) return
    this.cancelRender = this.scheduler.requestFrame(() => {
      this.cancelRender = undefined
      this.renderNow()
    })
  }

  /** Draws now; returns false without a renderer. */
  renderNow(): boolean {
    const renderer = this.renderer
    if (!renderer) return false
    this.cancelRender?.()
    this.cancelRender = undefined
    this.updateClipPlanes()
    const size = renderer.getDrawingBufferSize(new Vector2())
    this.listener.beforeRender?.(this.camera, size)
    renderer.render(this.scene, this.camera)
    this.renderCount++
    const stats = this.renderState()
    if (stats) this.listener.onRendered(stats)
    if (this.isAnimating) this.requestRender()
    return true
  }

  /** Draws now and gives the canvas holding the frame (until the next composite), or null. */
  renderForCapture(): EngineCanvas | null {
    return this.renderNow() ? this.canvas : null
  }

  /**
   * Renders and reads the drawing buffer back in the same task (the buffer is not preserved
   * after compositing), counting pixels that differ from the clear colour. Tests and e2e use it
   * to tell a drawn scene from an empty canvas.
   */
  countDrawnPixels(): {
    drawnPixelCount: number
    totalPixelCount: number
    centreRgb: [number, number, number]
  } {
    const renderer = this.renderer
    const restore = this.listener.hideSurroundings?.()
    const isRendered = renderer !== null && this.renderNow()
    restore?.()
    if (!renderer || !isRendered) {
      return { drawnPixelCount: 0, totalPixelCount: 0, centreRgb: [0, 0, 0] }
    }
    const gl = renderer.getContext()
    const width = gl.drawingBufferWidth
    const height = gl.drawingBufferHeight
    const pixels = new Uint8Array(width * height * 4)
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels)
    let drawnPixelCount = 0
    for (let offset = 0; offset < pixels.length; offset += 4) {
      const isBackground =
        Math.abs(pixels[offset]! - BACKGROUND_RGB[0]) <= 3 &&
        Math.abs(pixels[offset + 1]! - BACKGROUND_RGB[1]) <= 3 &&
        Math.abs(pixels[offset + 2]! - BACKGROUND_RGB[2]) <= 3
      if (!isBackground) drawnPixelCount++
    }
    const centre = (Math.floor(height / 2) * width + Math.floor(width / 2)) * 4
    // the canvas shows the frame without the surroundings until the next render
    if (restore) this.requestRender()
    return {
      drawnPixelCount,
      totalPixelCount: width * height,
      centreRgb: [pixels[centre] ?? 0, pixels[centre + 1] ?? 0, pixels[centre + 2] ?? 0],
    }
  }

  /** The camera's orbit distance. */
  distance(): number {
    return this.camera.position.distanceTo(this.target)
  }

  /** Lets the canvas go and frees the renderer (the canvas keeps its context). */
  detach(): void {
    this.cancelRender?.()
    this.cancelRender = undefined
    this.resizeObserver?.disconnect()
    this.resizeObserver = null
    this.controls?.dispose()
    this.controls = null
    this.renderer?.dispose()
    this.renderer = null
    this.canvas = null
  }

  /** Frees everything; the view is not used again. */
  dispose(): void {
    this.detach()
  }

  private resize(): void {
    const renderer = this.renderer
    if (!renderer) return
    const { width, height } = this.cssSize()
    renderer.setSize(Math.max(1, width), Math.max(1, height), false)
    this.camera.aspect = Math.max(1, width) / Math.max(1, height)
    this.camera.updateProjectionMatrix()
  }

  private applyLimits(): void {
    const controls = this.controls
    if (!controls) return
    controls.minDistance = this.limits.minDistance
    controls.maxDistance = this.limits.maxDistance
    controls.zoomSpeed = this.zoomSpeed
    controls.rotateSpeed = this.mouseSpeed
    controls.panSpeed = this.mouseSpeed
  }

  private currentDirection(): Vector3 {
    const direction = this.camera.position.clone().sub(this.target)
    if (direction.lengthSq() < 1e-12) direction.set(1, 0.8, 1)
    return direction.normalize()
  }

  private placeCamera(direction: Vector3, distance: number): void {
    this.camera.position.copy(this.target).addScaledVector(direction, distance)
    this.camera.lookAt(this.target)
    if (this.controls) {
      this.controls.target.copy(this.target)
      this.controls.update()
    }
  }

  private cameraMoved(): void {
    if (this.controls) this.target.copy(this.controls.target)
    this.requestRender()
    this.listener.onCameraChanged()
  }

  private updateClipPlanes(): void {
    const { near, far } = clipPlanes(this.distance(), this.sceneRadius)
    if (near !== this.camera.near || far !== this.camera.far) {
      this.camera.near = near
      this.camera.far = far
      this.camera.updateProjectionMatrix()
    }
  }
}

/**
 * Scene metres one CSS pixel spans at `distance` from the camera (device pixels counted in), for
 * markers drawn a few pixels wide whatever the zoom.
 */
export function metresPerCssPixel(
  camera: PerspectiveCamera,
  distance: number,
  viewportPixels: Vector2,
): number {
  const perDevicePixel =
    (2 * distance * Math.tan((camera.fov * Math.PI) / 360)) / Math.max(1, viewportPixels.y)
  return perDevicePixel * (typeof devicePixelRatio === 'number' ? devicePixelRatio : 1)
}

/** The matrix of a placement: a turn about the up axis, then a uniform scale. */
function placementMatrix(placement: BuildingPlacement | null): Matrix4 {
  if (!placement) return new Matrix4()
  const turn = new Matrix4().makeRotationY((-placement.headingDegrees * Math.PI) / 180)
  return turn.multiply(new Matrix4().makeScale(placement.scale, placement.scale, placement.scale))
}
