import { describe, expect, it } from 'vitest'
import type { Engine } from '../core/engine'
import { browserEngineFixture } from '../testing/browser-engine'
import { boxSbm } from './testing/box-sbm'

/**
 * Library models in the building scene (issue 21 item 6) in real Chromium: Khronos's
 * AnimatedMorphCube placed beside a slab, its morph animation scrubbed and played; the frames
 * at two moments of the clip differ where the cube stands.
 */
const cubeUrl = new URL(
  '../city/fixtures/animated-morph-cube/AnimatedMorphCube.gltf',
  import.meta.url,
).href

const { startEngine, blobUrlOf } = browserEngineFixture()

async function openSlab(engine: Engine) {
  const slab = boxSbm(
    [{ name: 'Slab', size: [10, 0.2, 10], centre: [0, 0, 0], color: [0.2, 0.5, 0.9] }],
    { role: 'model' },
  )
  const url = blobUrlOf(slab)
  await engine.run('building.open', {
    description: {
      projectId: 'animated',
      name: 'Animated',
      shellModelId: null,
      floors: [],
      models: [
        { id: 'slab', name: 'Slab', role: 'model', floorId: null, url, sizeBytes: slab.byteLength },
      ],
    },
  })
  await engine.run('building.setCamera', { position: [6, 5, 8], target: [0, 1, 0] })
}

/** The RGBA pixels of the frame the engine draws now. */
async function framePixels(engine: Engine): Promise<Uint8ClampedArray> {
  const { png, width, height } = await engine.run('building.capturePng', {})
  const bitmap = await createImageBitmap(png)
  const canvas = new OffscreenCanvas(width, height)
  const context = canvas.getContext('2d')!
  context.drawImage(bitmap, 0, 0)
  return context.getImageData(0, 0, width, height).data
}

function changedPixels(before: Uint8ClampedArray, after: Uint8ClampedArray): number {
  let count = 0
  for (let index = 0; index < before.length; index += 4) {
    const distance =
      Math.abs(before[index]! - after[index]!) +
      Math.abs(before[index + 1]! - after[index + 1]!) +
      Math.abs(before[index + 2]! - after[index + 2]!)
    if (distance > 30) count++
  }
  return count
}

const cube = (engine: Engine) =>
  engine.getSnapshot().building.libraryModels.find((model) => model.id === 'cube')

describe('building library models', () => {
  it('draws an animated glTF in the building and plays, pauses and scrubs its animation', async () => {
    const engine = startEngine()
    await openSlab(engine)
    const without = await framePixels(engine)
    await engine.run('building.setLibraryModels', {
      models: [{ id: 'cube', url: cubeUrl, position: [0, 1.2, 0], headingDegrees: 30, scale: 1 }],
    })
    await expect.poll(() => cube(engine)?.loadState, { timeout: 20_000 }).toBe('success')
    expect(cube(engine)?.animation.clips).toEqual([
      { name: 'Square', durationSeconds: expect.closeTo(4.2, 1) },
    ])
    const start = await framePixels(engine)
    expect(changedPixels(without, start)).toBeGreaterThan(500)

    await engine.run('building.setModelAnimation', { id: 'cube', timeSeconds: 2.1 })
    const middle = await framePixels(engine)
    await engine.run('building.setModelAnimation', { id: 'cube', timeSeconds: 0 })
    const startAgain = await framePixels(engine)
    expect(changedPixels(start, middle)).toBeGreaterThan(100)
    expect(changedPixels(start, startAgain)).toBeLessThan(10)

    await engine.run('building.setModelAnimation', { id: 'cube', isPlaying: true, speed: 3 })
    await expect.poll(() => cube(engine)?.animation.timeSeconds ?? 0).toBeGreaterThan(0.5)
    await engine.run('building.setModelAnimation', { id: 'cube', isPlaying: false })
    // the snapshot is published with the next frame
    await expect
      .poll(() => cube(engine)?.animation)
      .toMatchObject({ isPlaying: false, speed: 3, isLooping: true })
    await expect(
      engine.run('building.setModelAnimation', { id: 'cube', speed: 0 }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })

    await engine.run('building.setLibraryModels', { models: [] })
    await expect.poll(() => engine.getSnapshot().building.libraryModels).toEqual([])
    expect(changedPixels(without, await framePixels(engine))).toBeLessThan(10)
  })
})
