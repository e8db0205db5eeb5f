/**
 * The city drawing frames bench page: the product engine's city map orbited at a fixed zoom and
 * pitch, with 1,000 saved areas and 1,000 paths handed to it by `draw.setShapes` (deck.gl
 * polygon, path and node layers, engine/city/draw), or without them.
 */
import type { DrawShape } from '../../../engine/api/draw-commands'
import { Engine } from '../../../engine/core/engine'
import type { DrawBenchConfig, DrawBenchSample } from './draw-city-bench-protocol'

const earthRadiusMeters = 6_378_137
const style = {
  version: 8 as const,
  sources: {},
  layers: [
    { id: 'background', type: 'background' as const, paint: { 'background-color': '#eef0f2' } },
  ],
}

function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 16_807) % 2_147_483_647
    return state / 2_147_483_647
  }
}

function offset(config: DrawBenchConfig, east: number, north: number): [number, number] {
  const latitudeRadians = (config.center.lat * Math.PI) / 180
  return [
    config.center.lng + (east / (earthRadiusMeters * Math.cos(latitudeRadians))) * (180 / Math.PI),
    config.center.lat + (north / earthRadiusMeters) * (180 / Math.PI),
  ]
}

/** Seeded shapes: areas are 6-gons (every fifth a circle) of 20–80 m, paths 8-point walks. */
function benchShapes(config: DrawBenchConfig): DrawShape[] {
  const random = seeded(20_261_127)
  const spot = () => [
    (random() - 0.5) * config.spreadMeters,
    (random() - 0.5) * config.spreadMeters,
  ]
  const shapes: DrawShape[] = []
  for (let index = 0; index < config.areaCount; index++) {
    const [east, north] = spot() as [number, number]
    const radius = 20 + random() * 60
    const isCircle = index % 5 === 0
    const points = isCircle
      ? [offset(config, east, north), offset(config, east + radius, north)]
      : Array.from({ length: 6 }, (_, corner) => {
          const angle = (corner / 6) * Math.PI * 2
          return offset(config, east + Math.cos(angle) * radius, north + Math.sin(angle) * radius)
        })
    shapes.push({
      id: `area-${index}`,
      type: isCircle ? 1 : 4,
      points,
      fillColor: '#1e88e540',
      outlineColor: '#1e88e5ff',
      outlineWidthPx: 2,
      displayMode: 1,
      isVisible: true,
    })
  }
  for (let index = 0; index < config.pathCount; index++) {
    let [east, north] = spot() as [number, number]
    const points = Array.from({ length: 8 }, () => {
      east += (random() - 0.5) * 80
      north += (random() - 0.5) * 80
      return offset(config, east, north)
    })
    shapes.push({
      id: `path-${index}`,
      type: 3,
      points,
      fillColor: '#00000000',
      outlineColor: '#ff3b30ff',
      outlineWidthPx: 3,
      displayMode: 1,
      isVisible: true,
    })
  }
  return shapes
}

/**
 * One more drawing saved among `shapes` (a copy of the first, moved 100 m east), as the editor
 * does after a save: the page's longest task until its picture is shown. 0 without drawings.
 */
async function saveOne(engine: Engine, shapes: DrawShape[]): Promise<number> {
  const first = shapes[0]
  if (!first) return 0
  const tasksMs: number[] = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasksMs.push(entry.duration)
  })
  observer.observe({ type: 'longtask' })
  const saved: DrawShape = {
    ...first,
    id: 'saved-one',
    points: first.points.map(([lng, lat]) => [lng! + 0.0011, lat!] as [number, number]),
  }
  await engine.run('draw.setShapes', { shapes: [...shapes, saved] })
  await nextFrame()
  while (engine.getSnapshot().city.draw.isPicturePainting) await nextFrame()
  for (let index = 0; index < 5; index++) await nextFrame()
  observer.disconnect()
  return Math.max(0, ...tasksMs)
}

/**
 * A second orbit, after the measured one, that times each drawn frame's work instead of its
 * interval: from the animation frame's start (its timestamp, which `document.timeline` gives
 * every callback of the frame, the map's included) until one pixel read back from the map's
 * canvas arrives, which waits until the software GPU has drawn everything the frame asked for. Intervals come in whole
 * display refreshes (16.7 ms, 33.3 ms), so two scenes whose frames take 15 and 18 ms read 1× or
 * 2×; the work time is not quantised. Reading back changes the pacing of the frames it ends,
 * which is why this is a separate orbit and the interval orbit above stays as it was. The end
 * of a drawn frame is where the engine's GPU pacing makes its fence (paceGpuFrames).
 */
async function orbitFrameWork(
  engine: Engine,
  container: HTMLElement,
  config: DrawBenchConfig,
  jump: (bearing: number) => void,
): Promise<number[]> {
  const gl = container.querySelector('canvas')?.getContext('webgl2')
  if (!gl) return []
  const workMs: number[] = []
  const fenceSync = gl.fenceSync.bind(gl)
  const pixel = new Uint8Array(4)
  gl.fenceSync = (condition, flags) => {
    // Chromium's gl.finish() returns before SwiftShader has drawn (0.1 ms for a full-view pass);
    // reading one pixel back waits for it.
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)
    const frameStartMs = document.timeline.currentTime
    if (typeof frameStartMs === 'number') workMs.push(performance.now() - frameStartMs)
    return fenceSync(condition, flags)
  }
  const durationMs = config.pathDurationMs / 2
  try {
    const startMs = await nextFrame()
    await new Promise<void>((resolve) => {
      const onFrame = (nowMs: number) => {
        const elapsedMs = nowMs - startMs
        if (elapsedMs >= durationMs) return resolve()
        jump((elapsedMs / durationMs) * 360)
        requestAnimationFrame(onFrame)
      }
      requestAnimationFrame(onFrame)
    })
  } finally {
    // Own property off: the context's prototype method is back.
    delete (gl as Partial<WebGL2RenderingContext>).fenceSync
  }
  // Nothing of this orbit's pictures may be left painting for the save that follows.
  while (engine.getSnapshot().city.draw.isPicturePainting) await nextFrame()
  return workMs
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve))
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

window.runDrawCityBench = async (config: DrawBenchConfig): Promise<DrawBenchSample> => {
  const container = document.getElementById('view')!
  container.style.width = `${config.viewport.width}px`
  container.style.height = `${config.viewport.height}px`
  const engine = new Engine()
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'bench',
    center: config.center,
    zoom: config.zoom,
    basemap: { kind: 'offline', style },
    tilesets: [],
  })
  // The page's longest tasks from handing over the drawings until their picture is shown:
  // what a person feels as a frozen editor (Chromium reports tasks of 50 ms and more).
  const longTasksMs: number[] = []
  const longTasks = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasksMs.push(entry.duration)
  })
  longTasks.observe({ type: 'longtask' })
  const startMs = performance.now()
  let setupMs = 0
  const shapes = config.benchCase === 'with-drawings' ? benchShapes(config) : []
  if (config.benchCase === 'with-drawings') {
    await engine.run('draw.setShapes', { shapes })
    await nextFrame()
    setupMs = performance.now() - startMs
  }
  const jump = (bearing: number) =>
    void engine.run('city.flyTo', {
      ...config.center,
      zoom: config.zoom,
      pitch: config.pitchDegrees,
      bearing,
      durationMs: 0,
    })
  jump(0)
  await wait(1_500)
  // The tilted view's picture (the drawings are triangles until it is painted).
  while (engine.getSnapshot().city.draw.isPicturePainting) await nextFrame()
  const pictureMs = performance.now() - startMs
  for (let index = 0; index < 5; index++) await nextFrame()
  longTasks.disconnect()

  // Drawn-frame intervals, as the POI frames bench counts them (a skipped frame is not seen).
  const renderedFrames = () => engine.getSnapshot().city.frameStats.renderedFrameCount
  const frameIntervalsMs: number[] = []
  const orbitStartMs = await nextFrame()
  let lastDrawnMs = orbitStartMs
  let lastRendered = renderedFrames()
  let orbitPaints = 0
  let wasPainting = false
  // Marks of the orbit's window for a Chromium trace (per-thread CPU, the GPU process's too).
  performance.mark('draw-bench:start:orbit')
  await window.drawBenchMark?.('start')
  await new Promise<void>((resolve) => {
    const onFrame = (nowMs: number) => {
      const isPainting = engine.getSnapshot().city.draw.isPicturePainting
      if (isPainting && !wasPainting) orbitPaints++
      wasPainting = isPainting
      const rendered = renderedFrames()
      if (rendered > lastRendered) {
        const drawn = rendered - lastRendered
        for (let index = 0; index < drawn; index++)
          frameIntervalsMs.push((nowMs - lastDrawnMs) / drawn)
        lastRendered = rendered
        lastDrawnMs = nowMs
      }
      const elapsedMs = nowMs - orbitStartMs
      if (elapsedMs >= config.pathDurationMs) return resolve()
      jump((elapsedMs / config.pathDurationMs) * 360)
      requestAnimationFrame(onFrame)
    }
    requestAnimationFrame(onFrame)
  })
  performance.mark('draw-bench:end:orbit')
  await window.drawBenchMark?.('end')
  const frameWorkMs = await orbitFrameWork(engine, container, config, jump)
  const saveOneLongestTaskMs = await saveOne(engine, shapes)
  return {
    benchCase: config.benchCase,
    frameIntervalsMs,
    setupMs,
    pictureMs,
    longestTaskMs: Math.max(0, ...longTasksMs),
    orbitPaints,
    frameWorkMs,
    saveOneLongestTaskMs,
    visibleShapeCount: engine.getSnapshot().city.draw.visibleShapeCount,
  }
}
