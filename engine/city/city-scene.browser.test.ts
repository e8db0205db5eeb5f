import { describe, expect, it } from 'vitest'
import { EngineError } from '../api/errors'
import type { Engine } from '../core/engine'
import { cityTestPage } from './testing/city-test-page'
import { countPixelsNear, mapPixels } from './testing/map-pixels'

/**
 * The city engine as the app runs it in Chromium: MapLibre with an inline offline style, deck.gl
 * interleaved into its WebGL2 context (SwiftShader), loaders.gl streaming a real b3dm tileset
 * served by the test server from engine/city/fixtures.
 */

const tilesetUrl = new URL('./fixtures/batched/tileset.json', import.meta.url).href
/** The centre of the 10 fixture buildings (their batch table holds radians). */
const buildingsCenter = { lng: -75.61208, lat: 40.04253 }
const landColor = [245, 242, 235] as const

/** The offline style's look, inline so the test needs no map server. */
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
}

const { cleanups, createContainer, createEngine, city } = cityTestPage()

async function openBatchedCity(
  engine: Engine,
  container: HTMLElement,
  { isVisible = true } = {},
): Promise<void> {
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'project-1',
    center: buildingsCenter,
    zoom: 17.2,
    basemap: { kind: 'offline', style: offlineStyle },
    tilesets: [{ id: 'batched', name: 'Batched buildings', url: tilesetUrl, isVisible }],
    keepDrawingBuffer: true,
  })
}

/** Pixels of the map canvas that are not the plain land colour: what the tiles drew. */
function countDrawnPixels(container: HTMLElement): number {
  const pixels = mapPixels(container)
  if (!pixels) return 0
  return pixels.width * pixels.height - countPixelsNear(container, landColor, 25)
}

/** Pixels close to the selection highlight's amber. */
function countHighlightPixels(container: HTMLElement): number {
  const canvas = container.querySelector('canvas')!
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const context = copy.getContext('2d')!
  context.drawImage(canvas, 0, 0)
  const { data } = context.getImageData(0, 0, copy.width, copy.height)
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const red = data[index]!
    const green = data[index + 1]!
    const blue = data[index + 2]!
    if (red > 200 && green > 130 && green < 220 && blue < 90) count++
  }
  return count
}

describe('city engine in Chromium', () => {
  it('refuses to open before a container is attached', async () => {
    const engine = createEngine()
    const error = await engine
      .run('city.open', {
        projectId: 'p',
        center: buildingsCenter,
        basemap: { kind: 'offline', style: offlineStyle },
        tilesets: [],
      })
      .catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(EngineError)
    expect((error as EngineError).code).toBe('city.noContainer')
  })

  it('streams a b3dm tileset over the basemap and reports broken tiles beside the good one', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openBatchedCity(engine, container)

    await expect.poll(() => city(engine).basemap?.isLoaded, { timeout: 20_000 }).toBe(true)
    await expect.poll(() => city(engine).tilesLoaded, { timeout: 30_000 }).toBeGreaterThan(0)
    // The 404 child and the corrupt child fail on their own; the buildings stay loaded.
    await expect.poll(() => city(engine).tilesets[0]?.errorCount, { timeout: 30_000 }).toBe(2)
    const tileset = city(engine).tilesets[0]!
    expect(tileset.loadState).toBe('ready')
    expect(tileset.tilesLoaded).toBe(1)
    expect(tileset.gpuMemoryBytes).toBeGreaterThan(0)
    expect(tileset.errors.map((error) => error.tileUrl.split('/').at(-1)).sort()).toEqual([
      'corrupt.b3dm',
      'missing.b3dm',
    ])
    expect(city(engine).isOpen).toBe(true)
    expect(city(engine).projectId).toBe('project-1')
    expect(tileset.center?.lng).toBeCloseTo(buildingsCenter.lng, 3)

    // Not a green run on an empty canvas: the buildings cover part of the view.
    await expect.poll(() => countDrawnPixels(container), { timeout: 20_000 }).toBeGreaterThan(500)
    await engine.run('city.setTilesetVisible', { id: 'batched', isVisible: false })
    await expect.poll(() => countDrawnPixels(container), { timeout: 20_000 }).toBeLessThan(50)
    expect(city(engine).tilesets[0]?.isVisible).toBe(false)
  })

  it('draws the root straight from tileset.json first, then hands it over to the stream', async () => {
    // The page's own read of tileset.json waits until the preview is drawn (the worker's read is
    // not held), so the order does not depend on the machine's speed; a preview that never
    // comes lets it go after 15 s, and the assertions below fail.
    const nativeFetch = window.fetch
    let releaseTileset = () => {}
    const tilesetHeld = new Promise<void>((resolve) => {
      releaseTileset = resolve
      setTimeout(resolve, 15_000)
    })
    window.fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (url === tilesetUrl) await tilesetHeld
      return nativeFetch(input, init)
    }
    cleanups.push(() => {
      window.fetch = nativeFetch
    })
    const engine = createEngine()
    const container = createContainer()
    const seen: { isRootPreviewDrawn: boolean; tilesDrawn: number }[] = []
    engine.on('snapshot.changed', (snapshot) => {
      const tileset = snapshot.city.tilesets[0]
      if (!tileset) return
      seen.push({ isRootPreviewDrawn: tileset.isRootPreviewDrawn, tilesDrawn: tileset.tilesDrawn })
      if (tileset.isRootPreviewDrawn) releaseTileset()
    })
    await openBatchedCity(engine, container)
    await expect.poll(() => city(engine).tilesets[0]?.errorCount, { timeout: 30_000 }).toBe(2)
    await expect.poll(() => city(engine).tilesets[0]?.tilesDrawn, { timeout: 30_000 }).toBe(1)
    await expect.poll(() => countDrawnPixels(container), { timeout: 20_000 }).toBeGreaterThan(500)

    // The preview was on screen, counted as the root drawn, before the stream drew anything.
    const firstDrawn = seen.find((state) => state.tilesDrawn > 0)
    expect(firstDrawn).toEqual({ isRootPreviewDrawn: true, tilesDrawn: 1 })
    // Then the stream's own root replaced it (drawn once, not twice). The polls above may pass
    // on the preview alone (it counts as the one tile drawn), so the handover is waited for.
    await expect
      .poll(() => city(engine).tilesets[0]?.isRootPreviewDrawn, { timeout: 30_000 })
      .toBe(false)
    expect(city(engine).tilesets[0]).toMatchObject({ isRootPreviewDrawn: false, tilesDrawn: 1 })
    expect(city(engine).tileParsing.contentsParsedInWorkers).toBe(1)
  })

  it('shows no preview of a hidden tileset', async () => {
    const engine = createEngine()
    const container = createContainer()
    let isPreviewSeen = false
    engine.on('snapshot.changed', (snapshot) => {
      if (snapshot.city.tilesets[0]?.isRootPreviewDrawn) isPreviewSeen = true
    })
    await openBatchedCity(engine, container, { isVisible: false })
    await expect.poll(() => city(engine).tilesets[0]?.errorCount, { timeout: 30_000 }).toBe(2)
    await expect.poll(() => city(engine).basemap?.isLoaded, { timeout: 20_000 }).toBe(true)
    expect(isPreviewSeen).toBe(false)
    expect(countDrawnPixels(container)).toBeLessThan(50)
  })

  it('parses tile contents in the worker pool, only the tileset.json on the main thread', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openBatchedCity(engine, container)
    await expect.poll(() => city(engine).tilesets[0]?.errorCount, { timeout: 30_000 }).toBe(2)
    await expect.poll(() => city(engine).tilesLoaded, { timeout: 30_000 }).toBe(1)
    // The good b3dm came back parsed from a worker; the corrupt one (and the missing one, whose
    // 404 page the dev server answers) failed there. The only main-thread parse is the tileset.json.
    expect(city(engine).tileParsing).toEqual({
      contentsParsedInWorkers: 1,
      contentsParsedOnMainThread: 0,
      tilesetsParsedOnMainThread: 1,
    })
    // What came back is what deck draws: the buildings cover part of the view.
    await expect.poll(() => countDrawnPixels(container), { timeout: 20_000 }).toBeGreaterThan(500)
  })

  it('picks the batched building under a screen point and highlights the selection', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openBatchedCity(engine, container)
    await expect.poll(() => city(engine).tilesLoaded, { timeout: 30_000 }).toBeGreaterThan(0)
    await expect.poll(() => countDrawnPixels(container), { timeout: 20_000 }).toBeGreaterThan(500)

    // Building 3 of the fixture, where its batch table says it stands.
    const longitudeRadians = -1.3196656317210846
    const latitudeRadians = 0.6988863062
    const point = await engine.run('city.projectToScreen', {
      lng: (longitudeRadians * 180) / Math.PI,
      lat: (latitudeRadians * 180) / Math.PI,
    })
    const pick = await engine.run('city.pickAtScreenPoint', point)
    expect(pick).not.toBeNull()
    expect(pick!.tilesetId).toBe('batched')
    expect(pick!.featureId).toBe(3)
    expect(pick!.properties.id).toBe(3)
    expect(pick!.properties.info).toEqual({ name: 'building3', year: 3 })

    // The basemap is not a feature.
    expect(await engine.run('city.pickAtScreenPoint', { x: 5, y: 5 })).toBeNull()

    expect(countHighlightPixels(container)).toBe(0)
    await engine.run('city.selectFeature', {
      tilesetId: pick!.tilesetId,
      tileId: pick!.tileId,
      featureId: pick!.featureId,
    })
    await expect
      .poll(() => city(engine).selectedFeature)
      .toMatchObject({ tilesetId: 'batched', featureId: 3, properties: { id: 3 } })
    await expect
      .poll(() => countHighlightPixels(container), { timeout: 20_000 })
      .toBeGreaterThan(20)

    // A feature selected without a pick (from a list) is still a place to fly to: the camera
    // ends over it, so the centre of the view picks that same building.
    await engine.run('city.selectFeature', { tilesetId: 'batched', featureId: 7 })
    await engine.run('city.flyTo', { tilesetId: 'batched', featureId: 7, durationMs: 0 })
    const { clientWidth, clientHeight } = container
    await expect
      .poll(
        async () =>
          (await engine.run('city.pickAtScreenPoint', { x: clientWidth / 2, y: clientHeight / 2 }))
            ?.featureId,
        { timeout: 20_000 },
      )
      .toBe(7)

    await engine.run('city.selectFeature', { tilesetId: 'batched', featureId: null })
    await expect.poll(() => city(engine).selectedFeature).toBeNull()
    await expect.poll(() => countHighlightPixels(container), { timeout: 20_000 }).toBe(0)
  })

  it('closes and reopens without leaving maps or canvases behind', async () => {
    const engine = createEngine()
    const container = createContainer()
    for (let cycle = 0; cycle < 2; cycle++) {
      await openBatchedCity(engine, container)
      await expect.poll(() => city(engine).tilesLoaded, { timeout: 30_000 }).toBe(1)
      expect(container.querySelectorAll('canvas')).toHaveLength(1)
      await engine.run('city.close')
      await expect.poll(() => city(engine).isOpen).toBe(false)
      expect(city(engine).tilesets).toEqual([])
      expect(city(engine).tilesLoaded).toBe(0)
      expect(container.querySelectorAll('canvas')).toHaveLength(0)
    }
    const error = await engine
      .run('city.pickAtScreenPoint', { x: 1, y: 1 })
      .catch((failure: unknown) => failure)
    expect((error as EngineError).code).toBe('city.notOpen')
  })

  it('keeps one set of tile workers per attached container, and ends them with it', async () => {
    // Counts the tile parse workers alive in the page (MapLibre runs its own, named otherwise).
    const NativeWorker = window.Worker
    let alive = 0
    let started = 0
    class CountingWorker extends NativeWorker {
      private isCounted: boolean
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options)
        this.isCounted = options?.name === 'tile-parse'
        if (this.isCounted) {
          alive++
          started++
        }
      }
      override terminate(): void {
        if (this.isCounted) alive--
        this.isCounted = false
        super.terminate()
      }
    }
    window.Worker = CountingWorker
    cleanups.push(() => {
      window.Worker = NativeWorker
    })
    const engine = createEngine()
    const container = createContainer()
    await engine.run('city.attachContainer', { container })
    expect(alive).toBe(1)
    for (let cycle = 0; cycle < 2; cycle++) {
      await openBatchedCity(engine, container)
      await expect.poll(() => city(engine).tilesLoaded, { timeout: 30_000 }).toBe(1)
      await engine.run('city.close')
    }
    // Project switches reuse the container's workers.
    expect({ alive, started }).toEqual({ alive: 1, started: 1 })
    await engine.run('city.attachContainer', { container: null })
    expect(alive).toBe(0)
  })

  it('reports a tileset whose tileset.json cannot be loaded', async () => {
    const engine = createEngine()
    const container = createContainer()
    await engine.run('city.attachContainer', { container })
    await engine.run('city.open', {
      projectId: 'p',
      center: buildingsCenter,
      basemap: { kind: 'offline', style: offlineStyle },
      tilesets: [
        {
          id: 'gone',
          name: 'Gone',
          url: new URL('./fixtures/nowhere/tileset.json', import.meta.url).href,
          isVisible: true,
        },
      ],
    })
    await expect.poll(() => city(engine).tilesets[0]?.loadState, { timeout: 20_000 }).toBe('failed')
    expect(city(engine).tilesets[0]?.failure).toBeTruthy()
  })
})
