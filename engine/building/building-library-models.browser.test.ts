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

  it('a click over a library model in mid-air places it on the ground behind, not on nothing', async () => {
    // The e2e's case: a model is uploaded where the camera looks, which for a building of
    // floors far apart is in the air between them, so it is drawn at the canvas centre and a
    // click there meets no building surface.
    const engine = startEngine()
    const blocks = boxSbm(
      [
        { name: 'Low', size: [1, 1, 1], centre: [0, 0, 0] },
        { name: 'High', size: [1, 1, 1], centre: [0, 10, 0] },
      ],
      { role: 'model' },
    )
    await engine.run('building.open', {
      description: {
        projectId: 'placing',
        name: 'Placing',
        shellModelId: null,
        floors: [],
        models: [
          {
            id: 'blocks',
            name: 'Blocks',
            role: 'model',
            floorId: null,
            url: blobUrlOf(blocks),
            sizeBytes: blocks.byteLength,
          },
        ],
      },
    })
    // opened, the camera frames both blocks: it looks at the empty middle between them
    await expect.poll(() => engine.getSnapshot().building.camera.target[1]).toBeCloseTo(5, 3)
    const { position: eye, target } = engine.getSnapshot().building.camera
    await engine.run('building.setLibraryModels', {
      models: [{ id: 'cube', url: cubeUrl, position: [...target], headingDegrees: 0, scale: 1 }],
    })
    await expect.poll(() => cube(engine)?.loadState, { timeout: 20_000 }).toBe('success')
    const overCube = await engine.run('building.poiToScreen', { position: target })
    expect(overCube).toMatchObject({ x: expect.closeTo(160, 0), y: expect.closeTo(120, 0) })
    const centre = { x: overCube.x, y: overCube.y }

    // POIs go on the building only: nothing is there (the library model is no surface).
    expect(await engine.run('building.surfacePointAtScreenPoint', centre)).toBeNull()
    // A model being placed stands on the ground under the building (the low block's base,
    // -0.5 m) where the ray from the eye through the click meets it.
    const ground = await engine.run('building.surfacePointAtScreenPoint', {
      ...centre,
      orGround: true,
    })
    const along = (-0.5 - eye[1]) / (target[1] - eye[1])
    expect(ground).toMatchObject({ surface: 'ground', normal: [0, 1, 0], floorId: null })
    expect(ground!.position[0]).toBeCloseTo(eye[0] + (target[0] - eye[0]) * along, 1)
    expect(ground!.position[1]).toBeCloseTo(-0.5, 5)
    expect(ground!.position[2]).toBeCloseTo(eye[2] + (target[2] - eye[2]) * along, 1)

    // Over a block the block itself answers, ground or not.
    const overBlock = await engine.run('building.poiToScreen', { position: [0, 10, 0] })
    const onBlock = await engine.run('building.surfacePointAtScreenPoint', {
      x: overBlock.x,
      y: overBlock.y,
      orGround: true,
    })
    expect(onBlock).toMatchObject({ surface: 'model' })
    expect(onBlock!.position[1]).toBeGreaterThan(9)

    // Looking up, the ray never meets the ground: the sky answers null.
    await engine.run('building.setCamera', { position: [0, 1, 20], target: [0, 6, 0] })
    expect(
      await engine.run('building.surfacePointAtScreenPoint', { x: 160, y: 120, orGround: true }),
    ).toBeNull()
  })
})
