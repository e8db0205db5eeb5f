/**
 * Every place the city engine reaches past the public API of its libraries, in one file, pinned
 * to the versions it was written against:
 *
 *   @deck.gl/core, @deck.gl/geo-layers, @deck.gl/maplibre   9.4.0
 *   @loaders.gl/tiles, @loaders.gl/3d-tiles                  4.5.4
 *   @luma.gl/webgl                                           9.4.2
 *   maplibre-gl                                              6.17.0
 *
 * After a bump of any of them, `library-internals.browser.test.ts` says which of these
 * internals moved; nothing else in engine/ casts into a library's private members.
 */
import type { Layer, PickingInfo } from '@deck.gl/core'
import type { Viewport } from '@deck.gl/core'
import { Tile3DLayer } from '@deck.gl/geo-layers'
import type { MapLibreOverlay } from '@deck.gl/maplibre'
import { calculateTransformProps, createBoundingVolume, Tile3D, Tileset3D } from '@loaders.gl/tiles'
import { WebGLDevice, webgl2Adapter } from '@luma.gl/webgl'
import { Matrix3, type Matrix4 } from '@math.gl/core'
import type { Map as MapLibreMap } from 'maplibre-gl'

/** The id deck's MapLibre overlay gives its view (`MAPLIBRE_VIEW_ID`, not exported). */
export const mapLibreViewId = 'maplibre'

// ---------------------------------------------------------------------------------------------
// loaders.gl Tile3D / Tileset3D

/** Whether the map has drawn a tile once (loaders.gl keeps ancestors until it has). */
export function isTileDrawn(tile: unknown): boolean {
  return (tile as { tileDrawn?: boolean }).tileDrawn === true
}

/** Marks a tile drawn (true) or waiting for its first draw (false). */
export function setTileDrawn(tile: unknown, isDrawn: boolean): void {
  ;(tile as { tileDrawn?: boolean }).tileDrawn = isDrawn
}

/**
 * Selects tiles for a viewport at once. `selectTiles` would first wait a timer turn, which the
 * map's busy start-up delays by a frame or more before any request.
 */
export function traverseTilesetNow(tileset3d: Tileset3D, viewport: Viewport): void {
  const traversed = tileset3d as unknown as {
    root: unknown
    roots: Record<string, unknown>
    lastUpdatedVieports: unknown
    doUpdate(viewports: unknown): void
  }
  // loaders.gl builds a second tile tree per viewport on its first traversal; the one its
  // constructor built serves instead (≈ 0.1 s of main thread per 1,000 tiles, and `destroy()`
  // frees only that tree). deck's layer traverses the same viewport id.
  traversed.roots[mapLibreViewId] ??= traversed.root
  traversed.lastUpdatedVieports = [viewport]
  traversed.doUpdate([viewport])
}

{
  // `traverseTilesetNow` makes the constructor's tree the traversed one, and `destroy()` empties
  // that tree's tiles (their `header` becomes null). loaders.gl may still run an update it had
  // scheduled (a held tile's re-selection, a debounced `selectTiles`) after the layer is gone:
  // it would walk the emptied tree and throw. A destroyed tileset (no root) has nothing to select.
  const prototype = Tileset3D.prototype as unknown as {
    doUpdate(this: { root: unknown }, viewports: unknown): void
  }
  const doUpdate = prototype.doUpdate
  prototype.doUpdate = function updateUnlessDestroyed(viewports) {
    if (this.root === null) return
    doUpdate.call(this, viewports)
  }
}

/**
 * loaders.gl's own content placement (RTC centre, up axis, quantization under the tile's
 * transform) for a tile that is not a `Tile3D`: fills `placed.cartographicOrigin` and
 * `placed.cartographicModelMatrix`.
 */
export function placeTileContent(
  computedTransform: Matrix4,
  boundingVolume: unknown,
  placed: Record<string, unknown>,
): void {
  calculateTransformProps({ computedTransform, boundingVolume } as unknown as Tile3D, placed)
}

/**
 * Model matrices that move a georeferenced tileset (placement.ts). loaders.gl applies a
 * tileset's `modelMatrix` to box and sphere volumes but never to `region` volumes (they are
 * fixed on the globe by definition), so a moved tileset's regions would stay behind and cull
 * its tiles at the old place. Keyed by the matrix object, which Tileset3D keeps as its own
 * `modelMatrix`, so it is known before the Tileset3D (and its first tiles) exist.
 */
const regionMovingMatrices = new WeakSet<object>()

/** Makes tilesets with this model matrix move their region volumes with it too. */
export function moveRegionVolumesWith(modelMatrix: Matrix4): Matrix4 {
  regionMovingMatrices.add(modelMatrix)
  return modelMatrix
}

/** The matrix itself when tilesets with it move their regions along, else null. */
export function regionMovingMatrix(modelMatrix: Matrix4 | undefined): Matrix4 | null {
  return modelMatrix && regionMovingMatrices.has(modelMatrix) ? modelMatrix : null
}

/**
 * A bounding volume as loaders.gl makes it, with a `region` moved by `relocation` (an
 * Earth-fixed to Earth-fixed matrix) when one is given.
 */
export function relocatedBoundingVolume(
  header: Record<string, unknown>,
  transform: Matrix4,
  relocation: Matrix4 | null,
  result?: unknown,
): unknown {
  const volume = createBoundingVolume(header as never, transform, result as never)
  const box = volume as { center: number[]; halfAxes: number[]; constructor: BoxConstructor }
  if (!relocation || !header.region || !box.halfAxes) return volume
  const center = relocation.transformAsPoint([...box.center])
  // The upper 3×3 of the column-major relocation turns the box's half axes.
  const r = relocation
  const rotation = new Matrix3([r[0]!, r[1]!, r[2]!, r[4]!, r[5]!, r[6]!, r[8]!, r[9]!, r[10]!])
  const halfAxes = new Matrix3(rotation).multiplyRight(box.halfAxes)
  // loaders.gl makes regions into math.gl OrientedBoundingBoxes; the same class is made here.
  return new box.constructor([...center], [...halfAxes])
}

{
  // Tile3D rebuilds its volumes here on creation and on every transform change.
  const prototype = Tile3D.prototype as unknown as {
    _updateBoundingVolume(this: Tile3DVolumes, header: Record<string, unknown>): void
  }
  const updateBoundingVolume = prototype._updateBoundingVolume
  prototype._updateBoundingVolume = function relocatingUpdate(header) {
    updateBoundingVolume.call(this, header)
    const relocation = this.tileset.modelMatrix
    if (!regionMovingMatrices.has(relocation)) return
    const volume = header.boundingVolume as Record<string, unknown> | undefined
    if (!volume?.region) return
    this.boundingVolume = relocatedBoundingVolume(volume, this.computedTransform, relocation)
    const content = header.content as { boundingVolume?: Record<string, unknown> } | undefined
    if (content?.boundingVolume?.region) {
      this._contentBoundingVolume = relocatedBoundingVolume(
        content.boundingVolume,
        this.computedTransform,
        relocation,
      )
    }
  }
}

/** math.gl's OrientedBoundingBox constructor (a transitive dependency, reached via a volume). */
type BoxConstructor = new (center: number[], halfAxes: number[]) => unknown

/** The Tile3D fields the relocation above rewrites. */
interface Tile3DVolumes {
  tileset: { modelMatrix: Matrix4 }
  computedTransform: Matrix4
  boundingVolume: unknown
  _contentBoundingVolume: unknown
}

// ---------------------------------------------------------------------------------------------
// deck.gl Tile3DLayer

/** A tileset stream a {@link GuardedTile3DLayer} adopts instead of loading the tileset itself. */
export interface AdoptableStream {
  /** Resolves with the tileset once its tileset.json is parsed; rejects when it cannot be. */
  ready: Promise<Tileset3D>
  /** The deck layer that adopted the stream (deck then drives its traversal). */
  layer: Tile3DLayer | null
  /** Set when the scene let go of the stream: a late layer must not adopt it. */
  isEnded: boolean
}

/** The Tile3DLayer internals the stream hands-over uses (deck types them private). */
export interface Tile3DLayerInternals {
  state: { activeViewports: unknown }
  internalState: unknown
  setState(state: Record<string, unknown>): void
  setNeedsUpdate(): void
  _onTileLoad(tile: Tile3D): void
  _onTileUnload(tile: Tile3D): void
  _updateTileset(viewports: unknown): void
}

/** The adopting layer as deck currently holds it (deck swaps instances on every update). */
export function drawingLayerOf(stream: AdoptableStream): Tile3DLayerInternals | null {
  return (stream.layer?.getCurrentLayer() ?? null) as unknown as Tile3DLayerInternals | null
}

/** The tile a pick hit (deck's Tile3DLayer adds `sourceTile` to the info). */
export function pickedTile(info: PickingInfo): Tile3D | undefined {
  return ((info as PickingInfo & { sourceTile?: Tile3D }).sourceTile ?? info.object) as
    | Tile3D
    | undefined
}

/**
 * Installs on a Tile3DLayer subclass the two private methods it replaces: `_getSubLayer` makes
 * no per-tile layer for tiles `isDrawnElsewhere` says another layer draws, and `_loadTileset`
 * adopts the scene's stream (prop `tilesetStream`) instead of loading the tileset.json again.
 */
export function installTile3DLayerPatches(
  prototype: Tile3DLayer,
  isDrawnElsewhere: (tile: Tile3D) => boolean,
): void {
  const stock = Tile3DLayer.prototype as unknown as {
    _getSubLayer(this: Tile3DLayer, tile: Tile3D, oldLayer?: Layer): Layer | null
  }
  const getSubLayer = stock._getSubLayer
  Object.defineProperty(prototype, '_getSubLayer', {
    value: function meshlessSubLayer(this: Tile3DLayer, tile: Tile3D, oldLayer?: Layer) {
      return isDrawnElsewhere(tile) ? null : getSubLayer.call(this, tile, oldLayer)
    },
  })
  Object.defineProperty(prototype, '_loadTileset', {
    value: async function adoptTilesetStream(this: Tile3DLayer) {
      const stream = (this.props as unknown as { tilesetStream: AdoptableStream }).tilesetStream
      let tileset3d: Tileset3D
      try {
        tileset3d = await stream.ready
      } catch {
        return // The scene reports a tileset.json that failed.
      }
      const internals = this as unknown as Tile3DLayerInternals
      // Finalized meanwhile, or the scene moved on to a newer stream.
      if (!internals.internalState || stream.isEnded) return
      stream.layer = this
      internals.setState({ tileset3d, layerMap: {} })
      internals._updateTileset(internals.state.activeViewports)
    },
  })
}

/** Marks the tile a pick hit on the info, as deck's Tile3DLayer does for its own sub-layers. */
export function setPickedTile(info: PickingInfo, tile: Tile3D | undefined): void {
  ;(info as PickingInfo & { sourceTile?: Tile3D }).sourceTile = tile
}

// ---------------------------------------------------------------------------------------------
// luma.gl and MapLibre

/**
 * Loads the module deck's overlay waits for before it can draw anything: deck attaches luma.gl
 * to the map's context through `webgl2Adapter.attach`, which imports luma's device module
 * dynamically — bundled as a chunk of its own, fetched only when the first map's deck starts,
 * after the map's first frames (the city-tiles bench saw deck ready 0.5 s after its first map
 * frame, under load). Attaching nothing makes luma import the module, then refuse.
 */
export function preloadLumaDevice(): Promise<void> {
  return webgl2Adapter.attach(null as unknown as WebGL2RenderingContext).then(
    () => {},
    () => {},
  )
}

/**
 * Attaches luma.gl (deck's GPU layer) to the map's WebGL context now, before the map has queued
 * any frame. deck's overlay would attach a few tasks later, and luma's set-up reads GL
 * parameters: synchronous round trips that wait for the GPU to finish every frame queued so far
 * (≈ 160 ms of blocked main thread on a software GPU, measured by the city-tiles bench). deck
 * finds the device on the context at once (below) and uses it, with the caching it would have
 * asked for.
 */
export function attachDeviceEarly(gl: WebGL2RenderingContext): void {
  if (WebGLDevice.getDeviceFromContext(gl)) return
  new WebGLDevice({
    _handle: gl,
    createCanvasContext: { canvas: gl.canvas, autoResize: false },
    _cacheShaders: true,
    _cachePipelines: true,
  })
}

{
  // deck's overlay attaches luma.gl to the map's context through `webgl2Adapter.attach`, whose
  // first step imports luma's device module dynamically. Even with that module loaded, the import
  // settles in a later task, behind the map's start-up tasks: the city-tiles bench saw deck become
  // ready only after the map's first frame (under load, after its second), so a tileset's first
  // content, shown before that frame, was drawn a frame or more late. A context the scene already
  // attached a device to (city-scene.ts) is answered at once: deck is then ready within the task
  // that adds the overlay, before the map's first frame. Any other context goes the stock way.
  const adapter = webgl2Adapter as unknown as {
    attach(gl: WebGL2RenderingContext | null, props?: unknown): Promise<unknown>
  }
  const attach = adapter.attach.bind(adapter)
  adapter.attach = function attachToKnownContext(gl, props) {
    const attached = WebGLDevice.getDeviceFromContext(gl)
    return attached ? Promise.resolve(attached) : attach(gl, props)
  }
}

/** The parts of deck's `Deck` (inside the MapLibre overlay, `_deck`) that are reached here. */
interface OverlayDeck {
  isInitialized: boolean
  layerManager: { updateLayers(): void } | null
}

/**
 * Brings deck's layers up to the overlay's last `setProps` now. deck applies new layers (makes
 * them, runs their state updates) only in its own animation frame, which the browser may run
 * after MapLibre's frame: in interleaved mode MapLibre draws deck's layers, so a layer set
 * between two frames was first drawn a whole map frame later — the city-tiles bench saw a
 * tileset's first content wait for that frame (hundreds of ms on a software GPU). Called right
 * before each map frame; a no-op when nothing changed or deck is not ready yet.
 */
export function updateOverlayLayersNow(overlay: MapLibreOverlay): void {
  const deck = (overlay as unknown as { _deck?: OverlayDeck })._deck
  if (deck?.isInitialized) deck.layerManager?.updateLayers()
}

/** Whether deck inside the overlay has started (it draws nothing before). */
export function isOverlayReady(overlay: MapLibreOverlay): boolean {
  return (overlay as unknown as { _deck?: OverlayDeck })._deck?.isInitialized === true
}

/** The WebGL2 context behind a luma.gl device (`WebGLDevice.gl`, typed on the subclass only). */
export function webglOf(device: unknown): WebGL2RenderingContext {
  return (device as { gl: WebGL2RenderingContext }).gl
}

/** Frames of GPU work the map may have queued before it skips drawing one. */
const maximumFramesInFlight = 2

/**
 * The longest the map goes without drawing while its fences say the GPU is behind. Chromium
 * reports a fence's status late on a software GPU (SwiftShader, headless): pacing on fences
 * alone, the city-tiles bench drew ≈ 1.4 frames per second on a quiet machine (0.6 s between
 * drawn frames) while the anchor drew 60, and under load fences read as signalled seconds after
 * their frame even with every frame drawn; without vsync they may never read so (the map froze
 * after two frames). Drawing at least this often bounds what can pile up to 10 frames per
 * second — the freeze below came from uncapped frames, many times that.
 */
const longestSkipMs = 100

/** Fences kept at most: older ones are let go unread (the time bound above paces then). */
const maximumFencesKept = 8

/** What {@link paceGpuFrames} returns. */
export interface GpuFramePacing {
  /**
   * Draws the map's next frame even if the fences would hold it: something is about to be seen
   * for the first time (a tileset's first content), and one frame more cannot pile up.
   */
  drawNextFrame(): void
  /** Gives MapLibre its own `_render` back. */
  remove(): void
}

/**
 * Keeps the map from queueing more GPU work than the GPU gets through, by wrapping MapLibre's
 * private `_render`. A browser normally does this by pacing animation frames to the display;
 * where it does not (a software GPU behind a slow compositor, benchmarks without a frame cap),
 * frames pile up in the GPU process until one WebGL call waits seconds for all of them and the
 * page freezes. Each drawn frame ends with a fence; while the oldest of two is unfinished the
 * map skips a frame and asks for the next (reading a fence's status never waits) — but never
 * for longer than {@link longestSkipMs}, as a fence's status can arrive long after the GPU has
 * finished, and not when a first content waits to be seen (`drawNextFrame`).
 */
export function paceGpuFrames(
  map: MapLibreMap,
  gl: WebGL2RenderingContext,
  longestSkip = longestSkipMs,
  /** Runs right before each frame the map draws (not before a skipped one). */
  beforeDraw?: () => void,
): GpuFramePacing {
  const paced = map as unknown as { _render(timestamp: number): unknown }
  if (typeof paced._render !== 'function') return { drawNextFrame() {}, remove() {} }
  const render = paced._render.bind(map)
  const fences: WebGLSync[] = []
  let lastDrawnAtMs = Number.NEGATIVE_INFINITY
  let isNextFrameDue = false
  paced._render = (timestamp: number) => {
    while (fences.length > 0 && gl.getSyncParameter(fences[0]!, gl.SYNC_STATUS) === gl.SIGNALED) {
      gl.deleteSync(fences.shift()!)
    }
    const nowMs = performance.now()
    const isHeld = fences.length >= maximumFramesInFlight && nowMs - lastDrawnAtMs < longestSkip
    if (isHeld && !isNextFrameDue) {
      map.triggerRepaint()
      return map
    }
    isNextFrameDue = false
    lastDrawnAtMs = nowMs
    beforeDraw?.()
    const result = render(timestamp)
    const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
    if (fence) fences.push(fence)
    while (fences.length > maximumFencesKept) gl.deleteSync(fences.shift()!)
    return result
  }
  return {
    drawNextFrame() {
      isNextFrameDue = true
      map.triggerRepaint()
    },
    remove() {
      paced._render = render
      for (const fence of fences.splice(0)) gl.deleteSync(fence)
    },
  }
}
