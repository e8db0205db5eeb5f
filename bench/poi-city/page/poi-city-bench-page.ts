/**
 * The city POI frames bench page: one of three scenes flown along a fixed orbit —
 * `ours-pois` (the product engine with 100,000 POIs: 2D icons + labels, 10 % 3D models),
 * `ours-no-pois` (the same engine and map without POIs), `anchor-deck-icon-text` (MapLibre with a
 * plain deck.gl IconLayer + TextLayer of the same points, interleaved as ours is) — then, for
 * ours-pois, timed POI picks at random canvas points.
 */
import type { Layer } from '@deck.gl/core'
import { IconLayer, TextLayer } from '@deck.gl/layers'
import { MapLibreOverlay } from '@deck.gl/maplibre'
import { Map as MapLibreMap, setWorkerUrl } from 'maplibre-gl'
import mapLibreWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import 'maplibre-gl/dist/maplibre-gl.css'
import type { ScenePoi } from '../../../engine/api/poi-commands'
import { boxSbm } from '../../../engine/building/testing/box-sbm'
import { paceGpuFrames } from '../../../engine/city/library-internals'
import { Engine } from '../../../engine/core/engine'
import type { PoiBenchConfig, PoiBenchSample, PoiCameraPose } from './poi-city-bench-protocol'

const earthRadiusMeters = 6_378_137
const backgroundColor = '#eef0f2'
const style = {
  version: 8 as const,
  sources: {},
  layers: [
    {
      id: 'background',
      type: 'background' as const,
      paint: { 'background-color': backgroundColor },
    },
  ],
}
const iconColors = ['#e03131', '#2f9e44', '#1971c2', '#f08c00']

function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 16_807) % 2_147_483_647
    return state / 2_147_483_647
  }
}

function iconUrl(color: string): string {
  const canvas = document.createElement('canvas')
  canvas.width = 64
  canvas.height = 64
  const context = canvas.getContext('2d')!
  context.fillStyle = color
  context.beginPath()
  context.arc(32, 32, 28, 0, Math.PI * 2)
  context.fill()
  return canvas.toDataURL('image/png')
}

function offset(config: PoiBenchConfig, east: number, north: number) {
  const latitudeRadians = (config.center.lat * Math.PI) / 180
  return {
    lng:
      config.center.lng +
      (east / (earthRadiusMeters * Math.cos(latitudeRadians))) * (180 / Math.PI),
    lat: config.center.lat + (north / earthRadiusMeters) * (180 / Math.PI),
  }
}

/** The same seeded points for every case: 4 templates, the last one 3D. */
function benchPois(config: PoiBenchConfig): ScenePoi[] {
  const random = seeded(20_261_126)
  return Array.from({ length: config.poiCount }, (_, index) => {
    const { lng, lat } = offset(
      config,
      (random() - 0.5) * config.spreadMeters,
      (random() - 0.5) * config.spreadMeters,
    )
    const is3d = random() < config.share3d
    const templateIndex = is3d ? 3 : index % 3
    return {
      id: `poi-${index}`,
      templateId: `template-${templateIndex}`,
      label: `CAM-${String(index).padStart(5, '0')}`,
      position: [lng, lat, 0],
      heading: (index * 37) % 360,
      pitch: 0,
      roll: 0,
      groupId: `group-${templateIndex}`,
    }
  })
}

function poseAt(config: PoiBenchConfig, elapsedMs: number): PoiCameraPose {
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

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve))
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What each case gives the common loop. */
interface Subject {
  jump(pose: PoiCameraPose): void
  drawnCount(): number
  /** Map frames actually drawn so far (a paced map skips frames while the GPU is behind). */
  renderedFrames(): number
}

async function createOurs(config: PoiBenchConfig, container: HTMLElement, withPois: boolean) {
  const engine = new Engine()
  await engine.run('city.attachContainer', { container })
  const first = config.path[0]!
  await engine.run('city.open', {
    projectId: 'bench',
    center: offset(config, first.eastMeters, first.northMeters),
    zoom: first.zoom,
    basemap: { kind: 'offline', style },
    tilesets: [],
  })
  let setupMs = 0
  if (withPois) {
    const model = URL.createObjectURL(
      new Blob([
        boxSbm([{ name: 'cabinet', size: [3, 3, 6], centre: [0, 3, 0], color: [0.9, 0.5, 0.1] }], {
          role: 'model',
        }),
      ]),
    )
    const pois = benchPois(config)
    const startMs = performance.now()
    await engine.run('city.setPoiLooks', {
      looks: iconColors.map((color, index) => ({
        templateId: `template-${index}`,
        kind: index === 3 ? ('3D' as const) : ('2D' as const),
        iconUrl: iconUrl(color),
        ...(index === 3 ? { modelUrl: model } : {}),
      })),
    })
    await engine.run('city.setPois', { pois })
    await nextFrame()
    setupMs = performance.now() - startMs
  }
  const subject: Subject = {
    jump(pose) {
      void engine.run('city.flyTo', {
        ...offset(config, pose.eastMeters, pose.northMeters),
        zoom: pose.zoom,
        pitch: pose.pitchDegrees,
        bearing: pose.bearingDegrees,
        durationMs: 0,
      })
    },
    drawnCount: () => engine.getSnapshot().city.pois.drawnCount,
    renderedFrames: () => engine.getSnapshot().city.frameStats.renderedFrameCount,
  }
  return { engine, subject, setupMs }
}

async function createAnchor(config: PoiBenchConfig, container: HTMLElement) {
  setWorkerUrl(mapLibreWorkerUrl)
  const first = config.path[0]!
  const map = new MapLibreMap({
    container,
    style,
    center: offset(config, first.eastMeters, first.northMeters),
    zoom: first.zoom,
    maxPitch: 85,
    canvasContextAttributes: { preserveDrawingBuffer: false, antialias: false },
  })
  await new Promise((resolve) => map.once('load', resolve))
  // The same GPU pacing as the engine's map: without it, frames pile up in the GPU process
  // (SwiftShader) and animation-frame times measure nothing of the drawing.
  const gl = map.getCanvas().getContext('webgl2')
  if (gl) paceGpuFrames(map, gl)
  let renderedFrames = 0
  map.on('render', () => renderedFrames++)
  const overlay = new MapLibreOverlay({ interleaved: true, layers: [] })
  map.addControl(overlay)
  const urls = iconColors.map(iconUrl)
  const pois = benchPois(config)
  const startMs = performance.now()
  const layers: Layer[] = [
    new IconLayer<ScenePoi>({
      id: 'anchor-icons',
      data: pois,
      getIcon: (poi) => {
        const url = urls[Number(poi.templateId.slice(-1))]!
        return { url, id: url, width: 64, height: 64 }
      },
      getPosition: (poi) => poi.position,
      getSize: 32,
      sizeUnits: 'pixels',
    }),
    new TextLayer<ScenePoi>({
      id: 'anchor-labels',
      data: pois,
      getPosition: (poi) => poi.position,
      getText: (poi) => poi.label,
      getSize: 13,
      getPixelOffset: [0, 18],
      getAlignmentBaseline: 'top',
      characterSet: 'auto',
    }),
  ]
  overlay.setProps({ layers })
  await nextFrame()
  await nextFrame()
  const setupMs = performance.now() - startMs
  const subject: Subject = {
    jump(pose) {
      map.jumpTo({
        center: offset(config, pose.eastMeters, pose.northMeters),
        zoom: pose.zoom,
        pitch: pose.pitchDegrees,
        bearing: pose.bearingDegrees,
      })
    },
    drawnCount: () => 0,
    renderedFrames: () => renderedFrames,
  }
  return { subject, setupMs }
}

/**
 * Flies the path once; answers the drawn-frame intervals: the time between animation frames in
 * which the map drew, spread over the frames it drew (a skipped frame is not a frame a person
 * saw).
 */
async function flyPath(config: PoiBenchConfig, subject: Subject): Promise<number[]> {
  const frameIntervalsMs: number[] = []
  const startMs = await nextFrame()
  let lastDrawnMs = startMs
  let lastRendered = subject.renderedFrames()
  await new Promise<void>((resolve) => {
    const onFrame = (nowMs: number) => {
      const rendered = subject.renderedFrames()
      if (rendered > lastRendered) {
        const drawn = rendered - lastRendered
        for (let index = 0; index < drawn; index++) {
          frameIntervalsMs.push((nowMs - lastDrawnMs) / drawn)
        }
        lastRendered = rendered
        lastDrawnMs = nowMs
      }
      const elapsedMs = nowMs - startMs
      if (elapsedMs >= config.pathDurationMs) {
        resolve()
        return
      }
      subject.jump(poseAt(config, elapsedMs))
      requestAnimationFrame(onFrame)
    }
    requestAnimationFrame(onFrame)
  })
  return frameIntervalsMs
}

/**
 * Times the work of each drawn map frame while on: from the start of the first animation-frame
 * callback of the frame it was drawn in (the page's, which moves the camera, so the POIs'
 * handling of the move is inside) to a one-pixel `gl.readPixels` returning after the map drew it (Chromium's `gl.finish()`
 * does not wait for the GPU; a read back must): the page's
 * CPU for the frame and the (software) GPU drawing it, unquantised by display refreshes. Both
 * maps end every drawn frame with a fence (`paceGpuFrames`), so the read goes right before
 * that fence. Waiting for the GPU in every frame serialises frames, so this runs in a flight of
 * its own, never in the one whose intervals are measured.
 */
function watchFrameWork() {
  const request = window.requestAnimationFrame.bind(window)
  let frameTimeMs = Number.NaN
  let frameStartMs = Number.NaN
  let isOn = false
  const workMs: number[] = []
  const issueMs: number[] = []
  const pixel = new Uint8Array(4)
  // Every callback of one animation frame gets the same time; MapLibre asks for its frames
  // through the global at each call, so it gets this one too.
  window.requestAnimationFrame = (callback) =>
    request((timeMs) => {
      if (timeMs !== frameTimeMs) {
        frameTimeMs = timeMs
        frameStartMs = performance.now()
      }
      callback(timeMs)
    })
  const prototype = WebGL2RenderingContext.prototype
  const { fenceSync } = prototype
  prototype.fenceSync = function (this: WebGL2RenderingContext, condition, flags) {
    if (isOn && !Number.isNaN(frameStartMs)) {
      const issuedMs = performance.now()
      this.readPixels(0, 0, 1, 1, this.RGBA, this.UNSIGNED_BYTE, pixel)
      workMs.push(performance.now() - frameStartMs)
      issueMs.push(issuedMs - frameStartMs)
    }
    return fenceSync.call(this, condition, flags)
  }
  return {
    start() {
      isOn = true
    },
    stop() {
      isOn = false
      return { workMs, issueMs }
    },
  }
}

window.runPoiCityBench = async (config: PoiBenchConfig): Promise<PoiBenchSample> => {
  const frameWork = watchFrameWork()
  const container = document.getElementById('view')!
  container.style.width = `${config.viewport.width}px`
  container.style.height = `${config.viewport.height}px`
  const created =
    config.benchCase === 'anchor-deck-icon-text'
      ? { engine: null, ...(await createAnchor(config, container)) }
      : await createOurs(config, container, config.benchCase === 'ours-pois')
  const { subject, setupMs } = created
  // Settle: the first frames compile shaders and, for ours, decode the 3D model in its worker.
  subject.jump(config.path[0]!)
  await wait(1_500)
  for (let index = 0; index < 5; index++) await nextFrame()

  const frameIntervalsMs = await flyPath(config, subject)
  const drawnCount = subject.drawnCount()
  // The same path again, each drawn frame timed to its end on the GPU (see `watchFrameWork`).
  subject.jump(config.path[0]!)
  for (let index = 0; index < 5; index++) await nextFrame()
  frameWork.start()
  await flyPath(config, subject)
  const { workMs: frameWorkMs, issueMs: frameIssueMs } = frameWork.stop()

  const pickDurationsMs: number[] = []
  let pickHits = 0
  const engine = created.engine
  if (engine && config.benchCase === 'ours-pois') {
    const random = seeded(42)
    for (const pose of config.pickPoses) {
      subject.jump(pose)
      await nextFrame()
      await nextFrame()
      for (let index = 0; index < config.picksPerPose; index++) {
        const x = random() * config.viewport.width
        const y = random() * config.viewport.height
        const pickStartMs = performance.now()
        const picked = await engine.run('city.pickPoiAtScreenPoint', { x, y })
        pickDurationsMs.push(performance.now() - pickStartMs)
        if (picked) pickHits++
      }
    }
  }
  return {
    benchCase: config.benchCase,
    frameIntervalsMs,
    frameWorkMs,
    frameIssueMs,
    setupMs,
    pickDurationsMs,
    pickHits,
    drawnCount,
  }
}
