import { describe, expect, it } from 'vitest'
import type { BuildingSceneDescription } from '../api/building-snapshot'
import { browserEngineFixture } from '../testing/browser-engine'
import { boxSbm } from './testing/box-sbm'

/**
 * Material overrides (issue 21 item 4) in real Chromium: a mesh found by the name a pick
 * reports is drawn with the library material (colour, then a texture), and gets its own
 * material back when the override goes; a model loaded after the override gets it too.
 */
const { startEngine, blobUrlOf: blobUrl } = browserEngineFixture()

function slabBuilding(): BuildingSceneDescription {
  const slab = boxSbm(
    [{ name: 'Slab', size: [10, 0.2, 10], centre: [0, 0, 0], color: [0.2, 0.5, 0.9] }],
    { role: 'model' },
  )
  return {
    projectId: 'paint',
    name: 'Paint',
    shellModelId: null,
    floors: [],
    models: [
      {
        id: 'slab',
        name: 'Slab',
        role: 'model',
        floorId: null,
        url: blobUrl(slab),
        sizeBytes: slab.byteLength,
      },
    ],
  }
}

const fromAbove = { position: [0.5, 30, 0.6] as const, target: [0, 0, 0] as const }
const look = {
  baseColor: '#ffffff',
  metalness: 0,
  roughness: 1,
  emissive: '#000000',
  maps: {},
}

async function redPngUrl(): Promise<string> {
  const canvas = new OffscreenCanvas(4, 4)
  const context = canvas.getContext('2d')!
  context.fillStyle = '#ff0000'
  context.fillRect(0, 0, 4, 4)
  return blobUrl(await canvas.convertToBlob({ type: 'image/png' }))
}

describe('material overrides', () => {
  it('draws a picked mesh with a library colour and texture, and gives its own back', async () => {
    const engine = startEngine()
    await engine.run('building.open', { description: slabBuilding() })
    await engine.run('building.setCamera', fromAbove)
    const pick = await engine.run('building.pickAtScreenPoint', { x: 160, y: 120 })
    expect(pick).toMatchObject({ modelId: 'slab', meshName: 'Slab' })
    // the pick marker would sit on the centre pixel
    await engine.run('building.clearPick')
    const own = (await engine.run('building.countDrawnPixels')).centreRgb
    // the slab's own blue
    expect(own[2]).toBeGreaterThan(own[0])

    await engine.run('building.setMaterialOverrides', {
      overrides: [
        { modelId: 'slab', meshName: pick!.meshName, look: { ...look, baseColor: '#00ff00' } },
      ],
    })
    // the snapshot is published with the next frame
    await expect
      .poll(() => engine.getSnapshot().building.materials)
      .toMatchObject({ overrideCount: 1, appliedMeshCount: 1 })
    const green = (await engine.run('building.countDrawnPixels')).centreRgb
    expect(green[1]).toBeGreaterThan(green[0] + 40)
    expect(green[1]).toBeGreaterThan(green[2] + 40)

    const textured = { ...look, maps: { baseColor: await redPngUrl() } }
    await engine.run('building.setMaterialOverrides', {
      overrides: [{ modelId: 'slab', meshName: 'Slab', look: textured }],
    })
    // the image arrives in a later task; the mesh is red once it is drawn with it
    const redness = async () => {
      const [r, g, b] = (await engine.run('building.countDrawnPixels')).centreRgb
      return r - Math.max(g, b)
    }
    await expect.poll(redness, { timeout: 15_000 }).toBeGreaterThan(40)
    await expect
      .poll(() => engine.getSnapshot().building.materials)
      .toMatchObject({ pendingTextureCount: 0, failedTextureUrls: [] })

    await engine.run('building.setMaterialOverrides', { overrides: [] })
    await expect.poll(() => engine.getSnapshot().building.materials.appliedMeshCount).toBe(0)
    expect((await engine.run('building.countDrawnPixels')).centreRgb).toEqual(own)
  })

  it('gives a model that loads later its override, and refuses malformed looks', async () => {
    const engine = startEngine()
    const opening = engine.run('building.open', { description: slabBuilding() })
    // set while the model is still loading
    await engine.run('building.setMaterialOverrides', {
      overrides: [{ modelId: 'slab', meshName: 'Slab', look: { ...look, baseColor: '#00ff00' } }],
    })
    await opening
    await expect.poll(() => engine.getSnapshot().building.materials.appliedMeshCount).toBe(1)
    await engine.run('building.setCamera', fromAbove)
    const green = (await engine.run('building.countDrawnPixels')).centreRgb
    expect(green[1]).toBeGreaterThan(green[2] + 40)

    await expect(
      engine.run('building.setMaterialOverrides', {
        overrides: [{ modelId: 'slab', meshName: 'Slab', look: { ...look, metalness: 3 } }],
      }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })
    // the refused call changed nothing
    expect(engine.getSnapshot().building.materials).toMatchObject({
      overrideCount: 1,
      appliedMeshCount: 1,
    })
  })
})
