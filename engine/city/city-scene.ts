import {
  COORDINATE_SYSTEM,
  type FilterContext,
  type GetPickingInfoParams,
  type Layer,
  type PickingInfo,
  WebMercatorViewport,
} from '@deck.gl/core'
import { Tile3DLayer } from '@deck.gl/geo-layers'
import { MapLibreOverlay } from '@deck.gl/maplibre'
import { SimpleMeshLayer } from '@deck.gl/mesh-layers'
import dracoWorkerUrl from '@loaders.gl/draco/draco-worker.js?url'
import { parse } from '@loaders.gl/core'
import { type Tile3D, Tileset3D } from '@loaders.gl/tiles'
import { WebGLDevice } from '@luma.gl/webgl'
import { Matrix4 } from '@math.gl/core'
import { Ellipsoid } from '@math.gl/geospatial'
import {
  addProtocol,
  Map as MapLibreMap,
  removeProtocol,
  setWorkerUrl,
  type StyleSpecification,
} from 'maplibre-gl'
import mapLibreWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import 'maplibre-gl/dist/maplibre-gl.css'
import { PMTiles, Protocol, TileType } from 'pmtiles'
import type {
  CityBasemap,
  CityCamera,
  CityCameraTarget,
  CityFeaturePick,
  CitySnapshot,
  CityStreamingSettings,
  CityTileError,
  CityTilesetPlacement,
  CityTilesetSource,
  CityTilesetState,
} from '../api/city-snapshot'
import { EngineError } from '../api/errors'
import { createWorkerTilesLoader, type WorkerTilesLoader } from '../workers/tile-parse-client'
import { createPmtilesStyle } from './basemap-style'
import {
  type BatchedGltf,
  type BatchedPrimitive,
  batchLength,
  collectBatchedPrimitives,
  featureProperties,
  featureTrianglePositions,
  nearestBatchId,
  type TileContentTables,
} from './batched-features'
import { cityZoomLimits, wheelZoomRate } from './city-controls'
import { screenSpaceErrorScale } from './screen-space-error'
import type { RootTile } from '../../workers/tile-parse/root-tile'
import { type RootPreviewTile, rootPreviewTile } from './root-preview'
import { placementModelMatrix } from './tileset-placement'
import { prepareTileMeshProgram } from './tile-mesh-renderer'
import { TilesetMeshLayer } from './tileset-mesh-layer'

// MapLibre's worker is bundled as its own file; MapLibre must be told where it went.
setWorkerUrl(mapLibreWorkerUrl)

/** A patch of the city snapshot; the handlers merge it into the engine state. */
export type CityPatch = Partial<CitySnapshot>

/** The id deck's MapLibre overlay gives its view (not exported by @deck.gl/maplibre). */
const mapLibreViewId = 'maplibre'
/** How many tile failures per tileset the snapshot lists; a broken tileset can fail thousands. */
const maximumListedTileErrors = 20
/** The highlight drawn over a selected feature. */
const highlightColor: [number, number, number, number] = [255, 196, 0, 190]
/** How far (metres) the closest vertex may be from a picked point and still name its feature. */
const featurePickToleranceMeters = 50

/** What the scene keeps per tileset. */
interface TilesetEntry {
  source: CityTilesetSource
  /** The current stream (a new one per generation). */
  stream: TilesetStream
  /** Bumped when the tileset must stream again (placement, streaming limits): a new layer id. */
  generation: number
  tileset3d: Tileset3D | null
  loadState: CityTilesetState['loadState']
  failure: string | null
  center: CityTilesetState['center']
  errors: CityTileError[]
  errorCount: number
  /** The root drawn from the tileset.json until loaders.gl draws (root-preview.ts). */
  preview: RootPreviewTile | null
}

/** The loaded tile content fields this scene reads (loaders.gl types them loosely). */
interface TileContent extends TileContentTables {
  type?: string
  gltf?: BatchedGltf
  instances?: unknown[]
  cartographicOrigin?: number[]
  modelMatrix?: number[]
}

/** A selected feature with the geometry its highlight draws. */
interface Selection {
  tilesetId: string
  tileId: string
  featureId: number
  properties: Record<string, unknown>
  highlight: { positions: Float32Array; origin: number[]; modelMatrix: number[] } | null
}

/**
 * A tileset's stream. The scene starts it when the tileset is added — tileset.json fetched and
 * parsed, `Tileset3D` made, the first traversals run with the map's camera — so tiles load while
 * MapLibre and deck.gl are still starting; the layer that draws it adopts it once deck runs.
 */
interface TilesetStream {
  /** Resolves with the tileset once its tileset.json is parsed; rejects when it cannot be. */
  ready: Promise<Tileset3D>
  /** The deck layer that adopted the stream (deck then drives its traversal). */
  layer: Tile3DLayer | null
  /** Set when the scene let go of the stream: a late layer must not adopt it. */
  isEnded: boolean
}

/** The Tile3DLayer internals the stream hands-over uses (deck types them private). */
interface Tile3DLayerInternals {
  state: { activeViewports: unknown }
  internalState: unknown
  setState(state: Record<string, unknown>): void
  setNeedsUpdate(): void
  _onTileLoad(tile: Tile3D): void
  _onTileUnload(tile: Tile3D): void
  _updateTileset(viewports: unknown): void
}

/**
 * A Tile3DLayer that draws a scene-owned tileset stream instead of loading the tileset.json
 * itself, that draws all triangle tiles in one TilesetMeshLayer, and that picks every drawn
 * tile: the stock layer skips tiles whose centre is a quarter screen away from the cursor,
 * which misses the outer buildings of a big b3dm tile.
 */
class GuardedTile3DLayer extends Tile3DLayer {
  static override layerName = 'GuardedTile3DLayer'

  override filterSubLayer(context: FilterContext): boolean {
    // The mesh layer draws only selected tiles already; the stock check reads a `tile` prop.
    if (context.layer instanceof TilesetMeshLayer) return true
    return super.filterSubLayer({ ...context, isPicking: false })
  }

  /**
   * Triangle tiles are drawn together by one TilesetMeshLayer; point clouds and instanced
   * models (i3dm) keep the stock per-tile layers.
   */
  override renderLayers() {
    const tileset3d = this.state.tileset3d as Tileset3D | null
    if (!tileset3d) return null
    const meshTiles = (tileset3d.tiles as Tile3D[]).filter(
      (tile) => tile.selected && isMeshTile(tile),
    )
    const meshLayer = new TilesetMeshLayer(this.getSubLayerProps({ id: 'meshes' }), {
      tiles: meshTiles,
      // Opaque surfaces: the overlay's default blending would cost a read per pixel for nothing.
      parameters: {
        blend: false,
        depthWriteEnabled: true,
        depthCompare: 'less-equal',
        cullMode: 'none',
      },
    })
    return [meshLayer, ...((super.renderLayers() as Layer[] | null) ?? [])]
  }

  override getPickingInfo(params: GetPickingInfoParams): PickingInfo {
    const { info, sourceLayer } = params
    if (!(sourceLayer instanceof TilesetMeshLayer)) return super.getPickingInfo(params)
    const tile = info.index >= 0 ? sourceLayer.props.tiles[info.index] : undefined
    if (info.picked) info.object = tile
    ;(info as PickingInfo & { sourceTile?: Tile3D }).sourceTile = tile
    return info
  }
}

/** A tile whose content is one glTF scene (b3dm, glb, a cmpt of those), not instances. */
function isMeshTile(tile: Tile3D): boolean {
  const content = tile.content as { gltf?: unknown; instances?: unknown } | undefined
  return Boolean(content?.gltf) && !content?.instances
}
{
  const prototype = Tile3DLayer.prototype as unknown as {
    _getSubLayer(this: Tile3DLayer, tile: Tile3D, oldLayer?: Layer): Layer | null
  }
  const getSubLayer = prototype._getSubLayer
  Object.defineProperty(GuardedTile3DLayer.prototype, '_getSubLayer', {
    value: function meshlessSubLayer(this: Tile3DLayer, tile: Tile3D, oldLayer?: Layer) {
      return isMeshTile(tile) ? null : getSubLayer.call(this, tile, oldLayer)
    },
  })
  Object.defineProperty(GuardedTile3DLayer.prototype, '_loadTileset', {
    value: async function adoptTilesetStream(this: Tile3DLayer) {
      const stream = (this.props as unknown as { tilesetStream: TilesetStream }).tilesetStream
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Registered once: MapLibre protocols are global, the archives in it are per URL. */
let pmtilesProtocol: Protocol | null = null
let pmtilesProtocolUsers = 0

/** Reads a PMTiles archive's header and builds a style that draws it. */
async function pmtilesStyle(url: string): Promise<StyleSpecification> {
  const archive = new PMTiles(url)
  pmtilesProtocol?.add(archive)
  const header = await archive.getHeader()
  const isVector = header.tileType === TileType.Mvt
  const metadata = (isVector ? await archive.getMetadata() : {}) as {
    vector_layers?: { id: string }[]
    attribution?: string
  }
  return createPmtilesStyle({
    url,
    kind: isVector ? 'vector' : 'raster',
    minZoom: header.minZoom,
    maxZoom: header.maxZoom,
    vectorLayerIds: (metadata.vector_layers ?? []).map((layer) => layer.id),
    ...(metadata.attribution ? { attribution: metadata.attribution } : {}),
  })
}

/** How tile contents (and tileset.json files) load; the streaming options come per layer. */
const contentLoadOptions = {
  // Decoders come from our own origin: no CDN request may leave the machine. Draco runs in
  // loaders.gl's worker (started from our parse worker); its wasm is looked up locally and a
  // tile that needs a decoder we do not ship fails alone, reported in its errors.
  core: { worker: true, useLocalLibraries: true },
  draco: { workerUrl: dracoWorkerUrl },
  '3d-tiles': { loadGLTF: true },
  // Without a format, loaders.gl probes for compressed-texture support per image by creating a
  // throwaway WebGL context: seconds on a software GPU, and one of the browser's 16 contexts.
  // We ship no Basis transcoder, so plain RGBA is the honest answer.
  basis: { format: 'rgba32' },
}

/**
 * Attaches luma.gl (deck's GPU layer) to the map's WebGL context now, before the map has queued
 * any frame. deck's overlay would attach a few tasks later, and luma's set-up reads GL
 * parameters: synchronous round trips that wait for the GPU to finish every frame queued so far
 * (≈ 160 ms of blocked main thread on a software GPU, measured by the city-tiles bench). deck
 * finds the device on the context and uses it, with the caching it would have asked for.
 */
function attachDeviceEarly(gl: WebGL2RenderingContext): void {
  if (WebGLDevice.getDeviceFromContext(gl)) return
  new WebGLDevice({
    _handle: gl,
    createCanvasContext: { canvas: gl.canvas, autoResize: false },
    _cacheShaders: true,
    _cachePipelines: true,
  })
}

/**
 * The tile parse workers for the scenes of one map container, started and warmed up at once
 * (`ready`): a container means a city is about to open, and its first tile should not wait for
 * the workers' start.
 */
export function createCityTilesLoader(): { tilesLoader: WorkerTilesLoader; ready: Promise<void> } {
  const tilesLoader = createWorkerTilesLoader()
  return { tilesLoader, ready: tilesLoader.warmUp(contentLoadOptions) }
}

/** How long building loaders.gl's tile tree waits for the root preview to be drawn. */
const previewWaitMs = 300

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Frames of GPU work the map may have queued before it skips drawing one. */
const maximumFramesInFlight = 2

/**
 * Keeps the map from queueing more GPU work than the GPU gets through. A browser normally does
 * this by pacing animation frames to the display; where it does not (a software GPU behind a
 * slow compositor, benchmarks without a frame cap), frames pile up in the GPU process until one
 * WebGL call waits seconds for all of them and the page freezes. Each drawn frame ends with a
 * fence; while the oldest of two is unfinished the map skips a frame and asks for the next
 * (reading a fence's status never waits). Returns the function that removes it.
 */
function paceGpuFrames(map: MapLibreMap, gl: WebGL2RenderingContext): () => void {
  const paced = map as unknown as { _render(timestamp: number): unknown }
  if (typeof paced._render !== 'function') return () => {}
  const render = paced._render.bind(map)
  const fences: WebGLSync[] = []
  paced._render = (timestamp: number) => {
    while (fences.length > 0 && gl.getSyncParameter(fences[0]!, gl.SYNC_STATUS) === gl.SIGNALED) {
      gl.deleteSync(fences.shift()!)
    }
    if (fences.length >= maximumFramesInFlight) {
      map.triggerRepaint()
      return map
    }
    const result = render(timestamp)
    const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
    if (fence) fences.push(fence)
    return result
  }
  return () => {
    paced._render = render
    for (const fence of fences.splice(0)) gl.deleteSync(fence)
  }
}

/** Options of {@link CityScene}. */
export interface CitySceneOptions {
  container: HTMLElement
  projectId: string
  camera: CityCamera
  basemap: CityBasemap
  tilesets: readonly CityTilesetSource[]
  streaming: CityStreamingSettings
  controls: CitySnapshot['controls']
  /** Keep the drawn frame readable (`toDataURL`, `drawImage`) after it is shown. */
  keepDrawingBuffer: boolean
  /** The tile parse workers (createCityTilesLoader); the scene does not terminate them. */
  tilesLoader: WorkerTilesLoader
  /** Receives every change of the city snapshot (the engine publishes once per frame). */
  publish(patch: CityPatch): void
}

/**
 * One open city: a MapLibre map in the container, a deck.gl overlay interleaved into its WebGL
 * context, one Tile3DLayer per tileset streaming with loaders.gl. Tile contents are parsed in a
 * pool of workers (engine/workers/tile-parse-client.ts); everything else here is main thread,
 * and nothing of it reaches the UI except through `publish`.
 */
export class CityScene {
  private readonly map: MapLibreMap
  private readonly overlay: MapLibreOverlay
  /** Parses tile contents in workers; one pool per scene, terminated with it. */
  /** Parses tile contents in workers; shared by the scenes of one attached container. */
  private readonly tilesLoader: WorkerTilesLoader
  private readonly entries = new Map<string, TilesetEntry>()
  /** deck layer id → tileset id, to name the tileset of a pick. */
  private readonly layerTilesets = new Map<string, string>()
  private readonly publish: (patch: CityPatch) => void
  private streaming: CityStreamingSettings
  private controls: CitySnapshot['controls']
  private selection: Selection | null = null
  private basemapKind: CityBasemap['kind']
  private isDisposed = false
  private renderedFrameCount = 0
  private lastRenderAtMs = 0
  private lastFrameIntervalMs = 0
  private lastPublishedTilesets = ''
  private readonly primitivesByTile = new WeakMap<object, BatchedPrimitive[]>()
  private readonly disposeFramePacing: () => void
  /** Where the last feature was picked, so `flyTo {featureId}` has a destination. */
  private lastPickPosition: { lng: number; lat: number } | null = null

  constructor(options: CitySceneOptions) {
    this.tilesLoader = options.tilesLoader
    this.tilesLoader.resetCounts()
    this.publish = options.publish
    this.streaming = options.streaming
    this.controls = options.controls
    this.basemapKind = options.basemap.kind
    for (const source of options.tilesets) this.entries.set(source.id, this.newEntry(source))
    if (options.basemap.kind === 'pmtiles') this.retainPmtilesProtocol()

    this.map = new MapLibreMap({
      container: options.container,
      // The real style may need an async read (PMTiles header); an empty one draws meanwhile.
      style: { version: 8, sources: {}, layers: [] },
      center: [options.camera.lng, options.camera.lat],
      zoom: options.camera.zoom,
      pitch: options.camera.pitch,
      bearing: options.camera.bearing,
      maxPitch: 85,
      attributionControl: { compact: true },
      // No MSAA and no preserved buffer by default: on a software GPU (SwiftShader, no-GPU
      // machines) each costs a full-screen pass per frame. Tests and thumbnails that read the
      // pixels back ask for the buffer to be kept.
      canvasContextAttributes: {
        preserveDrawingBuffer: options.keepDrawingBuffer,
        antialias: false,
      },
    })
    const gl = this.map.getCanvas().getContext('webgl2')
    if (gl) {
      attachDeviceEarly(gl)
      // Tiles wait for this program; linking runs on the GPU side while the tileset loads.
      prepareTileMeshProgram(gl)
    }
    this.disposeFramePacing = gl ? paceGpuFrames(this.map, gl) : () => {}
    this.overlay = new MapLibreOverlay({ interleaved: true, layers: [] })
    this.map.addControl(this.overlay)
    this.applyControls()

    this.map.on('move', () => this.publishCamera())
    this.map.on('resize', () => this.applyControls())
    this.map.on('render', () => this.onRender())
    // No 'load' listener: it fires for the empty placeholder style and would report the
    // basemap loaded (and clear its error) before the real style arrived; setBasemap publishes.
    this.map.on('error', (event: { error?: unknown }) => {
      // Tile and style failures of the basemap arrive here; tilesets report theirs per tile.
      if (!this.map.isStyleLoaded()) this.publishBasemap(false, messageOf(event.error))
    })
    this.publish({
      isOpen: true,
      projectId: options.projectId,
      basemap: { kind: options.basemap.kind, isLoaded: false, error: null },
      streaming: this.streaming,
      controls: this.controls,
      selectedFeature: null,
      frameStats: { renderedFrameCount: 0, lastFrameIntervalMs: 0 },
    })
    this.publishCamera()
    // A failed basemap is already published in the snapshot; the open itself succeeds.
    this.setBasemap(options.basemap).catch(() => {})
    this.updateLayers()
  }

  /** Switches the basemap style; deck layers survive MapLibre's style swap. */
  async setBasemap(basemap: CityBasemap): Promise<void> {
    if (basemap.kind === 'pmtiles' && this.basemapKind !== 'pmtiles') this.retainPmtilesProtocol()
    if (basemap.kind !== 'pmtiles' && this.basemapKind === 'pmtiles') this.releasePmtilesProtocol()
    this.basemapKind = basemap.kind
    this.publishBasemap(false, null)
    let style: StyleSpecification | string
    try {
      style =
        basemap.kind === 'pmtiles'
          ? await pmtilesStyle(basemap.url)
          : 'style' in basemap
            ? (basemap.style as unknown as StyleSpecification)
            : basemap.styleUrl
    } catch (error) {
      this.publishBasemap(false, messageOf(error))
      throw new EngineError('city.basemapFailed', messageOf(error))
    }
    if (this.isDisposed) return
    this.map.setStyle(style, { diff: false })
    this.map.once('style.load', () => this.publishBasemap(true, null))
  }

  /** Adds a tileset; its tiles start streaming at the next frame. */
  addTileset(source: CityTilesetSource): void {
    if (this.entries.has(source.id)) {
      throw new EngineError(
        'engine.invalidArgument',
        `Tileset ${source.id} is already open.`,
        source.id,
      )
    }
    this.entries.set(source.id, this.newEntry(source))
    this.updateLayers()
  }

  /** Removes a tileset; deck finalizes its layer, which destroys the loaders.gl tileset. */
  removeTileset(id: string): void {
    this.endStream(this.entry(id).stream)
    this.entries.delete(id)
    if (this.selection?.tilesetId === id) this.clearSelection()
    this.updateLayers()
  }

  setTilesetVisible(id: string, isVisible: boolean): void {
    const entry = this.entry(id)
    entry.source = { ...entry.source, isVisible }
    this.updateLayers()
  }

  setTilesetPlacement(id: string, placement: CityTilesetPlacement | null): void {
    const entry = this.entry(id)
    entry.source = { ...entry.source, placement }
    this.restream(entry)
    this.updateLayers()
  }

  setStreaming(settings: Partial<CityStreamingSettings>): void {
    this.streaming = { ...this.streaming, ...settings }
    for (const entry of this.entries.values()) this.restream(entry)
    this.publish({ streaming: this.streaming })
    this.updateLayers()
  }

  setControls(controls: Partial<CitySnapshot['controls']>): void {
    this.controls = { ...this.controls, ...controls }
    this.applyControls()
    this.publish({ controls: this.controls })
  }

  async flyTo(target: CityCameraTarget): Promise<void> {
    const destination = this.cameraDestination(target)
    const durationMs = target.durationMs
    await new Promise<void>((resolve) => {
      this.map.once('moveend', () => resolve())
      const options = {
        center: [destination.lng, destination.lat] as [number, number],
        ...(destination.zoom === undefined ? {} : { zoom: destination.zoom }),
        ...(destination.pitch === undefined ? {} : { pitch: destination.pitch }),
        ...(destination.bearing === undefined ? {} : { bearing: destination.bearing }),
      }
      if (durationMs === 0) this.map.jumpTo(options)
      else this.map.flyTo({ ...options, ...(durationMs ? { duration: durationMs } : {}) })
    })
  }

  /** Where a geographic point is drawn, in CSS pixels of the container. */
  projectToScreen(lng: number, lat: number, heightMeters = 0): { x: number; y: number } {
    const [x = 0, y = 0] = this.viewport().project([lng, lat, heightMeters])
    return { x, y }
  }

  /** The tileset, tile and batched feature drawn at a container point, or null. */
  pick(x: number, y: number): CityFeaturePick | null {
    const info = this.overlay.pickObject({ x, y, radius: 2, unproject3D: true }) as
      | (PickingInfo & { sourceTile?: Tile3D })
      | null
    if (!info?.picked || !info.layer) return null
    const tilesetId = this.layerTilesets.get(info.layer.id)
    const tile = (info.sourceTile ?? info.object) as Tile3D | undefined
    if (!tilesetId || !tile) return null
    const content = tile.content as TileContent | undefined
    const coordinate = info.coordinate
    const position =
      coordinate && coordinate.length >= 2
        ? { lng: coordinate[0]!, lat: coordinate[1]!, heightMeters: coordinate[2] ?? 0 }
        : null
    let featureId: number | null = null
    if (content?.instances) {
      // i3dm: deck's instance index is the batch id of the instance.
      featureId = info.index >= 0 ? info.index : null
    } else if (content?.gltf && position) {
      featureId = this.featureAtPosition(content, position)
    }
    if (position && featureId !== null) this.lastPickPosition = position
    return {
      tilesetId,
      tileId: tile.id,
      featureId,
      properties: content && featureId !== null ? featureProperties(content, featureId) : {},
      position,
    }
  }

  /** Selects (and highlights) one feature of a loaded tile, or clears with `featureId: null`. */
  selectFeature(tilesetId: string, tileId: string | undefined, featureId: number | null): void {
    const entry = this.entry(tilesetId)
    if (featureId === null) {
      this.clearSelection()
      return
    }
    const tile = this.loadedTiles(entry).find((candidate) => {
      if (tileId !== undefined) return candidate.id === tileId
      const content = candidate.content as TileContent | undefined
      return content ? featureId < batchLength(content) : false
    })
    if (!tile?.content) {
      throw new EngineError(
        'engine.invalidArgument',
        `No loaded tile of ${tilesetId} holds feature ${featureId}.`,
        `${tilesetId}/${tileId ?? ''}/${featureId}`,
      )
    }
    const content = tile.content as TileContent
    if (featureId < 0 || featureId >= batchLength(content)) {
      throw new EngineError(
        'engine.invalidArgument',
        `Tile ${tile.id} has no feature ${featureId}.`,
        `${tilesetId}/${tile.id}/${featureId}`,
      )
    }
    const primitives = content.gltf ? this.primitivesOf(content) : []
    const positions = featureTrianglePositions(primitives, featureId)
    this.selection = {
      tilesetId,
      tileId: tile.id,
      featureId,
      properties: featureProperties(content, featureId),
      highlight:
        positions.length > 0 && content.cartographicOrigin && content.modelMatrix
          ? { positions, origin: content.cartographicOrigin, modelMatrix: content.modelMatrix }
          : null,
    }
    this.publishSelection()
    this.updateLayers()
  }

  /** Removes the map, finalizes deck (and with it every loaders.gl tileset and its requests). */
  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    if (this.basemapKind === 'pmtiles') this.releasePmtilesProtocol()
    for (const entry of this.entries.values()) this.endStream(entry.stream)
    this.overlay.setProps({ layers: [] })
    this.map.removeControl(this.overlay)
    this.overlay.finalize()
    this.disposeFramePacing()
    this.map.remove()
    this.tilesLoader.forgetPrefetches()
    this.entries.clear()
    this.layerTilesets.clear()
    this.selection = null
  }

  private newEntry(source: CityTilesetSource): TilesetEntry {
    const entry: TilesetEntry = {
      source,
      // Replaced at once below; startStream needs the entry to exist first.
      stream: { ready: new Promise<never>(() => {}), layer: null, isEnded: true },
      generation: 0,
      tileset3d: null,
      loadState: 'loading',
      failure: null,
      center: null,
      errors: [],
      errorCount: 0,
      preview: null,
    }
    entry.stream = this.startStream(entry)
    return entry
  }

  /**
   * Starts the entry's stream for its current generation: the parse workers, the tileset.json,
   * the Tileset3D, and traversals with the map's camera until a deck layer adopts the stream.
   */
  private startStream(entry: TilesetEntry): TilesetStream {
    const generation = entry.generation
    const isCurrent = () =>
      this.entries.get(entry.source.id) === entry && entry.generation === generation
    const handlers = this.tileHandlers(entry, isCurrent)
    // `ready` is set just below; its callbacks need `stream` itself.
    const stream: TilesetStream = {
      ready: new Promise<never>(() => {}),
      layer: null,
      isEnded: false,
    }
    /** The adopting layer as deck currently holds it (deck swaps instances on every update). */
    const drawingLayer = () =>
      (stream.layer?.getCurrentLayer() ?? null) as unknown as Tile3DLayerInternals | null
    const url = entry.source.url
    // fetch() sends the request now, ahead of the map's synchronous start-up that follows in
    // the constructor; loaders.gl's load() would only send it after a few awaits.
    // The root content is what gets drawn first: a worker fetches and parses it now, while the
    // map starts here, and it is drawn as soon as it arrives (root-preview.ts). The worker reads
    // the tileset.json too; tile files are served immutable, so one of the two reads is cached.
    let isPreviewShown = false
    const rootPrefetched = this.tilesLoader.prefetchRoot(
      url,
      contentLoadOptions,
      (root, content) => {
        if (isCurrent() && !stream.isEnded)
          isPreviewShown = this.showRootPreview(entry, root, content)
      },
    )
    stream.ready = fetch(url)
      .then(async (response) => {
        if (!response.ok) {
          throw new Error(`The tileset ${url} could not be loaded (HTTP ${response.status}).`)
        }
        // loaders.gl's tile tree (every tile header parsed, then a Tile3D each) holds the main
        // thread for a while, and the worker's answer would wait behind it: the preview goes
        // first — parsed, then drawn in one frame — unless that takes long.
        await Promise.race([
          rootPrefetched.then(() => (isPreviewShown ? this.nextRender() : undefined)),
          delay(previewWaitMs),
        ])
        return parse(response, this.tilesLoader.loader, contentLoadOptions)
      })
      .then((tilesetJson) => {
        if (stream.isEnded) throw new EngineError('engine.disposed', 'The tileset was closed.')
        /**
         * Selects tiles for the map's camera at once. `selectTiles` would first wait a timer
         * turn, which the map's busy start-up delays by a frame or more before any request.
         */
        const traverseNow = () => {
          if (stream.isEnded || drawingLayer()) return
          const viewports = [this.viewport()]
          const traversed = tileset3d as unknown as {
            root: unknown
            roots: Record<string, unknown>
            lastUpdatedVieports: unknown
            doUpdate(viewports: unknown): void
          }
          // loaders.gl builds a second tile tree per viewport on its first traversal; the one
          // its constructor built serves instead (≈ 0.1 s of main thread per 1,000 tiles, and
          // `destroy()` frees only that tree). deck's layer traverses the same viewport id.
          traversed.roots[mapLibreViewId] ??= traversed.root
          traversed.lastUpdatedVieports = viewports
          traversed.doUpdate(viewports)
        }
        const tileset3d: Tileset3D = new Tileset3D(tilesetJson as never, {
          loadOptions: {
            ...contentLoadOptions,
            core: { ...contentLoadOptions.core, fetch: this.tilesLoader.fetch },
          },
          ...this.tilesetOptions(entry.source),
          onTileLoad: (tile: Tile3D) => {
            const layer = drawingLayer()
            if (layer) return layer._onTileLoad(tile)
            ;(tile as Tile3D & { tileDrawn?: boolean }).tileDrawn = false
            handlers.onTileLoad()
            traverseNow()
          },
          onTileUnload: (tile: Tile3D) => {
            const layer = drawingLayer()
            if (layer) layer._onTileUnload(tile)
            else handlers.onTileUnload()
          },
          onTileError: handlers.onTileError as never,
          onUpdate: () => drawingLayer()?.setNeedsUpdate(),
        })
        if (isCurrent()) {
          entry.tileset3d = tileset3d
          entry.loadState = 'ready'
          const center = tileset3d.cartographicCenter
          entry.center = center
            ? { lng: center[0]!, lat: center[1]!, heightMeters: center[2]! }
            : null
          this.publishTilesets()
        }
        void tileset3d.tilesetInitializationPromise.then(traverseNow)
        return tileset3d
      })
    stream.ready.catch((error: unknown) => {
      if (!isCurrent() || stream.isEnded) return
      entry.loadState = 'failed'
      entry.failure = messageOf(error)
      this.publishTilesets()
    })
    return stream
  }

  /** Resolves after the map's next drawn frame. */
  private nextRender(): Promise<void> {
    return new Promise((resolve) => {
      if (this.isDisposed) resolve()
      else this.map.once('render', () => resolve())
    })
  }

  /** Draws the root's content until loaders.gl draws a tile of its own; false when it cannot. */
  private showRootPreview(entry: TilesetEntry, root: RootTile, content: unknown): boolean {
    if (this.isDisposed || this.drawnTileCount(entry) > 0) return false
    const { placement } = entry.source
    try {
      entry.preview = rootPreviewTile(
        root,
        placement ? placementModelMatrix(placement) : undefined,
        content,
        mapLibreViewId,
      )
    } catch {
      // A bounding volume loaders.gl cannot place: no preview, loaders.gl reports it per tile.
      entry.preview = null
    }
    if (entry.preview) this.updateLayers()
    return entry.preview !== null
  }

  /** Tiles in view that loaders.gl's stream has drawn (the mesh layer marks them). */
  private drawnTileCount(entry: TilesetEntry): number {
    return (
      entry.tileset3d?.selectedTiles.filter(
        (tile) => (tile as Tile3D & { tileDrawn?: boolean }).tileDrawn === true,
      ).length ?? 0
    )
  }

  /** Lets go of a stream; one no layer adopted is destroyed here (an adopted one by deck). */
  private endStream(stream: TilesetStream): void {
    stream.isEnded = true
    stream.ready.then(
      (tileset3d) => {
        if (!stream.layer) tileset3d.destroy()
      },
      () => {},
    )
  }

  /** The per-tile callbacks of one stream generation, shared by the scene and its layer. */
  private tileHandlers(entry: TilesetEntry, isCurrent: () => boolean) {
    return {
      onTileLoad: () => {
        if (isCurrent()) this.publishTilesets()
      },
      onTileUnload: () => {
        if (isCurrent()) this.publishTilesets()
      },
      // loaders.gl calls it with (tile, message, url), whatever deck's typings say.
      onTileError: (tile: Tile3D, message: string, url: string) => {
        if (!isCurrent()) return
        entry.errorCount++
        entry.errors = [...entry.errors, { tileUrl: tile.contentUrl ?? url, message }].slice(
          -maximumListedTileErrors,
        )
        this.publishTilesets()
      },
    }
  }

  /** loaders.gl's streaming options for a tileset, from the scene's streaming settings. */
  private tilesetOptions(source: CityTilesetSource) {
    return {
      maximumMemoryUsage: this.streaming.memoryBudgetMB,
      maximumScreenSpaceError: this.streaming.maximumScreenSpaceError,
      // The setting means 3D Tiles pixels; loaders.gl assumes a 60° camera (screen-space-error.ts).
      viewDistanceScale: screenSpaceErrorScale(this.map.getVerticalFieldOfView()),
      // Above the budget, coarser tiles are chosen instead of overflowing memory.
      memoryAdjustedScreenSpaceError: true,
      throttleRequests: true,
      maxRequests: 16,
      ...(source.placement ? { modelMatrix: placementModelMatrix(source.placement) } : {}),
    }
  }

  private entry(id: string): TilesetEntry {
    const entry = this.entries.get(id)
    if (!entry) throw new EngineError('city.unknownTileset', `No tileset ${id} is open.`, id)
    return entry
  }

  private restream(entry: TilesetEntry): void {
    entry.generation++
    this.endStream(entry.stream)
    // Tileset3D takes the parsed JSON as its own: a new stream starts from a fresh copy.
    entry.stream = this.startStream(entry)
    entry.tileset3d = null
    entry.loadState = 'loading'
    entry.failure = null
    entry.errors = []
    entry.errorCount = 0
    entry.preview = null
    if (this.selection?.tilesetId === entry.source.id) this.clearSelection()
  }

  private clearSelection(): void {
    if (!this.selection) return
    this.selection = null
    this.publishSelection()
    this.updateLayers()
  }

  private layerFor(entry: TilesetEntry): Layer {
    const { source } = entry
    const layerId = `tileset-${source.id}-${entry.generation}`
    this.layerTilesets.set(layerId, source.id)
    const generation = entry.generation
    // Callbacks of a superseded layer generation must not touch the current entry.
    const isCurrent = () => this.entries.get(source.id) === entry && entry.generation === generation
    return new GuardedTile3DLayer({
      id: layerId,
      data: source.url,
      tilesetStream: entry.stream,
      visible: source.isVisible,
      pickable: true,
      // deck's PBR shading is the main per-pixel cost on a software GPU (measured by the
      // city-tiles bench); photogrammetry carries its lighting in its textures anyway.
      _subLayerProps: { scenegraph: { _lighting: 'flat' } },
      ...this.tileHandlers(entry, isCurrent),
    } as ConstructorParameters<typeof Tile3DLayer>[0])
  }

  private previewLayer(entry: TilesetEntry, preview: RootPreviewTile): Layer {
    return new TilesetMeshLayer({
      id: `tileset-preview-${entry.source.id}-${entry.generation}`,
      tiles: [preview as unknown as Tile3D],
      visible: entry.source.isVisible,
      pickable: false,
    })
  }

  private highlightLayer(selection: Selection): Layer | null {
    if (!selection.highlight) return null
    const { positions, origin, modelMatrix } = selection.highlight
    return new SimpleMeshLayer({
      id: `selection-${selection.tilesetId}-${selection.tileId}-${selection.featureId}`,
      data: [0],
      mesh: { positions: { value: positions, size: 3 } } as never,
      getPosition: () => [0, 0, 0],
      getColor: highlightColor,
      coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
      coordinateOrigin: origin as [number, number, number],
      modelMatrix: new Matrix4(modelMatrix),
      flatShading: true,
      pickable: false,
      // Drawn over everything: a selected building stays visible behind its neighbours.
      parameters: { depthCompare: 'always' },
    })
  }

  private updateLayers(): void {
    if (this.isDisposed) return
    this.layerTilesets.clear()
    const layers: Layer[] = [...this.entries.values()].flatMap((entry) =>
      entry.preview
        ? [this.previewLayer(entry, entry.preview), this.layerFor(entry)]
        : [this.layerFor(entry)],
    )
    const highlight = this.selection && this.highlightLayer(this.selection)
    if (highlight) layers.push(highlight)
    this.overlay.setProps({ layers })
    this.publishTilesets()
  }

  private loadedTiles(entry: TilesetEntry): Tile3D[] {
    return ((entry.tileset3d?.tiles ?? []) as Tile3D[]).filter((tile) => tile.contentAvailable)
  }

  private primitivesOf(content: TileContent): BatchedPrimitive[] {
    let primitives = this.primitivesByTile.get(content)
    if (!primitives) {
      primitives = content.gltf ? collectBatchedPrimitives(content.gltf) : []
      this.primitivesByTile.set(content, primitives)
    }
    return primitives
  }

  /** The batch id at a picked surface point, from the closest vertex of the tile's glTF. */
  private featureAtPosition(
    content: TileContent,
    position: { lng: number; lat: number; heightMeters: number },
  ): number | null {
    if (!content.cartographicOrigin || !content.modelMatrix) return null
    const primitives = this.primitivesOf(content)
    if (primitives.length === 0) return null
    // Picked point → east-north-up metres at the tile's origin → the glTF's scene space.
    const fixedFrame = Ellipsoid.WGS84.eastNorthUpToFixedFrame(
      Ellipsoid.WGS84.cartographicToCartesian(content.cartographicOrigin),
    )
    const pointFixed = Ellipsoid.WGS84.cartographicToCartesian([
      position.lng,
      position.lat,
      position.heightMeters,
    ])
    const pointEastNorthUp = new Matrix4(fixedFrame).invert().transformAsPoint(pointFixed)
    const pointScene = new Matrix4(content.modelMatrix).invert().transformAsPoint(pointEastNorthUp)
    const nearest = nearestBatchId(primitives, [pointScene[0]!, pointScene[1]!, pointScene[2]!])
    return nearest && nearest.distanceMeters <= featurePickToleranceMeters ? nearest.batchId : null
  }

  private cameraDestination(target: CityCameraTarget): {
    lng: number
    lat: number
    zoom?: number
    pitch?: number
    bearing?: number
  } {
    if ('lng' in target) return target
    const entry = this.entry(target.tilesetId)
    if (
      target.featureId !== undefined &&
      this.selection?.tilesetId === target.tilesetId &&
      this.selection.featureId === target.featureId
    ) {
      const at = this.selectionCenter() ?? this.lastPickPosition
      if (at) return { lng: at.lng, lat: at.lat, zoom: 18 }
    }
    if (!entry.center) {
      throw new EngineError(
        'city.tilesetNotReady',
        `Tileset ${target.tilesetId} has not loaded its tileset.json yet.`,
        target.tilesetId,
      )
    }
    const zoom = entry.tileset3d?.zoom
    return {
      lng: entry.center.lng,
      lat: entry.center.lat,
      ...(zoom !== undefined && Number.isFinite(zoom) ? { zoom: Math.min(zoom, 20) } : {}),
    }
  }

  /** Where the selected feature is: the centre of its triangles' bounds, on the globe. */
  private selectionCenter(): { lng: number; lat: number } | null {
    const highlight = this.selection?.highlight
    if (!highlight || highlight.positions.length < 3) return null
    const { positions, origin, modelMatrix } = highlight
    const low = [Infinity, Infinity, Infinity]
    const high = [-Infinity, -Infinity, -Infinity]
    for (let index = 0; index < positions.length; index++) {
      const axis = index % 3
      low[axis] = Math.min(low[axis]!, positions[index]!)
      high[axis] = Math.max(high[axis]!, positions[index]!)
    }
    const centerScene = low.map((value, axis) => (value + high[axis]!) / 2)
    // Scene space → east-north-up metres at the tile's origin → the globe.
    const centerMeters = new Matrix4(modelMatrix).transformAsPoint(centerScene)
    const fixedFrame = Ellipsoid.WGS84.eastNorthUpToFixedFrame(
      Ellipsoid.WGS84.cartographicToCartesian(origin),
    )
    const [lng, lat] = Ellipsoid.WGS84.cartesianToCartographic(
      new Matrix4(fixedFrame).transformAsPoint(centerMeters),
    )
    return Number.isFinite(lng) && Number.isFinite(lat) ? { lng: lng!, lat: lat! } : null
  }

  private viewport(): WebMercatorViewport {
    const canvas = this.map.getCanvas()
    const center = this.map.getCenter()
    return new WebMercatorViewport({
      // deck's MapLibre view: loaders.gl keeps one tile tree per viewport id, so the scene's own
      // traversals (before deck runs) must share deck's tree, not start a second one.
      id: mapLibreViewId,
      width: canvas.clientWidth,
      height: canvas.clientHeight,
      longitude: center.lng,
      latitude: center.lat,
      zoom: this.map.getZoom(),
      pitch: this.map.getPitch(),
      bearing: this.map.getBearing(),
    })
  }

  private applyControls(): void {
    const { minZoom, maxZoom } = cityZoomLimits({
      minDistanceFactor: this.controls.minDistanceFactor,
      maxDistanceFactor: this.controls.maxDistanceFactor,
      latitudeDegrees: this.map.getCenter().lat,
      viewportHeightPixels: this.map.getCanvas().clientHeight || 600,
    })
    this.map.setMinZoom(minZoom)
    this.map.setMaxZoom(maxZoom)
    this.map.scrollZoom.setWheelZoomRate(wheelZoomRate(this.controls.wheelScale))
  }

  private retainPmtilesProtocol(): void {
    if (pmtilesProtocolUsers++ === 0) {
      pmtilesProtocol = new Protocol()
      addProtocol('pmtiles', pmtilesProtocol.tile)
    }
  }

  private releasePmtilesProtocol(): void {
    if (--pmtilesProtocolUsers === 0) {
      removeProtocol('pmtiles')
      pmtilesProtocol = null
    }
  }

  private onRender(): void {
    const nowMs = performance.now()
    if (this.lastRenderAtMs > 0) this.lastFrameIntervalMs = nowMs - this.lastRenderAtMs
    this.lastRenderAtMs = nowMs
    this.renderedFrameCount++
    this.publish({
      frameStats: {
        renderedFrameCount: this.renderedFrameCount,
        lastFrameIntervalMs: this.lastFrameIntervalMs,
      },
    })
    // Tiles enter and leave the view on camera moves without a load event.
    this.publishTilesets()
  }

  private publishCamera(): void {
    const center = this.map.getCenter()
    this.publish({
      camera: {
        lng: center.lng,
        lat: center.lat,
        zoom: this.map.getZoom(),
        pitch: this.map.getPitch(),
        bearing: this.map.getBearing(),
      },
    })
  }

  private publishBasemap(isLoaded: boolean, error: string | null): void {
    if (this.isDisposed) return
    this.publish({ basemap: { kind: this.basemapKind, isLoaded, error } })
  }

  private publishSelection(): void {
    const selection = this.selection
    this.publish({
      selectedFeature: selection
        ? {
            tilesetId: selection.tilesetId,
            tileId: selection.tileId,
            featureId: selection.featureId,
            properties: selection.properties,
          }
        : null,
    })
  }

  /** Publishes tileset progress when it changed (it is polled on every drawn frame). */
  private publishTilesets(): void {
    if (this.isDisposed) return
    let isPreviewDropped = false
    const tilesets: CityTilesetState[] = [...this.entries.values()].map((entry) => {
      const tileset3d = entry.tileset3d
      const drawnByStream = this.drawnTileCount(entry)
      // The preview gives way once the stream drew, or settled without drawing (out of view).
      if (entry.preview && (drawnByStream > 0 || tileset3d?.isLoaded())) {
        entry.preview = null
        isPreviewDropped = true
      }
      return {
        id: entry.source.id,
        name: entry.source.name,
        url: entry.source.url,
        isVisible: entry.source.isVisible,
        placement: entry.source.placement ?? null,
        loadState: entry.loadState,
        failure: entry.failure,
        tilesLoaded: tileset3d ? this.loadedTiles(entry).length : 0,
        tilesInView: tileset3d?.selectedTiles.length ?? 0,
        // The mesh layer (and deck's scenegraph layer) mark a tile when they first draw it.
        tilesDrawn: drawnByStream + (entry.preview?.tileDrawn ? 1 : 0),
        isRootPreviewDrawn: entry.preview?.tileDrawn === true,
        isSettled: tileset3d?.isLoaded() ?? entry.loadState === 'failed',
        gpuMemoryBytes: tileset3d?.gpuMemoryUsageInBytes ?? 0,
        center: entry.center,
        errors: entry.errors,
        errorCount: entry.errorCount,
      }
    })
    if (isPreviewDropped) {
      // Publishes again from there, with the preview gone.
      this.updateLayers()
      return
    }
    const tileParsing = this.tilesLoader.counts()
    const key = JSON.stringify([tilesets, tileParsing])
    if (key === this.lastPublishedTilesets) return
    this.lastPublishedTilesets = key
    this.publish({
      tilesets,
      tileParsing,
      tilesLoaded: tilesets.reduce((sum, tileset) => sum + tileset.tilesLoaded, 0),
      memoryBytes: tilesets.reduce((sum, tileset) => sum + tileset.gpuMemoryBytes, 0),
    })
  }
}
