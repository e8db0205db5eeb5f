import { afterEach, describe, expect, it } from 'vitest'
import twoStoreyGmlUrl from '../../workers/indoor-route/fixtures/two-storey.gml?url'
import duckUrl from '../../workers/sbm/fixtures/duck.sbm?url'
import type { BuildingSceneDescription } from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import { Engine } from '../core/engine'
import type { WorkerEndpoint } from '../workers/create-worker-client'
import {
  createBvhWorker,
  createIndoorRouteWorker,
  createSbmDecodeWorker,
} from '../workers/building-workers'
import { boxSbm } from './testing/box-sbm'

/**
 * The building scene as the app runs it: real Chromium, WebGL2 on SwiftShader, the real decode,
 * picking and routing module workers. Models are real SBM files built by the test, so every
 * surface is known exactly.
 */
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

const NOT_SBM = 'Failed to load a model, not a valid SBM file!'

function blobUrl(bytes: Uint8Array<ArrayBuffer> | string): string {
  const url = URL.createObjectURL(new Blob([bytes]))
  cleanups.push(() => URL.revokeObjectURL(url))
  return url
}

/** Live workers per kind, counted through the factories the engine starts them with. */
function countingWorkers() {
  const alive = { decode: 0, bvh: 0, route: 0 }
  const counted =
    (kind: keyof typeof alive, create: () => WorkerEndpoint) => (): WorkerEndpoint => {
      const worker = create()
      alive[kind]++
      const terminate = worker.terminate.bind(worker)
      let isTerminated = false
      worker.terminate = () => {
        if (!isTerminated) alive[kind]--
        isTerminated = true
        terminate()
      }
      return worker
    }
  return {
    alive,
    options: {
      createSbmDecodeWorker: counted('decode', createSbmDecodeWorker),
      createBvhWorker: counted('bvh', createBvhWorker),
      createIndoorRouteWorker: counted('route', createIndoorRouteWorker),
    },
  }
}

function startEngine(workers = countingWorkers()) {
  const canvas = document.createElement('canvas')
  canvas.style.width = '320px'
  canvas.style.height = '240px'
  canvas.style.display = 'block'
  document.body.append(canvas)
  const engine = new Engine({ canvas, building: workers.options })
  cleanups.push(() => {
    engine.dispose()
    canvas.remove()
  })
  return { engine, canvas, workers }
}

/** A two-floor building with a shell around it, plus a file that is not an SBM. */
function houseDescription(projectId = 'house'): BuildingSceneDescription {
  const floors = [
    { id: 'F1', name: '1F', elevationMeters: 0 },
    { id: 'F2', name: '2F', elevationMeters: 3 },
  ]
  const floor1 = boxSbm([{ name: 'F1 slab', size: [10, 0.2, 10], centre: [0, 0, 0] }], {
    role: 'floor',
    floors: [floors[0]!],
  })
  const floor2 = boxSbm(
    // modelled at its own origin: the floor's 3 m elevation lifts it
    [{ name: 'F2 slab', size: [10, 0.2, 10], centre: [0, 0, 0], color: [0.2, 0.5, 0.9] }],
    { role: 'floor', floors: [floors[1]!] },
  )
  const shell = boxSbm(
    [{ name: 'Shell', size: [12, 7, 12], centre: [0, 3, 0], color: [0.9, 0.4, 0.2] }],
    { role: 'shell' },
  )
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])
  return {
    projectId,
    name: 'House',
    shellModelId: 'shell',
    floors: [
      { ...floors[1]!, modelIds: ['f2'] },
      { ...floors[0]!, modelIds: ['f1', 'broken'] },
    ],
    models: [
      {
        id: 'shell',
        name: 'Shell',
        role: 'shell',
        floorId: null,
        url: blobUrl(shell),
        sizeBytes: shell.byteLength,
      },
      {
        id: 'f1',
        name: 'F1',
        role: 'floor',
        floorId: 'F1',
        url: blobUrl(floor1),
        sizeBytes: floor1.byteLength,
      },
      {
        id: 'f2',
        name: 'F2',
        role: 'floor',
        floorId: null,
        url: blobUrl(floor2),
        sizeBytes: floor2.byteLength,
      },
      {
        id: 'broken',
        name: 'Broken',
        role: 'floor',
        floorId: 'F1',
        url: blobUrl(png),
        sizeBytes: png.byteLength,
      },
    ],
  }
}

const centre = { x: 160, y: 120 }
const fromAbove = { position: [1, 40, 1.5] as const, target: [1, 0, 1] as const }

describe('building scene in Chromium', () => {
  it('loads every good model, reports the bad one, draws, and picks through floors and shell', async () => {
    const { engine } = startEngine()
    const modelJobBytes = new Map<string, { doneBytes: number; totalBytes: number }>()
    engine.on('snapshot.changed', (snapshot) => {
      for (const job of snapshot.loading.jobs) {
        if (job.kind !== 'model.load') continue
        const doneBytes = Math.max(modelJobBytes.get(job.jobId)?.doneBytes ?? 0, job.doneBytes)
        modelJobBytes.set(job.jobId, { doneBytes, totalBytes: job.totalBytes })
      }
    })
    const description = houseDescription()
    const result = await engine.run('building.open', { description })
    await expect
      .poll(() => engine.getSnapshot().building.models.map((model) => model.loadState))
      .toEqual(['success', 'success', 'success', 'error'])
    const building = engine.getSnapshot().building
    expect(result.failedModelIds, JSON.stringify(building.models)).toEqual(['broken'])
    expect(result.loadedModelIds.sort()).toEqual(['f1', 'f2', 'shell'])
    expect(building.isOpen).toBe(true)
    expect(building.floors.map((floor) => floor.id)).toEqual(['F1', 'F2'])
    const byId = Object.fromEntries(building.models.map((model) => [model.id, model]))
    expect(byId.broken).toMatchObject({
      loadState: 'error',
      errorMessage: NOT_SBM,
      errorCode: 'sbm.invalid',
    })
    expect(byId.f1).toMatchObject({ loadState: 'success', triangleCount: 12, hasStoredBvh: true })
    // The floor came from the floor's model list when the model itself named none.
    expect(byId.f2).toMatchObject({ loadState: 'success', floorId: 'F2' })
    expect(engine.getSnapshot().loading.jobs).toEqual([])
    // Each model had its own download job, its size known from the start, and its progress
    // (the bytes the page received and posted on to the decode worker) reached the whole file.
    expect([...modelJobBytes.values()].sort((a, b) => a.totalBytes - b.totalBytes)).toEqual(
      description.models
        .map((model) => ({ doneBytes: model.sizeBytes, totalBytes: model.sizeBytes }))
        .sort((a, b) => a.totalBytes - b.totalBytes),
    )

    const drawn = await engine.run('building.countDrawnPixels')
    expect(drawn.drawnPixelCount).toBeGreaterThan(drawn.totalPixelCount / 20)
    // a capture (visit mode) is the drawn frame as a PNG, scaled down to the width asked for
    const capture = await engine.run('building.capturePng', { maxWidth: 64 })
    const bitmap = await createImageBitmap(capture.png)
    expect([capture.png.type, bitmap.width, bitmap.height]).toEqual([
      'image/png',
      capture.width,
      capture.height,
    ])
    expect(capture.width).toBeLessThanOrEqual(64)
    const copy = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!
    copy.drawImage(bitmap, 0, 0)
    const { data } = copy.getImageData(0, 0, bitmap.width, bitmap.height)
    const colours = new Set<number>()
    for (let offset = 0; offset < data.length; offset += 4) {
      colours.add((data[offset]! << 16) | (data[offset + 1]! << 8) | data[offset + 2]!)
    }
    expect(colours.size).toBeGreaterThan(2)

    await engine.run('building.setCamera', fromAbove)
    // The orange shell hides the blue top floor until it turns translucent.
    const opaqueCentre = (await engine.run('building.countDrawnPixels')).centreRgb
    await engine.run('building.setShellOpacity', { opacity: 0.3 })
    const translucentCentre = (await engine.run('building.countDrawnPixels')).centreRgb
    await engine.run('building.setShellOpacity', { opacity: 1 })
    expect(opaqueCentre[0]).toBeGreaterThan(opaqueCentre[2])
    expect(translucentCentre[2]).toBeGreaterThan(translucentCentre[0])

    const onShell = await engine.run('building.pickAtScreenPoint', centre)
    expect(onShell).toMatchObject({ meshName: 'Shell', modelId: 'shell', floorId: null })
    expect(onShell!.point[1]).toBeCloseTo(6.5, 3)
    expect(onShell!.normal[1]).toBeCloseTo(1, 5)
    await expect.poll(() => engine.getSnapshot().building.lastPick).toEqual(onShell)

    // A translucent shell lets the pick through to the top floor.
    await engine.run('building.setShellOpacity', { opacity: 0.3 })
    const onFloor2 = await engine.run('building.pickAtScreenPoint', centre)
    expect(onFloor2).toMatchObject({ meshName: 'F2 slab', modelId: 'f2', floorId: 'F2' })
    expect(onFloor2!.point[1]).toBeCloseTo(3.1, 3)
    expect(onFloor2!.point[0]).toBeCloseTo(1, 1)

    // Selecting the ground floor isolates it: the floor above and the shell hide.
    await engine.run('building.selectFloor', { floorId: 'F1' })
    await expect
      .poll(() => engine.getSnapshot().building.floors.map((floor) => [floor.id, floor.isShown]))
      .toEqual([
        ['F1', true],
        ['F2', false],
      ])
    expect(engine.getSnapshot().building.shell.isShown).toBe(false)
    expect((await engine.run('building.pickAtScreenPoint', centre))?.meshName).toBe('F1 slab')

    // Back to all floors, with the top floor switched off by hand.
    await engine.run('building.selectFloor', { floorId: null })
    await engine.run('building.setFloorVisible', { floorId: 'F2', isVisible: false })
    await engine.run('building.setShellVisible', { isVisible: false })
    expect(await engine.run('building.pickAtScreenPoint', centre)).toMatchObject({
      meshName: 'F1 slab',
    })
    await engine.run('building.setModelVisible', { modelId: 'f1', isVisible: false })
    // With every model hidden, the marker of the last pick is all that is drawn.
    const markerOnly = await engine.run('building.countDrawnPixels')
    expect(markerOnly.drawnPixelCount).toBeGreaterThan(0)
    expect(markerOnly.drawnPixelCount).toBeLessThan(markerOnly.totalPixelCount / 50)
    expect(await engine.run('building.pickAtScreenPoint', { x: 5, y: 5 })).toBeNull()
    expect(await engine.run('building.pickAtScreenPoint', centre)).toBeNull()
    await expect.poll(() => engine.getSnapshot().building.lastPick).toBeNull()

    // Nothing shown: the canvas is the background only.
    expect((await engine.run('building.countDrawnPixels')).drawnPixelCount).toBe(0)
  })

  it('answers only the newest of a burst of hover picks', async () => {
    const { engine } = startEngine()
    await engine.run('building.open', { description: houseDescription() })
    await engine.run('building.setCamera', fromAbove)
    const answers = await Promise.all([
      engine.run('building.hoverAtScreenPoint', centre),
      engine.run('building.hoverAtScreenPoint', centre),
      engine.run('building.hoverAtScreenPoint', centre),
    ])
    expect(answers.slice(0, 2)).toEqual([{ isStale: true }, { isStale: true }])
    expect(answers[2]).toMatchObject({ isStale: false, pick: { meshName: 'Shell' } })
    // Hovering does not move the recorded pick.
    expect(engine.getSnapshot().building.lastPick).toBeNull()
  })

  it('opens without a canvas and draws once the UI attaches one', async () => {
    const workers = countingWorkers()
    const engine = new Engine({ building: workers.options })
    cleanups.push(() => engine.dispose())
    await engine.run('building.open', { description: houseDescription() })
    expect(engine.getSnapshot().building.render).toBeNull()
    await expect(engine.run('building.pickAtScreenPoint', centre)).rejects.toMatchObject({
      code: 'view.noCanvas',
    })
    const canvas = document.createElement('canvas')
    canvas.style.width = '320px'
    canvas.style.height = '240px'
    document.body.append(canvas)
    cleanups.push(() => canvas.remove())
    await engine.run('view.attachCanvas', { canvas })
    await expect
      .poll(() => engine.getSnapshot().building.render?.renderCount ?? 0)
      .toBeGreaterThan(0)
    expect((await engine.run('building.countDrawnPixels')).drawnPixelCount).toBeGreaterThan(0)
    await engine.run('building.setCamera', fromAbove)
    expect(await engine.run('building.pickAtScreenPoint', centre)).toMatchObject({
      meshName: 'Shell',
    })

    // Replacing the scene while it loads is no failure: the first open just reports less.
    const first = engine.run('building.open', { description: houseDescription('a') })
    const second = engine.run('building.open', { description: houseDescription('b') })
    await Promise.all([first, second])
    expect((await second).loadedModelIds).toHaveLength(3)
    await expect.poll(() => engine.getSnapshot().building.projectId).toBe('b')
    expect(engine.getSnapshot().lastError?.command).toBe('building.pickAtScreenPoint')
    expect(workers.alive.bvh).toBe(1)
  })

  it('publishes a moving camera with the very same floors, models and other parts until one changes', async () => {
    const { engine } = startEngine()
    await engine.run('building.open', { description: houseDescription() })
    /** The building part of a snapshot drawn after the camera moved towards `position`. */
    const renderedAt = async (position: [number, number, number]) => {
      const last = engine.getSnapshot().building
      await engine.run('building.setCamera', { position, target: [1, 0, 1] })
      await expect
        .poll(() => {
          const building = engine.getSnapshot().building
          return (
            (building.render?.renderCount ?? 0) > (last.render?.renderCount ?? 0) &&
            building.camera.position.join() !== last.camera.position.join()
          )
        })
        .toBe(true)
      return engine.getSnapshot().building
    }
    const before = await renderedAt([1, 40, 1.5])
    // a flight, a tour, a drag: each frame publishes the camera, and nothing else is made again
    const after = await renderedAt([20, 30, 20])
    expect(after.render!.renderCount).toBeGreaterThan(before.render!.renderCount)
    const kept = [
      'floors',
      'shell',
      'models',
      'gml',
      'pois',
      'poiStatuses',
      'materials',
      'libraryModels',
      'style',
      'walk',
      'track',
    ] as const
    for (const part of kept) expect(after[part], part).toBe(before[part])
    // a change in the scene is published with its part made again
    await engine.run('building.setFloorVisible', { floorId: 'F2', isVisible: false })
    await expect
      .poll(() => engine.getSnapshot().building.floors.find((floor) => floor.id === 'F2'))
      .toMatchObject({ isVisible: false, isShown: false })
    expect(engine.getSnapshot().building.models).not.toBe(before.models)
  })

  it('keeps the camera inside the zoom limits, fits the model and zooms by the wheel scale', async () => {
    const { engine, canvas } = startEngine()
    await engine.run('building.open', { description: houseDescription() })
    await engine.run('building.setZoomLimits', { minDistanceFactor: 0.5, maxDistanceFactor: 1 })
    await engine.run('building.setCamera', { position: [0, 0.2, 0], target: [0, 0, 0] })
    await expect.poll(() => engine.getSnapshot().building.camera.distance).toBeCloseTo(0.5, 6)
    await engine.run('building.setWheelScale', { wheelScale: 2.5 })
    await engine.run('building.fitToModel', { modelId: 'shell' })
    await expect.poll(() => engine.getSnapshot().building.camera.wheelScale).toBe(2.5)
    const camera = engine.getSnapshot().building.camera
    expect(camera).toMatchObject({ minDistance: 0.5, maxDistance: 1e7, wheelScale: 2.5 })
    expect(camera.target[1]).toBeCloseTo(3, 3)
    expect(camera.distance).toBeGreaterThan(12)
    await expect(
      engine.run('building.setZoomLimits', { minDistanceFactor: 0, maxDistanceFactor: 1 }),
    ).rejects.toThrow(EngineError)

    // One wheel notch zooms by 0.95^(speed × 1); the wheel scale option multiplies the speed.
    const distanceAfterWheel = async () => {
      await engine.run('building.setCamera', { position: [0, 3, 20], target: [0, 3, 0] })
      await expect.poll(() => engine.getSnapshot().building.camera.distance).toBeCloseTo(20, 6)
      canvas.dispatchEvent(
        new WheelEvent('wheel', { deltaY: -100, bubbles: true, cancelable: true }),
      )
      await expect.poll(() => engine.getSnapshot().building.camera.distance).not.toBeCloseTo(20, 6)
      return engine.getSnapshot().building.camera.distance
    }
    await engine.run('building.setWheelScale', { wheelScale: 1 })
    const slowRatio = (await distanceAfterWheel()) / 20
    await engine.run('building.setWheelScale', { wheelScale: 2.5 })
    const fastRatio = (await distanceAfterWheel()) / 20
    expect(slowRatio).toBeCloseTo(0.95 ** 0.5, 6)
    expect(fastRatio).toBeCloseTo(0.95 ** 1.25, 6)
  })

  it('names a picked mesh by its glTF mesh when its node has no name', async () => {
    const { engine } = startEngine()
    const duck = await (await fetch(duckUrl)).arrayBuffer()
    await engine.run('building.open', {
      description: {
        projectId: 'duck',
        name: 'Duck',
        shellModelId: null,
        floors: [],
        models: [
          {
            id: 'duck',
            name: 'Duck',
            role: 'model',
            floorId: null,
            url: duckUrl,
            sizeBytes: duck.byteLength,
          },
        ],
      },
    })
    // The Duck's only mesh node is unnamed; its mesh is 'LOD3spShape'.
    await engine.run('building.fitToModel', { modelId: 'duck' })
    const pick = await engine.run('building.pickAtScreenPoint', centre)
    expect(pick).toMatchObject({ modelId: 'duck', meshName: 'LOD3spShape', floorId: null })
  })

  it('frees every GPU resource and worker when another project opens and when it closes', async () => {
    const { engine, workers } = startEngine()
    const renderCounts = () => {
      const render = engine.getSnapshot().building.render
      return render && [render.geometryCount, render.textureCount, render.programCount]
    }
    // three keeps one texture of its own once a PBR material has drawn (its shared DFG lookup
    // table); the untextured house measures it.
    await engine.run('building.open', { description: houseDescription('first') })
    await expect.poll(() => engine.getSnapshot().building.render?.geometryCount).toBeGreaterThan(2)
    const sharedTextureCount = engine.getSnapshot().building.render!.textureCount
    expect(sharedTextureCount).toBeLessThanOrEqual(1)

    const duck = await (await fetch(duckUrl)).arrayBuffer()
    const textured: BuildingSceneDescription = {
      projectId: 'duck',
      name: 'Duck',
      shellModelId: null,
      floors: [],
      models: [
        {
          id: 'duck',
          name: 'Duck',
          role: 'model',
          floorId: null,
          url: duckUrl,
          sizeBytes: duck.byteLength,
        },
      ],
    }
    await engine.run('building.open', { description: textured })
    await expect
      .poll(() => engine.getSnapshot().building.render?.textureCount)
      .toBe(sharedTextureCount + 1)
    await expect.poll(() => engine.getSnapshot().building.render?.geometryCount).toBe(1)
    expect(workers.alive.bvh).toBe(1)

    await engine.run('building.open', { description: houseDescription('second') })
    await engine.run('gml.load', { url: twoStoreyGmlUrl })
    expect(workers.alive.route).toBe(1)
    // The duck's texture and mesh are gone; only the new scene's resources remain.
    await expect
      .poll(() => engine.getSnapshot().building.render?.textureCount)
      .toBe(sharedTextureCount)
    expect(workers.alive.bvh).toBe(1)

    await engine.run('building.close')
    await expect.poll(renderCounts).toEqual([0, sharedTextureCount, 0])
    expect(workers.alive).toMatchObject({ bvh: 0, route: 0 })
    expect(engine.getSnapshot().building).toMatchObject({ isOpen: false, models: [] })
    await expect(engine.run('building.pickAtScreenPoint', centre)).rejects.toMatchObject({
      code: 'building.notOpen',
    })
    engine.dispose()
    expect(workers.alive).toEqual({ decode: 0, bvh: 0, route: 0 })
  })
})
