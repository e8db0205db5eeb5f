import { describe, expect, it } from 'vitest'
import type { BuildingSceneDescription } from '../../api/building-snapshot'
import { EngineError } from '../../api/errors'
import type { SceneStyle } from '../../api/style-commands'
import { boxSbm } from '../testing/box-sbm'
import { browserEngineFixture } from '../../testing/browser-engine'
import { defaultSceneStyle } from '../../testing/default-scene-style'

/**
 * The style of the building scene in real Chromium (WebGL2 on SwiftShader): the sky, ground,
 * weather and lights are checked on the pixels they draw, not only on the snapshot.
 */
const { startEngine, blobUrlOf } = browserEngineFixture()

/** A 10 m slab with a 4 m block on it, white. */
function slabDescription(): BuildingSceneDescription {
  const bytes = boxSbm(
    [
      { name: 'slab', size: [10, 0.4, 10], centre: [0, 0.2, 0] },
      { name: 'block', size: [4, 4, 4], centre: [0, 2.4, 0] },
    ],
    { role: 'model' },
  )
  const url = blobUrlOf(bytes)
  return {
    projectId: 'styled',
    name: 'Styled',
    shellModelId: null,
    floors: [],
    models: [{ id: 'm', name: 'm', role: 'model', floorId: null, url, sizeBytes: bytes.length }],
  }
}

const white = { r: 255, g: 255, b: 255, a: 1 }

const brightness = (rgb: readonly number[]) => rgb[0]! + rgb[1]! + rgb[2]!
const distance = (a: readonly number[], b: readonly number[]) =>
  Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!)

describe('building style', () => {
  it('draws each sky style at the top of the frame, and the neutral look again after reset', async () => {
    const engine = startEngine()
    await engine.run('building.open', { description: slabDescription() })
    await engine.run('building.setCamera', { position: [30, 8, 30], target: [0, 2, 0] })
    const neutral = (await engine.run('building.sampleStylePixels')).topRgb
    const tops: Array<readonly number[]> = []
    for (const sky of [1, 2, 3, 4] as const) {
      await engine.run('building.setStyle', { style: defaultSceneStyle({ sky }) })
      tops.push((await engine.run('building.sampleStylePixels')).topRgb)
    }
    const [sunny, , night, rainy] = tops as [number[], number[], number[], number[]]
    // a blue sunny sky, the milky way dark, the rainy sky grey: each differs from the others
    expect(sunny[2]!).toBeGreaterThan(sunny[0]!)
    expect(brightness(night)).toBeLessThan(180)
    expect(night[2]!).toBeGreaterThan(night[0]!)
    expect(Math.abs(rainy[0]! - rainy[2]!)).toBeLessThan(30)
    expect(brightness(rainy)).toBeGreaterThan(brightness(night) + 100)
    for (let first = 0; first < tops.length; first++) {
      for (let second = first + 1; second < tops.length; second++) {
        expect(
          distance(tops[first]!, tops[second]!),
          `sky ${first + 1} vs ${second + 1}`,
        ).toBeGreaterThan(20)
      }
    }
    await expect.poll(() => engine.getSnapshot().building.style.style?.sky).toBe(4)
    await engine.run('building.resetStyle')
    expect((await engine.run('building.sampleStylePixels')).topRgb).toEqual(neutral)
    await expect.poll(() => engine.getSnapshot().building.style.style).toBeNull()
    // the pixel count that tells a drawn building from a blank canvas ignores the sky
    await engine.run('building.setStyle', { style: defaultSceneStyle({ sky: 3 }) })
    const counted = await engine.run('building.countDrawnPixels')
    expect(counted.drawnPixelCount).toBeLessThan(counted.totalPixelCount * 0.9)
  })

  it('lays a textured ground under the models', async () => {
    const engine = startEngine()
    await engine.run('building.open', { description: slabDescription() })
    // looking down past the slab: the bottom of the frame is ground (or the sky below the horizon)
    await engine.run('building.setCamera', { position: [0, 12, 40], target: [0, 0, 12] })
    await engine.run('building.setStyle', { style: defaultSceneStyle() })
    const bare = (await engine.run('building.sampleStylePixels')).bottomRgb
    const grounds: Array<readonly number[]> = []
    for (const ground of ['grassland', 'stoneGravel', 'ashBlackGravel'] as const) {
      await engine.run('building.setStyle', { style: defaultSceneStyle({ ground }) })
      grounds.push((await engine.run('building.sampleStylePixels')).bottomRgb)
    }
    const [grass, stone, ash] = grounds as [number[], number[], number[]]
    expect(distance(grass, bare)).toBeGreaterThan(20)
    expect(grass[1]!).toBeGreaterThan(grass[2]!)
    expect(brightness(stone)).toBeGreaterThan(brightness(ash))
  })

  it('renders every frame only while rain or snow falls, in one extra draw call', async () => {
    const engine = startEngine()
    await engine.run('building.open', { description: slabDescription() })
    await engine.run('building.setCamera', { position: [20, 6, 20], target: [0, 2, 0] })
    await engine.run('building.setStyle', { style: defaultSceneStyle() })
    await engine.run('building.sampleStylePixels')
    await expect.poll(() => engine.getSnapshot().building.render?.drawCalls ?? 0).toBeGreaterThan(1)
    const dryCalls = engine.getSnapshot().building.render!.drawCalls
    await engine.run('building.setStyle', { style: defaultSceneStyle({ weather: 'rain' }) })
    await expect.poll(() => engine.getSnapshot().building.style.isAnimating).toBe(true)
    expect(engine.getSnapshot().building.style.particleCount).toBeGreaterThan(1000)
    const before = engine.getSnapshot().building.render!.renderCount
    await expect
      .poll(() => engine.getSnapshot().building.render!.renderCount, { timeout: 10_000 })
      .toBeGreaterThan(before + 3)
    expect(engine.getSnapshot().building.render!.drawCalls).toBe(dryCalls + 1)
    await engine.run('building.setStyle', { style: defaultSceneStyle({ weather: 'snow' }) })
    await expect.poll(() => engine.getSnapshot().building.style.particleCount).toBeGreaterThan(1000)
    await engine.run('building.setStyle', { style: defaultSceneStyle({ weather: 'sunny' }) })
    await expect
      .poll(() => engine.getSnapshot().building.style)
      .toMatchObject({ isAnimating: false, particleCount: 0 })
    // on demand again: once the last requested frame is drawn, nothing renders
    await new Promise((resolve) => setTimeout(resolve, 200))
    const settled = engine.getSnapshot().building.render!.renderCount
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(engine.getSnapshot().building.render!.renderCount).toBe(settled)
  })

  it('lights the models with the style colours and fogs them', async () => {
    const engine = startEngine()
    await engine.run('building.open', { description: slabDescription() })
    await engine.run('building.setCamera', { position: [12, 6, 12], target: [0, 2.4, 0] })
    const lit = async (overrides: Partial<SceneStyle>) => {
      await engine.run('building.setStyle', { style: defaultSceneStyle(overrides) })
      return (await engine.run('building.sampleStylePixels')).centreRgb
    }
    const plain = await lit({})
    const red = await lit({
      directionalLight: { color: { r: 255, g: 0, b: 0, a: 1 }, intensity: 1 },
      hemisphereLight: { skyColor: { r: 255, g: 0, b: 0, a: 1 }, groundColor: white, intensity: 1 },
    })
    expect(red[0]!).toBeGreaterThan(red[1]! + 40)
    // alpha 0 switches the lights off: only the dark ambient remains
    const dark = await lit({
      directionalLight: { color: { ...white, a: 0 }, intensity: 1 },
      hemisphereLight: { skyColor: { ...white, a: 0 }, groundColor: white, intensity: 1 },
    })
    expect(brightness(dark)).toBeLessThan(brightness(plain) / 2)
    const fogColor = { r: 250, g: 120, b: 20, a: 1 }
    const fogged = await lit({ fog: { isOn: true, color: fogColor, density: 1 } })
    const clear = await lit({})
    expect(distance(fogged, [250, 120, 20])).toBeLessThan(distance(clear, [250, 120, 20]))
  })

  it('applies distances, mouse speed and zoom factors, and refuses bad styles without change', async () => {
    const engine = startEngine()
    await engine.run('building.open', { description: slabDescription() })
    await engine.run('building.setStyle', {
      style: defaultSceneStyle({
        visualDistance: { min: 5, max: 200 },
        zoomFactors: { min: 0.5, max: 2 },
        wheelScale: 2.5,
      }),
    })
    await expect
      .poll(() => engine.getSnapshot().building.camera)
      .toMatchObject({
        minDistance: 2.5,
        maxDistance: 400,
        minZoomFactor: 0.5,
        maxZoomFactor: 2,
        wheelScale: 2.5,
      })
    await expect.poll(() => engine.getSnapshot().building.style.style).not.toBeNull()
    const applied = engine.getSnapshot().building.style.style
    for (const bad of [
      defaultSceneStyle({ ambientLight: { color: { r: 256, g: 0, b: 0, a: 1 } } }),
      defaultSceneStyle({ ambientLight: { color: { r: 0, g: 0, b: 0, a: 1.2 } } }),
      defaultSceneStyle({ sky: 5 as 1 }),
      defaultSceneStyle({ visualDistance: { min: 10, max: 1 } }),
    ]) {
      const failure = await engine.run('building.setStyle', { style: bad }).catch((error) => error)
      expect(failure).toBeInstanceOf(EngineError)
      expect((failure as EngineError).code).toBe('engine.invalidArgument')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(engine.getSnapshot().building.style.style).toEqual(applied)
  })
})
