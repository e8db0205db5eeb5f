import { Layer } from '@deck.gl/core'
import { Tile3DLayer } from '@deck.gl/geo-layers'
import { MapLibreOverlay } from '@deck.gl/maplibre'
import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import { load } from '@loaders.gl/core'
import { Tile3D, Tileset3D } from '@loaders.gl/tiles'
import { Matrix4 } from '@math.gl/core'
import { Ellipsoid } from '@math.gl/geospatial'
import { Map as MapLibreMap } from 'maplibre-gl'
import { describe, expect, it, vi } from 'vitest'
import { mapViewport } from './map-viewport'
import {
  attachDeviceEarly,
  isTileDrawn,
  mapLibreViewId,
  moveRegionVolumesWith,
  paceGpuFrames,
  setTileDrawn,
  traverseTilesetNow,
  updateOverlayLayersNow,
} from './library-internals'
import { cityTestPage } from './testing/city-test-page'
import { placementModelMatrix } from './tileset-placement'

/**
 * The library internals the city engine relies on (library-internals.ts) still exist with the
 * shape it uses. When a bump of deck.gl, loaders.gl, luma.gl or MapLibre breaks one, this file
 * names it; the scene tests then show what it broke.
 */

const tilesetUrl = new URL('./fixtures/batched/tileset.json', import.meta.url).href
const { cleanups, createContainer } = cityTestPage()

async function loadTileset(modelMatrix?: Matrix4): Promise<Tileset3D> {
  // On the main thread: loaders.gl's default worker would be fetched from a CDN.
  const loadOptions = { core: { worker: false } }
  const json = await load(tilesetUrl, Tiles3DLoader, loadOptions as never)
  const tileset3d = new Tileset3D(
    json as never,
    {
      loadOptions,
      ...(modelMatrix ? { modelMatrix } : {}),
    } as never,
  )
  cleanups.push(() => tileset3d.destroy())
  await tileset3d.tilesetInitializationPromise
  return tileset3d
}

/** An empty map over the fixture tileset, removed after the test. */
function openMapOverTileset(): MapLibreMap {
  const map = new MapLibreMap({
    container: createContainer(),
    style: { version: 8, sources: {}, layers: [] },
    center: [-75.61208, 40.04253],
    zoom: 17,
  })
  cleanups.push(() => map.remove())
  return map
}

/**
 * An empty map with deck's interleaved overlay added (after `beforeAdd` saw the map's context),
 * both removed after the test.
 */
function addInterleavedOverlay(beforeAdd?: (gl: WebGL2RenderingContext) => void) {
  const map = new MapLibreMap({
    container: createContainer(),
    style: { version: 8, sources: {}, layers: [] },
  })
  cleanups.push(() => map.remove())
  beforeAdd?.(map.getCanvas().getContext('webgl2')!)
  const overlay = new MapLibreOverlay({ interleaved: true, layers: [] })
  map.addControl(overlay)
  cleanups.push(() => {
    map.removeControl(overlay)
  })
  const deck = (overlay as unknown as { _deck: { isInitialized: boolean } })._deck
  return { overlay, deck }
}

describe('library internals at the pinned versions', () => {
  it("deck's Tile3DLayer has the private methods the stream hand-over replaces and calls", () => {
    const prototype = Tile3DLayer.prototype as unknown as Record<string, unknown>
    for (const name of [
      '_getSubLayer',
      '_loadTileset',
      '_onTileLoad',
      '_onTileUnload',
      '_updateTileset',
    ]) {
      expect(typeof prototype[name], name).toBe('function')
    }
  })

  it("loaders.gl's Tileset3D traverses at once on the tree its constructor built", async () => {
    const tileset3d = await loadTileset()
    const internals = tileset3d as unknown as {
      root: unknown
      roots: Record<string, unknown>
      lastUpdatedVieports: { id: string }[] | null
    }
    traverseTilesetNow(tileset3d, mapViewport(openMapOverTileset()))
    expect(internals.roots[mapLibreViewId]).toBe(internals.root)
    expect(internals.lastUpdatedVieports?.[0]?.id).toBe(mapLibreViewId)
    // `tileDrawn` is a field of Tile3D (sealed): it can be written and read back.
    const root = tileset3d.root as Tile3D
    setTileDrawn(root, false)
    expect(isTileDrawn(root)).toBe(false)
    setTileDrawn(root, true)
    expect(isTileDrawn(root)).toBe(true)
    expect(Object.isSealed(root)).toBe(true)
  })

  it('lets an update loaders.gl scheduled before a destroy pass without walking the emptied tree', async () => {
    const tileset3d = await loadTileset()
    const viewport = mapViewport(openMapOverTileset())
    traverseTilesetNow(tileset3d, viewport)
    tileset3d.destroy()
    // What a held tile's re-selection runs a timer turn after the layer was finalized.
    const internals = tileset3d as unknown as { doUpdate(viewports: unknown): void }
    expect(() => internals.doUpdate([viewport])).not.toThrow()
    await expect(tileset3d.selectTiles([viewport] as never)).resolves.toBeTypeOf('number')
  })

  it('moves region bounding volumes with a marked model matrix, and only with one', async () => {
    const ownCenter = (await loadTileset()).cartographicCenter!
    const shanghai = { lng: 121.5189, lat: 31.16946 }
    const own = Ellipsoid.WGS84.eastNorthUpToFixedFrame(
      Ellipsoid.WGS84.cartographicToCartesian([ownCenter[0]!, ownCenter[1]!, 0]),
    )
    const moving = placementModelMatrix({ ...shanghai, heightOffset: 0, heading: 0 })
      .clone()
      .multiplyRight(new Matrix4(own).invert())
    const unmarked = await loadTileset(moving.clone())
    expect(unmarked.cartographicCenter![0]).toBeCloseTo(ownCenter[0]!, 3)
    const moved = await loadTileset(moveRegionVolumesWith(moving.clone()))
    expect(moved.cartographicCenter![0]).toBeCloseTo(shanghai.lng, 3)
    expect(moved.cartographicCenter![1]).toBeCloseTo(shanghai.lat, 3)
    expect(Tile3D.prototype).toHaveProperty('_updateBoundingVolume')
  })

  it("MapLibre's map renders through a private _render that frame pacing wraps", () => {
    const container = createContainer()
    const map = new MapLibreMap({ container, style: { version: 8, sources: {}, layers: [] } })
    cleanups.push(() => map.remove())
    const internals = map as unknown as { _render: unknown }
    const stock = internals._render
    expect(typeof stock).toBe('function')
    const gl = map.getCanvas().getContext('webgl2')!
    const pacing = paceGpuFrames(map, gl)
    expect(internals._render).not.toBe(stock)
    pacing.remove()
  })

  it("deck's overlay applies a layer set between frames when asked, before the map's frame", async () => {
    const { overlay, deck } = addInterleavedOverlay()
    await expect.poll(() => deck.isInitialized, { timeout: 20_000 }).toBe(true)
    let initializedLayers = 0
    class CountingLayer extends Layer {
      static override layerName = 'CountingLayer'
      override initializeState(): void {
        initializedLayers++
      }
      override draw(): void {}
    }
    overlay.setProps({ layers: [new CountingLayer({ id: 'counting' })] })
    expect(initializedLayers).toBe(0)
    updateOverlayLayersNow(overlay)
    expect(initializedLayers).toBe(1)
  })

  it("deck's overlay on a context with a device attached is ready within the task that adds it", async () => {
    const { deck } = addInterleavedOverlay(attachDeviceEarly)
    // Only promise reactions run here, no task: so no map frame either, and no dynamic import.
    for (let turn = 0; turn < 20 && !deck.isInitialized; turn++) await Promise.resolve()
    expect(deck.isInitialized).toBe(true)
  })

  describe('GPU frame pacing', () => {
    /**
     * A map whose fences never read as signalled — what headless Chromium on a software GPU
     * does for seconds at a time — with a frame asked for after every drawn one; counts the
     * frames drawn and the paced `_render` calls (drawn or skipped).
     */
    function mapWithSilentFences(longestSkipMs?: number) {
      const map = new MapLibreMap({
        container: createContainer(),
        style: { version: 8, sources: {}, layers: [] },
      })
      cleanups.push(() => map.remove())
      const gl = map.getCanvas().getContext('webgl2')!
      const status = vi.spyOn(gl, 'getSyncParameter').mockReturnValue(gl.UNSIGNALED)
      cleanups.push(() => status.mockRestore())
      const pacing = paceGpuFrames(map, gl, longestSkipMs)
      cleanups.push(() => pacing.remove())
      const internals = map as unknown as { _render(timestamp: number): unknown }
      const pacedRender = internals._render
      const counts = { renderCalls: 0, drawnFrames: 0 }
      internals._render = (timestamp) => {
        counts.renderCalls++
        return pacedRender(timestamp)
      }
      map.on('render', () => {
        counts.drawnFrames++
        map.triggerRepaint()
      })
      map.triggerRepaint()
      return { counts, pacing }
    }

    it('holds frames while two fenced frames are unfinished', async () => {
      const { counts } = mapWithSilentFences(Number.POSITIVE_INFINITY)
      await expect.poll(() => counts.renderCalls, { timeout: 20_000 }).toBeGreaterThan(10)
      expect(counts.drawnFrames).toBe(2)
    })

    it('draws a frame asked for at once even while frames are held', async () => {
      const { counts, pacing } = mapWithSilentFences(Number.POSITIVE_INFINITY)
      await expect.poll(() => counts.renderCalls, { timeout: 20_000 }).toBeGreaterThan(10)
      expect(counts.drawnFrames).toBe(2)
      pacing.drawNextFrame()
      await expect.poll(() => counts.drawnFrames, { timeout: 20_000 }).toBe(3)
      // Only that one: the frames after it are held again.
      const callsThen = counts.renderCalls
      await expect
        .poll(() => counts.renderCalls, { timeout: 20_000 })
        .toBeGreaterThan(callsThen + 10)
      expect(counts.drawnFrames).toBe(3)
    })

    it('runs the before-draw hook before each drawn frame, not before a held one', async () => {
      const map = new MapLibreMap({
        container: createContainer(),
        style: { version: 8, sources: {}, layers: [] },
      })
      cleanups.push(() => map.remove())
      const gl = map.getCanvas().getContext('webgl2')!
      const status = vi.spyOn(gl, 'getSyncParameter').mockReturnValue(gl.UNSIGNALED)
      cleanups.push(() => status.mockRestore())
      const counts = { hooks: 0, drawnFrames: 0, hooksAtDraw: [] as number[] }
      const pacing = paceGpuFrames(map, gl, Number.POSITIVE_INFINITY, () => counts.hooks++)
      cleanups.push(() => pacing.remove())
      map.on('render', () => {
        counts.drawnFrames++
        counts.hooksAtDraw.push(counts.hooks)
        map.triggerRepaint()
      })
      map.triggerRepaint()
      await expect.poll(() => counts.drawnFrames, { timeout: 20_000 }).toBe(2)
      pacing.drawNextFrame()
      await expect.poll(() => counts.drawnFrames, { timeout: 20_000 }).toBe(3)
      // One hook per drawn frame, each before its frame; held frames ran none.
      expect(counts.hooksAtDraw).toEqual([1, 2, 3])
      expect(counts.hooks).toBe(3)
    })

    it('keeps drawing when fences report late (no freeze after two frames)', async () => {
      const { counts } = mapWithSilentFences()
      await expect.poll(() => counts.drawnFrames, { timeout: 20_000 }).toBeGreaterThan(5)
    })
  })
})
