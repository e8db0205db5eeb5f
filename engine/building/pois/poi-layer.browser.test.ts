import { afterEach, describe, expect, it } from 'vitest'
import type { BuildingSceneDescription } from '../../api/building-snapshot'
import type { ScenePoi } from '../../api/poi-commands'
import type { Engine } from '../../core/engine'
import { boxSbm } from '../testing/box-sbm'
import { blobUrl, iconUrl, pixelAt, runCleanups, startEngine } from '../testing/poi-browser-kit'

/**
 * POIs in the building scene as the app draws them: real Chromium, WebGL2 on SwiftShader, the
 * real decode and picking workers. The canvas keeps its drawing buffer (the engine reuses the
 * context the test made), so the test reads the pixels where `building.poiToScreen` says a
 * marker is.
 */
afterEach(runCleanups)

/**
 * Waits until the canvas at CSS pixel (x, y) passes `test`, drawing a frame each time: what is
 * awaited (an icon's fetch, a model's decode, its stand-in picture) is a state, waited for up to
 * 20 s on a loaded machine.
 */
async function untilPixel(
  engine: Engine,
  canvas: HTMLCanvasElement,
  x: number,
  y: number,
  test: (pixel: number[]) => boolean,
): Promise<void> {
  await expect
    .poll(
      async () => {
        await engine.run('building.countDrawnPixels')
        return test(pixelAt(canvas, x, y))
      },
      { timeout: 20_000 },
    )
    .toBe(true)
}

/** Two grey slabs, the ground floor at 0 m and the first floor lifted to 3 m. */
function twoFloors(): BuildingSceneDescription {
  const slab = (name: string) =>
    boxSbm([{ name, size: [20, 0.2, 20], centre: [0, 0, 0], color: [0.5, 0.5, 0.5] }], {
      role: 'floor',
    })
  const f1 = slab('F1 slab')
  const f2 = slab('F2 slab')
  return {
    projectId: 'poi-house',
    name: 'POI house',
    shellModelId: null,
    floors: [
      { id: 'F1', name: '1F', elevationMeters: 0, modelIds: ['f1'] },
      { id: 'F2', name: '2F', elevationMeters: 3, modelIds: ['f2'] },
    ],
    models: [
      {
        id: 'f1',
        name: 'F1',
        role: 'floor',
        floorId: 'F1',
        url: blobUrl(f1),
        sizeBytes: f1.byteLength,
      },
      {
        id: 'f2',
        name: 'F2',
        role: 'floor',
        floorId: 'F2',
        url: blobUrl(f2),
        sizeBytes: f2.byteLength,
      },
    ],
  }
}

function poi(
  id: string,
  templateId: string,
  position: [number, number, number],
  extra: Partial<ScenePoi> = {},
): ScenePoi {
  return {
    id,
    templateId,
    label: id,
    position,
    heading: 0,
    pitch: 0,
    roll: 0,
    floorId: 'F2',
    groupId: 'cameras',
    ...extra,
  }
}

const isMagenta = ([red, green, blue]: number[]) => red! > 200 && green! < 60 && blue! > 200
const isGreen = ([red, green, blue]: number[]) => green! > 120 && red! < 90 && blue! < 90

describe('building POIs in Chromium', () => {
  it('draws 2D markers and 3D models where poiToScreen says, picks, hides groups and floors', async () => {
    const { engine, canvas } = startEngine()
    await engine.run('building.open', { description: twoFloors() })
    await engine.run('building.setCamera', { position: [0, 30, 0.01], target: [0, 3, 0] })
    const greenBox = boxSbm(
      [{ name: 'Camera body', size: [1.2, 1.2, 1.2], centre: [0, 0.6, 0], color: [0, 0.8, 0] }],
      { role: 'model' },
    )
    await engine.run('building.setPoiLooks', {
      looks: [
        { templateId: 'sensor', kind: '2D', iconUrl: await iconUrl('#ff00ff') },
        { templateId: 'camera', kind: '3D', iconUrl: '', modelUrl: blobUrl(greenBox) },
      ],
    })
    const sensor = poi('sensor-1', 'sensor', [-4, 3.1, 0])
    const camera = poi('camera-1', 'camera', [4, 3.1, 0], { groupId: 'models' })
    await engine.run('building.setPois', { pois: [sensor, camera] })

    const sensorAt = await engine.run('building.poiToScreen', { position: sensor.position })
    const cameraAt = await engine.run('building.poiToScreen', { position: camera.position })
    expect(sensorAt.isVisible).toBe(true)
    expect(sensorAt.x).toBeLessThan(cameraAt.x)
    // The icon arrives asynchronously; the 3D model after its decode.
    await untilPixel(engine, canvas, sensorAt.x, sensorAt.y, isMagenta)
    await untilPixel(engine, canvas, cameraAt.x, cameraAt.y - 2, isGreen)
    expect(engine.getSnapshot().building.pois).toMatchObject({
      count: 2,
      drawnCount: 2,
      clusterCount: 0,
    })

    // Picking: the marker and the model answer; empty floor does not; select highlights.
    expect(
      await engine.run('building.pickPoiAtScreenPoint', { x: sensorAt.x + 5, y: sensorAt.y }),
    ).toEqual({ poiId: 'sensor-1' })
    expect(
      await engine.run('building.pickPoiAtScreenPoint', {
        x: cameraAt.x,
        y: cameraAt.y,
        select: true,
      }),
    ).toEqual({ poiId: 'camera-1' })
    expect(await engine.run('building.pickPoiAtScreenPoint', { x: 10, y: 10 })).toBeNull()
    await expect.poll(() => engine.getSnapshot().building.pois.selectedIds).toEqual(['camera-1'])
    await engine.run('building.hoverPoiAtScreenPoint', { x: sensorAt.x, y: sensorAt.y })
    await expect.poll(() => engine.getSnapshot().building.pois.hoveredId).toBe('sensor-1')

    // POI classify: a hidden group is neither drawn nor picked.
    await engine.run('building.setHiddenPoiGroups', { groupIds: ['cameras'] })
    await engine.run('building.countDrawnPixels')
    expect(isMagenta(pixelAt(canvas, sensorAt.x, sensorAt.y))).toBe(false)
    expect(
      await engine.run('building.pickPoiAtScreenPoint', { x: sensorAt.x, y: sensorAt.y }),
    ).toBeNull()
    await engine.run('building.setHiddenPoiGroups', { groupIds: [] })

    // Hiding the floor hides its POIs (both kinds).
    await engine.run('building.setFloorVisible', { floorId: 'F2', isVisible: false })
    await engine.run('building.countDrawnPixels')
    expect(isMagenta(pixelAt(canvas, sensorAt.x, sensorAt.y))).toBe(false)
    expect(isGreen(pixelAt(canvas, cameraAt.x, cameraAt.y - 2))).toBe(false)
    expect(
      await engine.run('building.pickPoiAtScreenPoint', { x: cameraAt.x, y: cameraAt.y }),
    ).toBeNull()
    await engine.run('building.setFloorVisible', { floorId: 'F2', isVisible: true })
    await engine.run('building.countDrawnPixels')
    expect(isMagenta(pixelAt(canvas, sensorAt.x, sensorAt.y))).toBe(true)

    // Removing takes the marker away and out of the selection.
    await engine.run('building.removePois', { ids: ['camera-1'] })
    await expect
      .poll(() => engine.getSnapshot().building.pois)
      .toMatchObject({ count: 1, selectedIds: [] })
  })

  it('draws a far 3D POI as its stand-in where it stands, and as its model up close', async () => {
    const { engine, canvas } = startEngine()
    await engine.run('building.open', { description: twoFloors() })
    const greenBox = boxSbm(
      [{ name: 'Camera body', size: [1.2, 1.2, 1.2], centre: [0, 0.6, 0], color: [0, 0.8, 0] }],
      { role: 'model' },
    )
    await engine.run('building.setPoiLooks', {
      looks: [{ templateId: 'camera', kind: '3D', iconUrl: '', modelUrl: blobUrl(greenBox) }],
    })
    const camera = poi('camera-1', 'camera', [4, 3.1, 0])
    await engine.run('building.setPois', { pois: [camera] })
    // Near: the model is ~50 px in radius on this 240 px high canvas (drawn as the model).
    await engine.run('building.setCamera', { position: [4, 12, 4], target: [4, 3.1, 0] })
    const nearAt = await engine.run('building.poiToScreen', { position: [4, 3.7, 0] })
    await untilPixel(engine, canvas, nearAt.x, nearAt.y, isGreen)
    // Far: ~11 px in radius, between the marker's and the model's sizes: its stand-in, still
    // green where the box stands, and gone with its floor.
    await engine.run('building.setCamera', { position: [4, 40, 24], target: [4, 3.1, 0] })
    const farAt = await engine.run('building.poiToScreen', { position: [4, 3.7, 0] })
    expect(farAt.isVisible).toBe(true)
    await untilPixel(engine, canvas, farAt.x, farAt.y, isGreen)
    expect(isGreen(pixelAt(canvas, farAt.x + 30, farAt.y))).toBe(false)
    expect(engine.getSnapshot().building.pois).toMatchObject({ drawnCount: 1, clusterCount: 0 })
    await engine.run('building.setFloorVisible', { floorId: 'F2', isVisible: false })
    await engine.run('building.countDrawnPixels')
    expect(isGreen(pixelAt(canvas, farAt.x, farAt.y))).toBe(false)
  })

  it('finds the surface to place on without recording a pick, draws ghosts, flies to a POI', async () => {
    const { engine } = startEngine()
    await engine.run('building.open', { description: twoFloors() })
    await engine.run('building.setCamera', { position: [0, 30, 0.01], target: [0, 3, 0] })
    const surface = await engine.run('building.surfacePointAtScreenPoint', { x: 160, y: 120 })
    expect(surface).toMatchObject({ surface: 'model', floorId: 'F2' })
    expect(surface!.position[1]).toBeCloseTo(3.1, 3)
    expect(surface!.normal[1]).toBeCloseTo(1, 5)
    expect(engine.getSnapshot().building.lastPick).toBeNull()
    expect(await engine.run('building.surfacePointAtScreenPoint', { x: 2, y: 2 })).toBeNull()

    await engine.run('building.setPoiLooks', {
      looks: [{ templateId: 'sensor', kind: '2D', iconUrl: await iconUrl('#ff00ff') }],
    })
    await engine.run('building.setPoiGhosts', {
      pois: [poi('ghost-1', 'sensor', [1, 3.1, 1]), poi('ghost-2', 'sensor', [2, 3.1, 1])],
    })
    await expect.poll(() => engine.getSnapshot().building.pois.ghostCount).toBe(2)
    // Ghosts are a preview: not pickable.
    const ghostAt = await engine.run('building.poiToScreen', { position: [1, 3.1, 1] })
    expect(await engine.run('building.pickPoiAtScreenPoint', ghostAt)).toBeNull()

    await engine.run('building.setPois', { pois: [poi('far', 'sensor', [8, 3.1, -8])] })
    await engine.run('building.flyToPoi', { id: 'far' })
    await expect.poll(() => engine.getSnapshot().building.camera.target[0]).toBeCloseTo(8, 6)
    expect(engine.getSnapshot().building.camera.target[1]).toBeCloseTo(3.1, 6)
    expect(engine.getSnapshot().building.camera.distance).toBeLessThanOrEqual(12.001)
    const at = await engine.run('building.poiToScreen', { position: [8, 3.1, -8] })
    expect(at.x).toBeCloseTo(160, 0)
    expect(at.y).toBeCloseTo(120, 0)
    await expect(engine.run('building.flyToPoi', { id: 'nope' })).rejects.toThrow(/nope/)
    await expect(
      engine.run('building.upsertPois', { pois: [poi('bad', 'sensor', [Number.NaN, 0, 0])] }),
    ).rejects.toThrow(/three finite numbers/)
  })

  it('clusters 100,000 crowded markers and still picks one under the pointer', async () => {
    const { engine } = startEngine()
    await engine.run('building.open', { description: twoFloors() })
    await engine.run('building.setCamera', { position: [0, 60, 0.01], target: [0, 0, 0] })
    await engine.run('building.setPoiLooks', {
      looks: [{ templateId: 'sensor', kind: '2D', iconUrl: await iconUrl('#ff00ff') }],
    })
    const pois: ScenePoi[] = []
    for (let index = 0; index < 100_000; index++) {
      const x = ((index % 400) / 400) * 18 - 9
      const z = (Math.floor(index / 400) / 250) * 18 - 9
      pois.push(
        poi(`p${index}`, 'sensor', [x, 0.1, z], { floorId: 'F1', label: `Sensor ${index}` }),
      )
    }
    await engine.run('building.setPois', { pois })
    await engine.run('building.countDrawnPixels')
    await expect.poll(() => engine.getSnapshot().building.pois.count).toBe(100_000)
    const state = engine.getSnapshot().building.pois
    expect(state.clusterCount).toBeGreaterThan(0)
    // Crowded markers merge: far fewer marks than POIs, each cluster counted once.
    expect(state.drawnCount).toBeLessThan(2_000)
    const at = await engine.run('building.poiToScreen', { position: pois[20_200]!.position })
    const picked = await engine.run('building.pickPoiAtScreenPoint', at)
    expect(picked).not.toBeNull()
    const pickedPoi = pois.find((candidate) => candidate.id === picked!.poiId)!
    const pickedAt = await engine.run('building.poiToScreen', { position: pickedPoi.position })
    expect(Math.hypot(pickedAt.x - at.x, pickedAt.y - at.y)).toBeLessThan(2)
  })
})

describe('building POIs render on demand', () => {
  it('draws every visible POI change without anyone forcing a frame', async () => {
    const { engine, canvas } = startEngine()
    await engine.run('building.open', { description: twoFloors() })
    await engine.run('building.setCamera', { position: [0, 30, 0.01], target: [0, 3, 0] })
    await engine.run('building.setPoiLooks', {
      looks: [{ templateId: 'sensor', kind: '2D', iconUrl: await iconUrl('#ff00ff') }],
    })
    const here = poi('sensor-1', 'sensor', [-4, 3.1, 0])
    const there = { ...here, position: [4, 3.1, 0] as [number, number, number] }
    const hereAt = await engine.run('building.poiToScreen', { position: here.position })
    const thereAt = await engine.run('building.poiToScreen', { position: there.position })
    const magentaAt = (at: { x: number; y: number }) => isMagenta(pixelAt(canvas, at.x, at.y))

    // Each step only polls the canvas as last drawn: the engine must have asked for the frame.
    await engine.run('building.setPois', { pois: [here] })
    await expect.poll(() => magentaAt(hereAt)).toBe(true)
    await engine.run('building.upsertPois', { pois: [there] })
    await expect.poll(() => magentaAt(thereAt) && !magentaAt(hereAt)).toBe(true)
    await engine.run('building.setHiddenPoiGroups', { groupIds: ['cameras'] })
    await expect.poll(() => magentaAt(thereAt)).toBe(false)
    await engine.run('building.setHiddenPoiGroups', { groupIds: [] })
    await expect.poll(() => magentaAt(thereAt)).toBe(true)
    await engine.run('building.removePois', { ids: ['sensor-1'] })
    await expect.poll(() => magentaAt(thereAt)).toBe(false)
    await engine.run('building.setPoiGhosts', { pois: [here] })
    // a ghost is the icon at half opacity over the grey floor: changed, not magenta
    const ghostRenders = engine.getSnapshot().building.render?.renderCount ?? 0
    await expect
      .poll(() => (engine.getSnapshot().building.render?.renderCount ?? 0) > ghostRenders)
      .toBe(true)
  })

  it('draws every POI of a dragged selection where it went (one upsert per POI per move)', async () => {
    const { engine, canvas } = startEngine()
    await engine.run('building.open', { description: twoFloors() })
    await engine.run('building.setCamera', { position: [0, 30, 0.01], target: [0, 3, 0] })
    await engine.run('building.setPoiLooks', {
      looks: [{ templateId: 'sensor', kind: '2D', iconUrl: await iconUrl('#ff00ff') }],
    })
    const a = poi('a', 'sensor', [-6, 3.1, -3])
    const b = poi('b', 'sensor', [-2, 3.1, -3])
    await engine.run('building.setPois', { pois: [a, b] })
    await engine.run('building.selectPois', { ids: ['a', 'b'] })
    const at = (position: readonly [number, number, number]) =>
      engine.run('building.poiToScreen', { position: [position[0], position[1], position[2]] })
    const magentaAt = (point: { x: number; y: number }) =>
      isMagenta(pixelAt(canvas, point.x, point.y))
    const before = [await at(a.position), await at(b.position)]
    // an icon's fetch and a frame on a loaded machine: a state, waited for up to 20 s
    await expect.poll(() => before.every(magentaAt), { timeout: 20_000 }).toBe(true)
    // the block moves 6 m east and 5 m south, each POI previewed on its own as the console does
    const movedA = { ...a, position: [0, 3.1, 2] as [number, number, number] }
    const movedB = { ...b, position: [4, 3.1, 2] as [number, number, number] }
    await engine.run('building.upsertPois', { pois: [movedA] })
    await engine.run('building.upsertPois', { pois: [movedB] })
    const after = [await at(movedA.position), await at(movedB.position)]
    await expect
      .poll(() => after.every(magentaAt) && !before.some(magentaAt), { timeout: 20_000 })
      .toBe(true)
    // moving keeps the selection
    expect(engine.getSnapshot().building.pois.selectedIds).toEqual(['a', 'b'])
  })

  it('draws the building and its POIs where the stored placement turns and scales them; picks answer the building frame', async () => {
    const { engine, canvas } = startEngine()
    // a grey bar along the model's x axis, 16 m long from the origin
    const bar = boxSbm(
      [{ name: 'Bar', size: [16, 0.4, 2], centre: [8, 0.2, 0], color: [0.5, 0.5, 0.5] }],
      { role: 'model' },
    )
    await engine.run('building.open', {
      description: {
        projectId: 'placed-house',
        name: 'Placed house',
        shellModelId: null,
        floors: [],
        models: [
          {
            id: 'bar',
            name: 'Bar',
            role: 'model',
            floorId: null,
            url: blobUrl(bar),
            sizeBytes: bar.byteLength,
          },
        ],
      },
    })
    await engine.run('building.setCamera', { position: [0, 60, 0.01], target: [0, 0, 0] })
    await engine.run('building.setPoiLooks', {
      looks: [{ templateId: 'sensor', kind: '2D', iconUrl: await iconUrl('#ff00ff') }],
    })
    const end = poi('end-1', 'sensor', [14, 0.4, 0], { floorId: null })
    await engine.run('building.setPois', { pois: [end] })
    const drawnAt = async (position: readonly [number, number, number]) =>
      engine.run('building.poiToScreen', { position })
    const unplaced = await drawnAt(end.position)
    // the pixel of a freshly drawn frame
    const magentaAt = async (at: { x: number; y: number }) => {
      await engine.run('building.countDrawnPixels')
      return isMagenta(pixelAt(canvas, at.x, at.y))
    }
    await expect.poll(() => magentaAt(unplaced)).toBe(true)

    // Heading 90°: the model's +y axis points east, so its +x axis points south (down the
    // screen seen from above); scale 1.25 makes the bar 20 m long.
    await engine.run('building.setPlacement', { placement: { headingDegrees: 90, scale: 1.25 } })
    await expect
      .poll(() => engine.getSnapshot().building.placement)
      .toEqual({ headingDegrees: 90, scale: 1.25 })
    const placed = await drawnAt(end.position)
    const pixelsPerMetre = (unplaced.x - 160) / 14
    expect(placed.x).toBeCloseTo(160, -1)
    expect((placed.y - 120) / pixelsPerMetre).toBeCloseTo(14 * 1.25, 0)
    await expect.poll(() => magentaAt(placed)).toBe(true)
    expect(await magentaAt(unplaced)).toBe(false)
    expect(await engine.run('building.pickPoiAtScreenPoint', { x: placed.x, y: placed.y })).toEqual(
      { poiId: 'end-1' },
    )

    // The bar is drawn there too, and a pick on it answers the building's own frame.
    const onBar = await drawnAt([10, 0.4, 0.5])
    const pick = await engine.run('building.pickAtScreenPoint', onBar)
    expect(pick).toMatchObject({ meshName: 'Bar', modelId: 'bar' })
    expect(pick!.point[0]).toBeCloseTo(10, 1)
    expect(pick!.point[1]).toBeCloseTo(0.4, 3)
    expect(pick!.point[2]).toBeCloseTo(0.5, 1)
    // a surface point for a new POI is on the building too
    const surface = await engine.run('building.surfacePointAtScreenPoint', onBar)
    expect(surface!.position[0]).toBeCloseTo(10, 1)

    await engine.run('building.setPlacement', { placement: null })
    await expect.poll(() => engine.getSnapshot().building.placement).toBeNull()
    const back = await drawnAt(end.position)
    expect(Math.hypot(back.x - unplaced.x, back.y - unplaced.y)).toBeLessThan(0.5)
    await expect(
      engine.run('building.setPlacement', { placement: { headingDegrees: 0, scale: 0 } }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })
  })
})
