import { describe, expect, it } from 'vitest'
import fjkHausUrl from '../../../shared/data/indoorgml/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml?url'
import twoStoreyGmlUrl from '../../workers/indoor-route/fixtures/two-storey.gml?url'
import type { BuildingSceneDescription } from '../api/building-snapshot'
import { browserEngineFixture } from '../testing/browser-engine'
import { defaultSceneStyle } from '../testing/default-scene-style'
import { networkToScene } from './gml-placement'

/**
 * GML paths in the building scene with the real routing worker in Chromium: load with
 * progress, draw, route by State ids and by picked scene points under a placement.
 */
const { startEngine, blobUrlOf } = browserEngineFixture()

const emptyBuilding: BuildingSceneDescription = {
  projectId: 'gml',
  name: 'Network only',
  shellModelId: null,
  floors: [],
  models: [],
}

async function openEngine() {
  const engine = startEngine()
  await engine.run('building.open', { description: emptyBuilding })
  return engine
}

/** R101 → R201 in the fixture: along both corridors and up the stair (its landing bends). */
const fixtureRouteLength = 5 + 10 + 3 + 2 * Math.sqrt(13) + 3 + 10 + 5

describe('GML paths in the building scene', () => {
  it('loads a network with progress, draws it and routes between States', async () => {
    const engine = await openEngine()
    const jobKinds = new Set<string>()
    engine.on('snapshot.changed', (snapshot) => {
      for (const job of snapshot.loading.jobs) jobKinds.add(job.kind)
    })
    const loaded = await engine.run('gml.load', { url: twoStoreyGmlUrl })
    expect(loaded).toMatchObject({ stateCount: 10, transitionCount: 9, storeyLabels: ['1', '2'] })
    // No model and no placement asked for: the network is fitted around the scene's origin.
    await expect.poll(() => engine.getSnapshot().building.gml.placement).toEqual(loaded.placement)
    await expect.poll(() => engine.getSnapshot().building.gml.isLoaded).toBe(true)
    expect(jobKinds).toContain('gml.load')
    expect(engine.getSnapshot().building.gml).toMatchObject({
      isLoading: false,
      stateCount: 10,
      storeys: [
        { label: '1', stateCount: 5 },
        { label: '2', stateCount: 5 },
      ],
      displayMode: 1,
      route: null,
    })
    // The network alone is on the canvas (the scene fits it when no model is shown).
    await engine.run('building.fitToModel', {})
    const withNetwork = await engine.run('building.countDrawnPixels')
    expect(withNetwork.drawnPixelCount).toBeGreaterThan(0)

    const route = await engine.run('gml.route', {
      from: { stateId: 'R101' },
      to: { stateId: 'R201' },
    })
    if (route.stateIds === null) throw new Error('expected a route')
    expect(route.stateIds).toEqual(['R101', 'C1a', 'C1b', 'ST1', 'ST2', 'C2b', 'C2a', 'R201'])
    expect(route.lengthMeters).toBeCloseTo(fixtureRouteLength, 6)
    expect(route.floorChanges).toEqual([{ fromStorey: '1', toStorey: '2', atStateId: 'ST2' }])
    expect(route.steps[0]).toEqual({ stateId: 'R101', name: '101', storey: '1' })
    await expect.poll(() => engine.getSnapshot().building.gml.route).toEqual(route)

    // Display modes switch what is drawn; mode 0 leaves the canvas empty.
    await engine.run('gml.setDisplayMode', { mode: 0 })
    expect((await engine.run('building.countDrawnPixels')).drawnPixelCount).toBe(0)
    await engine.run('gml.setDisplayMode', { mode: 2 })
    const nodesOnly = (await engine.run('building.countDrawnPixels')).drawnPixelCount
    await engine.run('gml.setDisplayMode', { mode: 3 })
    const pathsOnly = (await engine.run('building.countDrawnPixels')).drawnPixelCount
    expect(nodesOnly).toBeGreaterThan(0)
    expect(pathsOnly).toBeGreaterThan(0)
    await expect.poll(() => engine.getSnapshot().building.gml.displayMode).toBe(3)

    expect(
      await engine.run('gml.route', { from: { stateId: 'R101' }, to: { stateId: 'X201' } }),
    ).toEqual({ stateIds: null, reason: 'unreachable' })
    await expect(
      engine.run('gml.route', { from: { stateId: 'R101' }, to: { stateId: 'nowhere' } }),
    ).rejects.toMatchObject({ code: 'gml.unknownState' })

    await engine.run('gml.clearRoute')
    await expect.poll(() => engine.getSnapshot().building.gml.route).toBeNull()
  })

  it('draws the route in the style path colour and repaints it when the colour changes', async () => {
    const engine = await openEngine()
    await engine.run('gml.load', { url: twoStoreyGmlUrl })
    await engine.run('gml.route', { from: { stateId: 'R101' }, to: { stateId: 'R201' } })
    // only the route, seen whole
    await engine.run('gml.setDisplayMode', { mode: 3 })
    await engine.run('building.fitToModel', {})
    const canvas = document.querySelector('canvas')!
    /** Pixels near an RGB colour, read right after a render. */
    const pixelsNear = async (rgb: readonly [number, number, number]) => {
      await engine.run('building.countDrawnPixels')
      const copy = document.createElement('canvas')
      copy.width = canvas.width
      copy.height = canvas.height
      const context = copy.getContext('2d')!
      context.drawImage(canvas, 0, 0)
      const { data } = context.getImageData(0, 0, copy.width, copy.height)
      let count = 0
      for (let index = 0; index < data.length; index += 4) {
        const distance =
          Math.abs(data[index]! - rgb[0]) +
          Math.abs(data[index + 1]! - rgb[1]) +
          Math.abs(data[index + 2]! - rgb[2])
        if (distance < 30) count++
      }
      return count
    }
    expect(engine.getSnapshot().building.gml.routeColor).toEqual({ r: 255, g: 59, b: 48, a: 1 })
    await expect.poll(() => pixelsNear([255, 59, 48])).toBeGreaterThan(50)

    const style = defaultSceneStyle({ pathColor: { r: 20, g: 200, b: 60, a: 1 } })
    await engine.run('building.setStyle', { style })
    await expect
      .poll(() => engine.getSnapshot().building.gml.routeColor)
      .toEqual({ r: 20, g: 200, b: 60, a: 1 })
    await engine.run('gml.setDisplayMode', { mode: 3 })
    await expect.poll(() => pixelsNear([20, 200, 60])).toBeGreaterThan(50)
    expect(await pixelsNear([255, 59, 48])).toBe(0)

    // a later route keeps the colour; a reset style brings the red back
    await engine.run('gml.route', { from: { stateId: 'R201' }, to: { stateId: 'R101' } })
    await expect.poll(() => pixelsNear([20, 200, 60])).toBeGreaterThan(50)
    await engine.run('building.resetStyle')
    await expect.poll(() => pixelsNear([255, 59, 48])).toBeGreaterThan(50)
  })

  it('snaps picked scene points through the placement, and scales lengths with it', async () => {
    const engine = await openEngine()
    await engine.run('gml.load', { url: twoStoreyGmlUrl })
    const placement = { offset: [100, 0, 50] as const, rotationDeg: 90, scale: 2 }
    await engine.run('gml.setPlacement', placement)
    // R201 sits at file (0, 5, 4): with this placement, scene (90, 8, 50).
    const nearR201 = networkToScene([0.2, 4.8, 4], placement)
    expect(networkToScene([0, 5, 4], placement).map((value) => Math.round(value))).toEqual([
      90, 8, 50,
    ])
    const route = await engine.run('gml.route', {
      from: { point: nearR201 },
      to: { point: networkToScene([0.1, 5.2, 0.3], placement) },
    })
    if (route.stateIds === null) throw new Error('expected a route')
    expect(route.stateIds[0]).toBe('R201')
    expect(route.stateIds.at(-1)).toBe('R101')
    expect(route.lengthMeters).toBeCloseTo(fixtureRouteLength * 2, 6)

    await expect(
      engine.run('gml.setPlacement', { offset: [0, 0, 0], rotationDeg: 0, scale: 0 }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })
    await expect
      .poll(() => engine.getSnapshot().building.gml.placement)
      .toEqual({
        offset: [100, 0, 50],
        rotationDeg: 90,
        scale: 2,
      })
  })

  it('routes the FJK-Haus network across floors', async () => {
    const engine = await openEngine()
    const loaded = await engine.run('gml.load', { url: fjkHausUrl })
    expect(loaded.stateCount).toBe(14)
    // Unplaced, the file's projected coordinates (≈ 445536, 5444906) are fitted onto the scene:
    // its middle over the origin, its lowest State on the ground, and the camera frames it.
    expect(Math.abs(loaded.placement.offset[0] + 445536)).toBeLessThan(50)
    expect(Math.abs(loaded.placement.offset[2] - 5444906)).toBeLessThan(50)
    const statesNow = await engine.run('gml.listStates')
    const heights = statesNow.map((state) => state.position![1])
    expect(Math.min(...heights)).toBeCloseTo(0, 6)
    expect(Math.max(...statesNow.map((state) => Math.abs(state.position![0])))).toBeLessThan(50)
    expect((await engine.run('building.countDrawnPixels')).drawnPixelCount).toBeGreaterThan(0)
    const route = await engine.run('gml.route', {
      from: { stateId: 'R10' },
      to: { stateId: 'R21' },
    })
    if (route.stateIds === null) throw new Error('expected a route')
    expect(route.stateIds).toEqual(['R10', 'R3', 'R12', 'R23', 'R21'])
    expect(route.lengthMeters).toBeCloseTo(13.367, 3)
    expect(route.floorChanges.length).toBeGreaterThan(0)
    // Projected coordinates far from the origin still draw (geometry is stored centred).
    await engine.run('building.fitToModel', {})
    expect((await engine.run('building.countDrawnPixels')).drawnPixelCount).toBeGreaterThan(0)
  })

  it('lists the FJK-Haus States and snaps scene points to them, under any placement', async () => {
    const engine = await openEngine()
    await expect(engine.run('gml.listStates')).rejects.toMatchObject({ code: 'gml.notLoaded' })
    await expect(engine.run('gml.snapPoint', { point: [0, 0, 0] })).rejects.toMatchObject({
      code: 'gml.notLoaded',
    })
    const revisionBefore = engine.getSnapshot().building.gml.networkRevision
    const identity = { offset: [0, 0, 0] as const, rotationDeg: 0, scale: 1 }
    await engine.run('gml.load', { url: fjkHausUrl, placement: identity })
    // The UI reads the list again when this changes.
    await expect
      .poll(() => engine.getSnapshot().building.gml.networkRevision)
      .not.toBe(revisionBefore)
    const revisionLoaded = engine.getSnapshot().building.gml.networkRevision

    const states = await engine.run('gml.listStates')
    expect(states).toHaveLength(14)
    expect(new Set(states.map((state) => state.storey))).toEqual(new Set(['1', '2', '3']))
    const r10 = states.find((state) => state.stateId === 'R10')!
    expect(r10).toMatchObject({ name: '004', storey: '1' })
    // File (445541.3208, 5444901.0727, -2.02), z-up, lands in the y-up scene as (x, z, −y).
    expect(r10.position![0]).toBeCloseTo(445541.3208, 3)
    expect(r10.position![1]).toBeCloseTo(-2.02, 6)
    expect(r10.position![2]).toBeCloseTo(-5444901.0727, 3)
    expect(JSON.parse(JSON.stringify(states))).toEqual(states)

    const placement = { offset: [-445530, 2, 5444900] as const, rotationDeg: 30, scale: 2 }
    await engine.run('gml.setPlacement', placement)
    const placed = await engine.run('gml.listStates')
    const placedR21 = placed.find((state) => state.stateId === 'R21')!
    const expectedR21 = networkToScene([445537.477957622, 5444906.82051002, 3.44], placement)
    placedR21.position!.forEach((value, axis) => {
      expect(value).toBeCloseTo(expectedR21[axis]!, 4)
    })

    // A point 0.5 m beside R21 in the scene snaps to it, the distance in scene metres.
    const [x, y, z] = placedR21.position!
    const nearR21 = [x + 0.3, y, z + 0.4] as const
    const snapped = await engine.run('gml.snapPoint', { point: nearR21 })
    expect(snapped).toMatchObject({ stateId: 'R21', name: '202', storey: '3' })
    expect(snapped!.distanceMeters).toBeCloseTo(0.5, 6)
    // Limited to the ground storey, the same point lands on the ground State nearest in plan.
    expect(await engine.run('gml.snapPoint', { point: nearR21, storey: '1' })).toMatchObject({
      stateId: 'R1',
      name: '002',
      storey: '1',
    })
    await expect(
      engine.run('gml.snapPoint', { point: nearR21, storey: 'roof' }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })
    await expect(engine.run('gml.snapPoint', { point: [Number.NaN, 0, 0] })).rejects.toMatchObject({
      code: 'engine.invalidArgument',
    })

    // The snapped State is where a route from that point starts.
    const route = await engine.run('gml.route', {
      from: { point: nearR21 },
      to: { stateId: 'R10' },
    })
    if (route.stateIds === null) throw new Error('expected a route')
    expect(route.stateIds[0]).toBe('R21')

    await engine.run('gml.unload')
    await expect(engine.run('gml.listStates')).rejects.toMatchObject({ code: 'gml.notLoaded' })
    await expect
      .poll(() => engine.getSnapshot().building.gml.networkRevision)
      .not.toBe(revisionLoaded)
  })

  it('fails a bad file with the GML message and keeps the loaded network', async () => {
    const engine = await openEngine()
    await engine.run('gml.load', { url: twoStoreyGmlUrl })
    const notXml = blobUrlOf('{"not":"xml"}')
    await expect(engine.run('gml.load', { url: notXml })).rejects.toMatchObject({
      code: 'gml.loadFailed',
      message: 'Failed to load GML file.',
    })
    await expect(
      engine.run('gml.load', { url: 'http://127.0.0.1:9/missing.gml' }),
    ).rejects.toMatchObject({ code: 'gml.loadFailed', message: 'Failed to load GML file.' })
    await expect
      .poll(() => engine.getSnapshot().building.gml)
      .toMatchObject({
        isLoaded: true,
        isLoading: false,
        stateCount: 10,
      })
    const route = await engine.run('gml.route', {
      from: { stateId: 'R101' },
      to: { stateId: 'R102' },
    })
    expect(route.stateIds).not.toBeNull()

    await engine.run('gml.unload')
    await expect.poll(() => engine.getSnapshot().building.gml.isLoaded).toBe(false)
    await expect(
      engine.run('gml.route', { from: { stateId: 'R101' }, to: { stateId: 'R102' } }),
    ).rejects.toMatchObject({ code: 'gml.notLoaded' })
  })
})
