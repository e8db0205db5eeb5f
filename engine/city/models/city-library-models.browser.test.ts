import { describe, expect, it } from 'vitest'
import { EngineError } from '../../api/errors'
import type { LibraryModelState } from '../../api/library-model-commands'
import type { Engine } from '../../core/engine'
import { cityTestPage } from '../testing/city-test-page'
import { mapPixels } from '../testing/map-pixels'

/**
 * The city's model library in Chromium (issue 21 item 6): Khronos's AnimatedMorphCube (glTF +
 * bin, one morph-weight animation "Square", 4.2 s) placed on the map by the engine, drawn by
 * three.js inside the map's WebGL context, and its animation played, paused, scrubbed and run
 * once: the pixels where the cube stands differ between animation times.
 */

const cubeUrl = new URL('../fixtures/animated-morph-cube/AnimatedMorphCube.gltf', import.meta.url)
  .href
const place = { lng: 126.978, lat: 37.5665 }
const landColor = [245, 242, 235] as const
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
}

const { createContainer, createEngine, city } = cityTestPage()

async function openCity(engine: Engine, container: HTMLElement): Promise<void> {
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'models',
    center: place,
    zoom: 18,
    basemap: { kind: 'offline', style: offlineStyle },
    tilesets: [],
    keepDrawingBuffer: true,
  })
  await engine.run('city.flyTo', { ...place, zoom: 18, pitch: 50, bearing: 30, durationMs: 0 })
}

function cube(engine: Engine): LibraryModelState | undefined {
  return city(engine).libraryModels.find((model) => model.id === 'cube')
}

/** Waits until the map drew a frame after now (the pixels then show the latest state). */
async function nextFrame(engine: Engine): Promise<void> {
  const before = city(engine).frameStats.renderedFrameCount
  await expect.poll(() => city(engine).frameStats.renderedFrameCount).toBeGreaterThan(before)
}

/** Pixels not the plain land colour: what the model drew. */
function drawnPixels(container: HTMLElement): number {
  const pixels = mapPixels(container)
  if (!pixels) return 0
  let count = 0
  for (let index = 0; index < pixels.data.length; index += 4) {
    const distance =
      Math.abs(pixels.data[index]! - landColor[0]) +
      Math.abs(pixels.data[index + 1]! - landColor[1]) +
      Math.abs(pixels.data[index + 2]! - landColor[2])
    if (distance > 25) count++
  }
  return count
}

/** How many pixels differ clearly between two frames. */
function changedPixels(before: ImageData, after: ImageData): number {
  let count = 0
  for (let index = 0; index < before.data.length; index += 4) {
    const distance =
      Math.abs(before.data[index]! - after.data[index]!) +
      Math.abs(before.data[index + 1]! - after.data[index + 1]!) +
      Math.abs(before.data[index + 2]! - after.data[index + 2]!)
    if (distance > 30) count++
  }
  return count
}

/** The frame drawn once the cube shows the clip at `timeSeconds` (paused there). */
async function frameAt(engine: Engine, container: HTMLElement, timeSeconds: number) {
  await engine.run('city.setModelAnimation', { id: 'cube', isPlaying: false, timeSeconds })
  await nextFrame(engine)
  return mapPixels(container)!
}

describe('city model library', () => {
  it('places an animated glTF on the map and plays, pauses, scrubs and stops its animation', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openCity(engine, container)
    await nextFrame(engine)
    const empty = drawnPixels(container)
    await engine.run('city.setLibraryModels', {
      models: [
        {
          id: 'cube',
          url: cubeUrl,
          position: [place.lng, place.lat, 0],
          headingDegrees: 0,
          scale: 8,
        },
      ],
    })
    await expect.poll(() => cube(engine)?.loadState, { timeout: 20_000 }).toBe('success')
    expect(cube(engine)?.animation).toMatchObject({
      clips: [{ name: 'Square' }],
      clipIndex: 0,
      isPlaying: false,
      speed: 1,
      isLooping: true,
    })
    expect(cube(engine)?.animation.clips[0]?.durationSeconds).toBeCloseTo(4.2, 1)
    // a 16 m cube at zoom 18 covers thousands of pixels where there was only land
    await expect.poll(() => drawnPixels(container) - empty).toBeGreaterThan(1_000)

    // two moments of the clip look different; the same moment looks the same
    const start = await frameAt(engine, container, 0)
    const middle = await frameAt(engine, container, 2.1)
    const startAgain = await frameAt(engine, container, 0)
    expect(changedPixels(start, middle)).toBeGreaterThan(200)
    expect(changedPixels(start, startAgain)).toBeLessThan(20)

    // played, the clock runs at the speed asked; paused, it holds
    await engine.run('city.setModelAnimation', { id: 'cube', isPlaying: true, speed: 2 })
    await expect.poll(() => cube(engine)?.animation.timeSeconds ?? 0).toBeGreaterThan(0.5)
    expect(cube(engine)?.animation).toMatchObject({ isPlaying: true, speed: 2 })
    await engine.run('city.setModelAnimation', { id: 'cube', isPlaying: false })
    // the snapshot still shows the last frame's time; the next frame publishes where it stopped
    await expect.poll(() => cube(engine)?.animation.isPlaying).toBe(false)
    const held = cube(engine)?.animation.timeSeconds ?? -1
    // changing the speed of a paused clip draws frames without moving its clock
    for (const speed of [1.5, 2]) {
      await engine.run('city.setModelAnimation', { id: 'cube', speed })
      await nextFrame(engine)
    }
    expect(cube(engine)?.animation.timeSeconds).toBe(held)

    // not looping, it plays to the end once and stays on the last frame
    await engine.run('city.setModelAnimation', {
      id: 'cube',
      isLooping: false,
      timeSeconds: 3.9,
      isPlaying: true,
      speed: 1,
    })
    // (the snapshot is published with the next frame: wait for the end, not for "not playing")
    await expect
      .poll(
        () => {
          const animation = cube(engine)?.animation
          return animation && !animation.isPlaying && animation.timeSeconds > 4.1
        },
        { timeout: 10_000 },
      )
      .toBe(true)
    expect(cube(engine)?.animation.timeSeconds).toBeCloseTo(4.2, 1)

    // moved and turned, the model keeps its animation state; removed, only land is left
    await engine.run('city.setLibraryModels', {
      models: [
        {
          id: 'cube',
          url: cubeUrl,
          position: [place.lng + 0.0004, place.lat, 0],
          headingDegrees: 45,
          scale: 8,
        },
      ],
    })
    expect(cube(engine)).toMatchObject({ loadState: 'success', animation: { isLooping: false } })
    await engine.run('city.setLibraryModels', { models: [] })
    await expect.poll(() => city(engine).libraryModels).toEqual([])
    await expect.poll(() => drawnPixels(container)).toBeLessThanOrEqual(empty + 20)
  })

  it('refuses what cannot be played or placed, and reports a model that fails to load', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openCity(engine, container)
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error) => error,
      )
    const at = [place.lng, place.lat, 0] as const
    expect(
      await refusal(
        engine.run('city.setLibraryModels', {
          models: [{ id: 'x', url: cubeUrl, position: at, headingDegrees: 0, scale: 0 }],
        }),
      ),
    ).toBeInstanceOf(EngineError)
    expect(
      await refusal(
        engine.run('city.setLibraryModels', {
          models: [{ id: 'x', url: cubeUrl, position: [0, 89, 0], headingDegrees: 0, scale: 1 }],
        }),
      ),
    ).toBeInstanceOf(EngineError)
    await engine.run('city.setLibraryModels', {
      models: [
        { id: 'cube', url: cubeUrl, position: at, headingDegrees: 0, scale: 1 },
        { id: 'missing', url: `${cubeUrl}.absent.glb`, position: at, headingDegrees: 0, scale: 1 },
      ],
    })
    await expect.poll(() => cube(engine)?.loadState, { timeout: 20_000 }).toBe('success')
    await expect
      .poll(() => city(engine).libraryModels.find((model) => model.id === 'missing')?.loadState)
      .toBe('error')
    for (const patch of [{ speed: 0 }, { speed: 11 }, { clipIndex: 1 }, { timeSeconds: -1 }]) {
      expect(
        await refusal(engine.run('city.setModelAnimation', { id: 'cube', ...patch })),
      ).toBeInstanceOf(EngineError)
    }
    expect(
      await refusal(engine.run('city.setModelAnimation', { id: 'missing', isPlaying: true })),
    ).toBeInstanceOf(EngineError)
    expect(cube(engine)?.animation.isPlaying).toBe(false)
  })
})
