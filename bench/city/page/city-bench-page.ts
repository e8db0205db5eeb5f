/**
 * The city-tiles bench page: flies one renderer over the generated tileset along a fixed path
 * and reports first render, settle time, frame intervals, long tasks and peak tile memory.
 * "ours" is the product engine (engine/city: MapLibre + deck.gl + loaders.gl) driven by its
 * commands; "anchor" is 3DTilesRendererJS's TilesRenderer with three.js on its own canvas.
 */
import { TilesRenderer } from '3d-tiles-renderer'
import { Color, Matrix4, PerspectiveCamera, Scene, WebGLRenderer } from 'three'
import { Engine } from '../../../engine/core/engine'
import {
  type CameraKeyframe,
  type CityBenchConfig,
  type CityBenchSample,
  cityBenchMarkPrefix,
} from './city-bench-protocol'

const earthRadiusMeters = 6_378_137
/** MapLibre's vertical field of view; the anchor's camera uses the same. */
const fieldOfViewDegrees = 36.87
const backgroundColor = '#eef0f2'
/** Frames in a row the final view must stay settled, so a lull between requests is not "done". */
const settledFramesNeeded = 5

/** The pose at `elapsedMs` along the path: linear between equally spaced keyframes. */
function poseAt(config: CityBenchConfig, elapsedMs: number): CameraKeyframe {
  const path = config.path
  const progress = Math.min(1, Math.max(0, elapsedMs / config.pathDurationMs)) * (path.length - 1)
  const index = Math.min(path.length - 2, Math.floor(progress))
  const share = progress - index
  const from = path[index]!
  const to = path[index + 1]!
  const mix = (a: number, b: number) => a + (b - a) * share
  return {
    eastMeters: mix(from.eastMeters, to.eastMeters),
    northMeters: mix(from.northMeters, to.northMeters),
    zoom: mix(from.zoom, to.zoom),
    pitchDegrees: mix(from.pitchDegrees, to.pitchDegrees),
    bearingDegrees: mix(from.bearingDegrees, to.bearingDegrees),
  }
}

function toLngLat(config: CityBenchConfig, east: number, north: number) {
  const latitudeRadians = (config.origin.lat * Math.PI) / 180
  return {
    lng:
      config.origin.lng +
      (east / (earthRadiusMeters * Math.cos(latitudeRadians))) * (180 / Math.PI),
    lat: config.origin.lat + (north / earthRadiusMeters) * (180 / Math.PI),
  }
}

/** Counts Long Tasks API entries while a run is measured. */
function watchLongTasks() {
  const durations: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) durations.push(entry.duration)
  })
  observer.observe({ type: 'longtask', buffered: false })
  return {
    stop() {
      observer.disconnect()
      return { count: durations.length, longestMs: Math.max(0, ...durations) }
    },
  }
}

/**
 * Watches the WebGL fences ours makes: each drawn map frame ends with one (paceGpuFrames), so
 * their creation times are the drawn frames; a fence's first poll that says "signalled" tells
 * how long the map waited to learn its frame was done, and the polls that said "not yet" count
 * the frames the pacing looked and (with two in flight) skipped.
 */
function watchFences() {
  const prototype = WebGL2RenderingContext.prototype
  const { fenceSync, getSyncParameter, clientWaitSync } = prototype
  const madeAtMs = new WeakMap<WebGLSync, number>()
  const drawnAtMs: number[] = []
  const signalledAfterMs: number[] = []
  let unsignalledPolls = 0
  /** Set while probing: called right after each drawn frame, before its fence. */
  let afterDrawnFrame: ((gl: WebGL2RenderingContext) => void) | null = null
  const seen = (fence: WebGLSync, isSignalled: boolean) => {
    const madeMs = madeAtMs.get(fence)
    if (madeMs === undefined) return
    if (!isSignalled) {
      unsignalledPolls++
      return
    }
    signalledAfterMs.push(performance.now() - madeMs)
    madeAtMs.delete(fence)
  }
  prototype.fenceSync = function (this: WebGL2RenderingContext, condition, flags) {
    afterDrawnFrame?.(this)
    const fence = fenceSync.call(this, condition, flags)
    const nowMs = performance.now()
    drawnAtMs.push(nowMs)
    if (fence) madeAtMs.set(fence, nowMs)
    return fence
  }
  prototype.getSyncParameter = function (this: WebGL2RenderingContext, sync, name) {
    const value: unknown = getSyncParameter.call(this, sync, name)
    if (name === this.SYNC_STATUS) seen(sync, value === this.SIGNALED)
    return value
  }
  prototype.clientWaitSync = function (this: WebGL2RenderingContext, sync, flags, timeout) {
    const value = clientWaitSync.call(this, sync, flags, timeout)
    seen(sync, value === this.ALREADY_SIGNALED || value === this.CONDITION_SATISFIED)
    return value
  }
  return {
    drawnAtMs,
    signalledAfterMs,
    unsignalledPolls: () => unsignalledPolls,
    setAfterDrawnFrame(callback: ((gl: WebGL2RenderingContext) => void) | null) {
      afterDrawnFrame = callback
    },
    stop() {
      Object.assign(prototype, { fenceSync, getSyncParameter, clientWaitSync })
    },
  }
}

/** ms until the GPU has finished everything sent so far: a 1-pixel read waits for it. */
function waitForGpu(gl: WebGL2RenderingContext): number {
  const startMs = performance.now()
  const framebuffer = gl.getParameter(gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null
  gl.bindFramebuffer(gl.FRAMEBUFFER, null)
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4))
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer)
  return performance.now() - startMs
}

const nextAnimationFrame = () => new Promise((resolve) => requestAnimationFrame(resolve))

/**
 * What a frame at the final view really costs the GPU: `frames` frames drawn one at a time
 * (the camera turned a little each), each followed by a wait until the GPU has finished it.
 * The queue is empty before each (the previous one was waited for), so each wait is one frame.
 * Ours draws when its map does (the fence hook); the anchor draws in `frame` itself.
 */
async function probeGpuFrames(
  subject: RendererUnderTest,
  pose: CameraKeyframe,
  frames: number,
  ours: { fences: ReturnType<typeof watchFences> } | { gl: WebGL2RenderingContext },
): Promise<number[]> {
  const waits: number[] = []
  if ('fences' in ours) ours.fences.setAfterDrawnFrame((gl) => waits.push(waitForGpu(gl)))
  for (let index = 0; index < frames; index++) {
    const wanted = waits.length + 1
    subject.frame({ ...pose, bearingDegrees: pose.bearingDegrees + (index + 1) * 0.5 })
    if ('gl' in ours) {
      waits.push(waitForGpu(ours.gl))
      await nextAnimationFrame()
      continue
    }
    const startMs = performance.now()
    while (waits.length < wanted && performance.now() - startMs < 2_000) {
      await nextAnimationFrame()
    }
  }
  if ('fences' in ours) ours.fences.setAfterDrawnFrame(null)
  return waits
}

/** Notes when ours reached each step towards its first render (ms after start, first time). */
function noteMilestones(
  engine: Engine,
  milestonesMs: Record<string, number>,
  elapsedMs: number,
  firstDrawnAtMs: number | undefined,
  startMs: number,
): void {
  const city = engine.getSnapshot().city
  const tileset = city.tilesets[0]
  const note = (name: string, isReached: boolean | undefined) => {
    if (isReached && milestonesMs[name] === undefined) milestonesMs[name] = elapsedMs
  }
  if (firstDrawnAtMs !== undefined) milestonesMs.firstMapFrame ??= firstDrawnAtMs - startMs
  note('basemapLoaded', city.basemap?.isLoaded)
  note('tilesetReady', tileset?.loadState === 'ready')
  note('rootPreviewDrawn', tileset?.isRootPreviewDrawn)
  note('streamTileDrawn', (tileset?.tilesDrawn ?? 0) > (tileset?.isRootPreviewDrawn ? 1 : 0))
}

/** The engine's `city:` User Timing marks between start and end, first of each, ms after start. */
function engineMarks(startMs: number, endMs: number): Record<string, number> {
  const marks: Record<string, number> = {}
  for (const mark of performance.getEntriesByType('mark')) {
    if (!mark.name.startsWith('city:') || mark.startTime < startMs || mark.startTime > endMs)
      continue
    marks[mark.name] ??= Math.round((mark.startTime - startMs) * 10) / 10
  }
  return marks
}

/** What each renderer provides to the common measuring loop. */
interface RendererUnderTest {
  /** Moves the camera and draws one frame (the anchor) or lets the map draw (ours). */
  frame(pose: CameraKeyframe): void
  hasDrawnTiles(): boolean
  isSettled(): boolean
  tileMemoryBytes(): number
  tilesLoaded(): number
  tileErrors(): number
  /** The anchor's own WebGL context (ours is reached through its fences). */
  gl?: WebGL2RenderingContext
  dispose(): void
}

/**
 * Our engine with its city code loaded — as the anchor's code is, statically imported — so the
 * clock starts at the same point for both: the renderer is about to be created. As in the
 * product, attaching the map's container also starts the tile parse workers (their module
 * loaded, one tiny tile parsed); the map, the overlay and the tileset are all made on the clock.
 */
async function prepareOurs(container: HTMLElement): Promise<Engine> {
  const engine = new Engine()
  await engine.run('city.attachContainer', { container })
  return engine
}

async function createOurs(engine: Engine, config: CityBenchConfig): Promise<RendererUnderTest> {
  const first = config.path[0]!
  await engine.run('city.open', {
    projectId: 'bench',
    center: toLngLat(config, first.eastMeters, first.northMeters),
    zoom: first.zoom,
    basemap: {
      kind: 'offline',
      style: {
        version: 8,
        sources: {},
        layers: [
          { id: 'background', type: 'background', paint: { 'background-color': backgroundColor } },
        ],
      },
    },
    tilesets: [{ id: 'bench', name: 'bench', url: config.tilesetUrl, isVisible: true }],
    streaming: {
      memoryBudgetMB: config.memoryCapMB,
      maximumScreenSpaceError: config.maximumScreenSpaceError,
    },
  })
  const city = () => engine.getSnapshot().city
  return {
    frame(pose) {
      // flyTo with 0 ms is a jump; its promise waits for moveend, which the loop needs not.
      void engine.run('city.flyTo', {
        ...toLngLat(config, pose.eastMeters, pose.northMeters),
        zoom: pose.zoom,
        pitch: pose.pitchDegrees,
        bearing: pose.bearingDegrees,
        durationMs: 0,
      })
    },
    hasDrawnTiles: () => (city().tilesets[0]?.tilesDrawn ?? 0) > 0,
    isSettled: () => {
      const tileset = city().tilesets[0]
      return Boolean(tileset?.isSettled && tileset.tilesInView > 0)
    },
    tileMemoryBytes: () => city().memoryBytes,
    tilesLoaded: () => city().tilesLoaded,
    tileErrors: () => city().tilesets[0]?.errorCount ?? 0,
    dispose: () => engine.dispose(),
  }
}

function createAnchor(config: CityBenchConfig, container: HTMLElement): RendererUnderTest {
  const { width, height } = config.viewport
  const renderer = new WebGLRenderer({ antialias: false })
  renderer.setPixelRatio(1)
  renderer.setSize(width, height)
  container.append(renderer.domElement)
  const scene = new Scene()
  scene.background = new Color(backgroundColor)
  const camera = new PerspectiveCamera(fieldOfViewDegrees, width / height, 1, 1e6)
  camera.up.set(0, 0, 1)
  const tiles = new TilesRenderer(config.tilesetUrl)
  tiles.errorTarget = config.maximumScreenSpaceError
  tiles.lruCache.maxBytesSize = config.memoryCapMB * 2 ** 20
  tiles.lruCache.minBytesSize = Math.min(
    tiles.lruCache.minBytesSize,
    tiles.lruCache.maxBytesSize * 0.75,
  )
  // Draw in the tileset's local ENU frame (z up), where the camera path is defined.
  tiles.group.matrixAutoUpdate = false
  tiles.group.matrix.copy(new Matrix4().fromArray(config.rootTransform).invert())
  tiles.group.matrixWorldNeedsUpdate = true
  scene.add(tiles.group)
  tiles.setCamera(camera)
  tiles.setResolutionFromRenderer(camera, renderer)
  let hasModel = false
  let errors = 0
  tiles.addEventListener('load-model', () => {
    hasModel = true
  })
  tiles.addEventListener('load-error', () => {
    errors++
  })
  const latitudeRadians = (config.origin.lat * Math.PI) / 180
  return {
    frame(pose) {
      const metersPerPixel =
        (2 * Math.PI * earthRadiusMeters * Math.cos(latitudeRadians)) / (512 * 2 ** pose.zoom)
      const distance =
        (height / 2 / Math.tan((fieldOfViewDegrees * Math.PI) / 360)) * metersPerPixel
      const pitch = (pose.pitchDegrees * Math.PI) / 180
      const bearing = (pose.bearingDegrees * Math.PI) / 180
      camera.position.set(
        pose.eastMeters - distance * Math.sin(pitch) * Math.sin(bearing),
        pose.northMeters - distance * Math.sin(pitch) * Math.cos(bearing),
        distance * Math.cos(pitch),
      )
      camera.lookAt(pose.eastMeters, pose.northMeters, 0)
      camera.updateMatrixWorld()
      tiles.update()
      renderer.render(scene, camera)
    },
    hasDrawnTiles: () => hasModel,
    isSettled: () => tiles.loadProgress === 1 && tiles.visibleTiles.size > 0,
    tileMemoryBytes: () => (tiles.lruCache as unknown as { cachedBytes: number }).cachedBytes,
    tilesLoaded: () => {
      let loaded = 0
      tiles.forEachLoadedModel(() => loaded++)
      return loaded
    },
    tileErrors: () => errors,
    gl: renderer.getContext() as WebGL2RenderingContext,
    dispose() {
      tiles.dispose()
      renderer.dispose()
      renderer.domElement.remove()
    },
  }
}

window.runCityBench = async (config: CityBenchConfig): Promise<CityBenchSample> => {
  const container = document.getElementById('view')!
  container.style.width = `${config.viewport.width}px`
  container.style.height = `${config.viewport.height}px`
  const ourEngine = config.renderer === 'ours' ? await prepareOurs(container) : null
  // When ours drew a map frame: the engine's GPU frame pacing (paceGpuFrames) ends every frame
  // it draws with one fence and skips frames while the GPU is behind, so the page's animation
  // frames alone do not say how often the map was drawn. The anchor draws in every frame.
  const fences = ourEngine ? watchFences() : null
  const drawnAtMs = fences?.drawnAtMs ?? []
  const longTasks = watchLongTasks()
  const startMs = performance.now()
  performance.mark(`${cityBenchMarkPrefix}start:first-render`)
  const milestonesMs: Record<string, number> = {}
  const subject = ourEngine ? await createOurs(ourEngine, config) : createAnchor(config, container)
  const frameIntervalsMs: number[] = []
  let firstRenderMs = Number.NaN
  let hasSeenTiles = false
  let settledMs = Number.NaN
  let settledFrames = 0
  let peakTileMemoryBytes = 0
  let lastFrameMs = startMs
  await new Promise<void>((resolve) => {
    const onFrame = (nowMs: number) => {
      const elapsedMs = nowMs - startMs
      frameIntervalsMs.push(nowMs - lastFrameMs)
      lastFrameMs = nowMs
      if (!ourEngine) drawnAtMs.push(nowMs)
      // Tiles noticed in the previous frame were drawn by the time this frame starts.
      if (hasSeenTiles && Number.isNaN(firstRenderMs)) {
        firstRenderMs = elapsedMs
        performance.mark(`${cityBenchMarkPrefix}end:first-render`)
        if (config.stopAtFirstRender) {
          if (ourEngine) noteMilestones(ourEngine, milestonesMs, elapsedMs, drawnAtMs[0], startMs)
          resolve()
          return
        }
      }
      if (ourEngine) noteMilestones(ourEngine, milestonesMs, elapsedMs, drawnAtMs[0], startMs)
      subject.frame(poseAt(config, elapsedMs))
      if (subject.hasDrawnTiles()) hasSeenTiles = true
      peakTileMemoryBytes = Math.max(peakTileMemoryBytes, subject.tileMemoryBytes())
      if (elapsedMs >= config.pathDurationMs && subject.isSettled()) settledFrames++
      else settledFrames = 0
      if (settledFrames >= settledFramesNeeded) {
        settledMs = elapsedMs
        resolve()
        return
      }
      if (elapsedMs > config.pathDurationMs + config.settleTimeoutMs) {
        resolve()
        return
      }
      requestAnimationFrame(onFrame)
    }
    requestAnimationFrame(onFrame)
  })
  const { count, longestMs } = longTasks.stop()
  const finalPose = poseAt(config, config.pathDurationMs)
  const gpuFrameMs =
    config.gpuProbeFrames > 0 && (fences || subject.gl)
      ? await probeGpuFrames(
          subject,
          finalPose,
          config.gpuProbeFrames,
          fences ? { fences } : { gl: subject.gl! },
        )
      : []
  fences?.stop()
  const endMs = startMs + (Number.isNaN(settledMs) ? performance.now() - startMs : settledMs)
  const drawn = [startMs, ...drawnAtMs.filter((atMs) => atMs > startMs && atMs <= endMs)]
  const sample: CityBenchSample = {
    renderer: config.renderer,
    firstRenderMs,
    settledMs,
    frameIntervalsMs,
    drawnFrameIntervalsMs: drawn.slice(1).map((atMs, index) => atMs - drawn[index]!),
    longTaskCount: count,
    longestLongTaskMs: longestMs,
    peakTileMemoryBytes,
    tilesLoadedAtEnd: subject.tilesLoaded(),
    tileErrors: subject.tileErrors(),
    milestonesMs,
    engineMarksMs: ourEngine ? engineMarks(startMs, endMs) : {},
    fenceSignalledAfterMs: fences?.signalledAfterMs ?? [],
    unsignalledFencePolls: fences?.unsignalledPolls() ?? 0,
    gpuFrameMs,
  }
  // No dispose: the runner closes the browser context, which frees everything at once. A
  // disposing map waits (WEBGL_lose_context) for the software GPU to finish its queue first.
  void subject.dispose
  return sample
}
