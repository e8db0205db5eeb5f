import type { Layer } from '@deck.gl/core'
import type { Tile3DLayer } from '@deck.gl/geo-layers'
import type { Tile3D, Tileset3D } from '@loaders.gl/tiles'
import type { RootTile } from '../../workers/tile-parse/root-tile'
import type {
  CityStreamingSettings,
  CityTileError,
  CityTilesetPlacement,
  CityTilesetSource,
  CityTilesetState,
} from '../api/city-snapshot'
import { EngineError } from '../api/errors'
import type { WorkerTilesLoader } from '../workers/tile-parse-client'
import type { CitySceneContext } from './city-scene-parts'
import { GuardedTile3DLayer } from './guarded-tile-3d-layer'
import { isTileDrawn, mapLibreViewId } from './library-internals'
import { type RootPreviewTile, rootPreviewTile } from './root-preview'
import { mapViewport } from './map-viewport'
import { screenSpaceErrorScale } from './screen-space-error'
import {
  endTilesetStream,
  startTilesetStream,
  type TileHandlers,
  type TilesetStream,
} from './tileset-stream'
import {
  isGeoreferencedRoot,
  type LocatedVolume,
  locateVolume,
  type RootHeader,
  tilesetModelMatrix,
  topLevelTile,
} from './tileset-geometry'
import { TilesetMeshLayer } from './tileset-mesh-layer'

/** How many tile failures per tileset the snapshot lists; a broken tileset can fail thousands. */
const maximumListedTileErrors = 20

/**
 * How long a tileset's first content may keep the map drawing every frame (past GPU pacing)
 * until it is drawn: deck and the tile program are normally ready within a few frames.
 */
const firstContentUnpacedMs = 2000

/** What the scene keeps per tileset. */
export interface TilesetEntry {
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
  /** Whether tileset.json puts it on the globe; null until a root was read. */
  isGeoreferenced: boolean | null
  /** Whether anything of this generation was drawn yet (its preview or a tile). */
  hasDrawn: boolean
  /** Since when content waits for its first draw (null: none waits). */
  contentWaitingSinceMs: number | null
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * The tilesets part of a city scene: one entry per tileset with its current stream, the deck
 * layers that draw them (with a root preview first), restreaming when placement or streaming
 * limits change, and the tileset progress in the snapshot.
 */
export class TilesetStreams {
  private readonly entries = new Map<string, TilesetEntry>()
  /** deck layer id → tileset id, to name the tileset of a pick. */
  private readonly layerTilesets = new Map<string, string>()
  private lastPublished = ''

  constructor(
    private readonly context: CitySceneContext,
    private readonly tilesLoader: WorkerTilesLoader,
    private streaming: CityStreamingSettings,
    /** Where a tileset without georeference and without a placement is drawn. */
    private readonly defaultAnchor: { lng: number; lat: number },
    /** Called when a tileset's tiles go away (removed, restreamed): its selection must too. */
    private readonly onTilesetReset: (tilesetId: string) => void,
  ) {}

  get settings(): CityStreamingSettings {
    return this.streaming
  }

  /** Adds a tileset and starts its stream; the caller updates the layers. */
  add(source: CityTilesetSource): void {
    if (this.entries.has(source.id)) {
      throw new EngineError(
        'engine.invalidArgument',
        `Tileset ${source.id} is already open.`,
        source.id,
      )
    }
    this.entries.set(source.id, this.newEntry(source))
  }

  /** Removes a tileset; deck finalizes its layer, which destroys the loaders.gl tileset. */
  remove(id: string): void {
    endTilesetStream(this.entry(id).stream)
    this.entries.delete(id)
    this.onTilesetReset(id)
  }

  setVisible(id: string, isVisible: boolean): void {
    const entry = this.entry(id)
    entry.source = { ...entry.source, isVisible }
  }

  setPlacement(id: string, placement: CityTilesetPlacement | null): void {
    const entry = this.entry(id)
    entry.source = { ...entry.source, placement }
    this.restream(entry)
  }

  setStreaming(settings: Partial<CityStreamingSettings>): void {
    this.streaming = { ...this.streaming, ...settings }
    for (const entry of this.entries.values()) this.restream(entry)
  }

  /** The entry of an open tileset; `city.unknownTileset` otherwise. */
  entry(id: string): TilesetEntry {
    const entry = this.entries.get(id)
    if (!entry) throw new EngineError('city.unknownTileset', `No tileset ${id} is open.`, id)
    return entry
  }

  /** The tileset a deck layer (of a pick) draws. */
  tilesetOfLayer(layerId: string): string | undefined {
    return this.layerTilesets.get(layerId)
  }

  /**
   * Where a tileset, or one of its top-level parts (the root's children; 0 is the root itself
   * when it has none), is drawn — placement included. Waits for tileset.json; null when it
   * failed, the part does not exist, or it cannot be put on the globe.
   */
  async locate(id: string, partIndex?: number): Promise<LocatedVolume | null> {
    for (;;) {
      const entry = this.entry(id)
      const stream = entry.stream
      const tileset3d = await stream.ready.catch(() => null)
      // Restreamed meanwhile (placement, limits): ask the new stream.
      if (this.entries.get(id) !== entry || entry.stream !== stream) continue
      if (!tileset3d) return null
      await tileset3d.tilesetInitializationPromise
      const tile = topLevelTile(tileset3d.root as Tile3D | null, partIndex)
      return tile ? locateVolume(tile.boundingVolume) : null
    }
  }

  /** Tiles of a tileset whose content is in memory. */
  loadedTiles(entry: TilesetEntry): Tile3D[] {
    return ((entry.tileset3d?.tiles ?? []) as Tile3D[]).filter((tile) => tile.contentAvailable)
  }

  /** deck layers for every tileset: the root preview while there is one, then the stream. */
  layers(): Layer[] {
    this.layerTilesets.clear()
    return [...this.entries.values()].flatMap((entry) =>
      entry.preview
        ? [this.previewLayer(entry, entry.preview), this.layerFor(entry)]
        : [this.layerFor(entry)],
    )
  }

  /** Ends every stream (deck finalizes the layers that adopted one). */
  dispose(): void {
    for (const entry of this.entries.values()) endTilesetStream(entry.stream)
    this.entries.clear()
    this.layerTilesets.clear()
  }

  /** Publishes tileset progress when it changed (it is polled on every drawn frame). */
  publish(): void {
    if (this.context.isDisposed()) return
    let isPreviewDropped = false
    let isContentWaiting = false
    const tilesets: CityTilesetState[] = [...this.entries.values()].map((entry) => {
      const tileset3d = entry.tileset3d
      const drawnByStream = this.drawnTileCount(entry)
      if (drawnByStream > 0 || entry.preview?.tileDrawn) entry.hasDrawn = true
      if (this.isFirstContentWaiting(entry)) isContentWaiting = true
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
        isGeoreferenced: entry.isGeoreferenced,
        placementInForce: this.placementInForce(entry),
        isPlacedByDefault: !entry.source.placement && entry.isGeoreferenced === false,
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
    // A tileset's first content is seen in the very next frame, whatever the GPU pacing holds,
    // and again in the one after while it was not drawn yet (deck or the tile program may not
    // have been ready in the first): one paced frame more would cost up to its time bound.
    if (isContentWaiting) this.context.drawNextFrame()
    if (isPreviewDropped) {
      // Publishes again from there, with the preview gone.
      this.context.updateLayers()
      return
    }
    const tileParsing = this.tilesLoader.counts()
    const key = JSON.stringify([tilesets, tileParsing])
    if (key === this.lastPublished) return
    this.lastPublished = key
    this.context.publish({
      tilesets,
      tileParsing,
      tilesLoaded: tilesets.reduce((sum, tileset) => sum + tileset.tilesLoaded, 0),
      memoryBytes: tilesets.reduce((sum, tileset) => sum + tileset.gpuMemoryBytes, 0),
    })
  }

  private newEntry(source: CityTilesetSource): TilesetEntry {
    const entry: TilesetEntry = {
      source,
      // Replaced at once below; the stream needs the entry to exist first.
      stream: { ready: new Promise<never>(() => {}), layer: null, isEnded: true },
      generation: 0,
      tileset3d: null,
      loadState: 'loading',
      failure: null,
      center: null,
      errors: [],
      errorCount: 0,
      preview: null,
      isGeoreferenced: null,
      hasDrawn: false,
      contentWaitingSinceMs: null,
    }
    entry.stream = this.startStream(entry)
    return entry
  }

  /** Starts the entry's stream for its current generation. */
  private startStream(entry: TilesetEntry): TilesetStream {
    const isCurrent = this.currentCheck(entry)
    const stream = startTilesetStream({
      url: entry.source.url,
      tilesLoader: this.tilesLoader,
      isCurrent,
      handlers: this.tileHandlers(entry, isCurrent),
      tilesetOptions: (root) => this.tilesetOptions(entry, root),
      onCreated: (tileset3d) => {
        entry.tileset3d = tileset3d
        entry.loadState = 'ready'
        const center = tileset3d.cartographicCenter
        entry.center = center
          ? { lng: center[0]!, lat: center[1]!, heightMeters: center[2]! }
          : null
        this.publish()
      },
      showRootPreview: (root, content) => this.showRootPreview(entry, root, content),
      viewport: () => mapViewport(this.context.map),
      previewDrawn: async () => {
        while (entry.preview && !entry.preview.tileDrawn && !this.context.isDisposed()) {
          await this.context.nextRender()
        }
      },
    })
    stream.ready.catch((error: unknown) => {
      if (!isCurrent() || stream.isEnded) return
      entry.loadState = 'failed'
      entry.failure = messageOf(error)
      this.publish()
    })
    return stream
  }

  /** Callbacks of a superseded generation (or a removed tileset) must not touch the entry. */
  private currentCheck(entry: TilesetEntry): () => boolean {
    const generation = entry.generation
    return () => this.entries.get(entry.source.id) === entry && entry.generation === generation
  }

  private restream(entry: TilesetEntry): void {
    entry.generation++
    endTilesetStream(entry.stream)
    // Tileset3D takes the parsed JSON as its own: a new stream starts from a fresh copy.
    entry.stream = this.startStream(entry)
    entry.tileset3d = null
    entry.loadState = 'loading'
    entry.failure = null
    entry.errors = []
    entry.errorCount = 0
    entry.preview = null
    entry.hasDrawn = false
    entry.contentWaitingSinceMs = null
    this.onTilesetReset(entry.source.id)
  }

  /** Draws the root's content until loaders.gl draws a tile of its own; false when it cannot. */
  private showRootPreview(entry: TilesetEntry, root: RootTile, content: unknown): boolean {
    if (this.context.isDisposed() || this.drawnTileCount(entry) > 0) return false
    try {
      entry.preview = rootPreviewTile(root, this.modelMatrix(entry, root), content, mapLibreViewId)
    } catch {
      // A bounding volume loaders.gl cannot place: no preview, loaders.gl reports it per tile.
      entry.preview = null
    }
    if (entry.preview) {
      this.context.updateLayers()
      // The tileset's first content: drawn now when the map can, else in the next frame (not
      // after GPU pacing's hold).
      this.context.drawNow()
    }
    return entry.preview !== null
  }

  /**
   * Whether a visible tileset has content to show and nothing of it was drawn yet, for at most
   * {@link firstContentUnpacedMs} (a layer that cannot draw must not unpace the map for good).
   */
  private isFirstContentWaiting(entry: TilesetEntry): boolean {
    if (entry.hasDrawn || !entry.source.isVisible) {
      entry.contentWaitingSinceMs = null
      return false
    }
    const hasContent =
      entry.preview !== null ||
      (entry.tileset3d?.selectedTiles.some((tile) => tile.contentAvailable) ?? false)
    if (!hasContent) return false
    const nowMs = performance.now()
    entry.contentWaitingSinceMs ??= nowMs
    return nowMs - entry.contentWaitingSinceMs < firstContentUnpacedMs
  }

  /** Tiles in view that loaders.gl's stream has drawn (the mesh layer marks them). */
  private drawnTileCount(entry: TilesetEntry): number {
    return entry.tileset3d?.selectedTiles.filter((tile) => isTileDrawn(tile)).length ?? 0
  }

  /** The per-tile callbacks of one stream generation, shared by the stream and its layer. */
  private tileHandlers(entry: TilesetEntry, isCurrent: () => boolean): TileHandlers {
    return {
      onTileLoad: () => {
        if (!isCurrent()) return
        // Nothing of the tileset drawn yet: this tile is to be seen in the next frame.
        if (!entry.hasDrawn) this.context.drawNextFrame()
        this.publish()
      },
      onTileUnload: () => {
        if (isCurrent()) this.publish()
      },
      // loaders.gl calls it with (tile, message, url), whatever deck's typings say.
      onTileError: (tile: Tile3D, message: string, url: string) => {
        if (!isCurrent()) return
        entry.errorCount++
        entry.errors = [...entry.errors, { tileUrl: tile.contentUrl ?? url, message }].slice(
          -maximumListedTileErrors,
        )
        this.publish()
      },
    }
  }

  /** loaders.gl's streaming options for a tileset, from the scene's streaming settings. */
  private tilesetOptions(entry: TilesetEntry, root: RootHeader) {
    const modelMatrix = this.modelMatrix(entry, root)
    return {
      maximumMemoryUsage: this.streaming.memoryBudgetMB,
      maximumScreenSpaceError: this.streaming.maximumScreenSpaceError,
      // The setting means 3D Tiles pixels; loaders.gl assumes a 60° camera (screen-space-error.ts).
      viewDistanceScale: screenSpaceErrorScale(this.context.map.getVerticalFieldOfView()),
      // Above the budget, coarser tiles are chosen instead of overflowing memory.
      memoryAdjustedScreenSpaceError: true,
      throttleRequests: true,
      maxRequests: 16,
      ...(modelMatrix ? { modelMatrix } : {}),
    }
  }

  /**
   * The tileset's model matrix for its placement in force; learns from the root whether the
   * tileset is georeferenced (a tileset without georeference is drawn at the city's anchor).
   */
  private modelMatrix(entry: TilesetEntry, root: RootHeader) {
    entry.isGeoreferenced = isGeoreferencedRoot(root)
    return tilesetModelMatrix(this.placementInForce(entry), root)
  }

  private placementInForce(entry: TilesetEntry): CityTilesetPlacement | null {
    if (entry.source.placement) return entry.source.placement
    if (entry.isGeoreferenced !== false) return null
    return { ...this.defaultAnchor, heightOffset: 0, heading: 0 }
  }

  private layerFor(entry: TilesetEntry): Layer {
    const { source } = entry
    const layerId = `tileset-${source.id}-${entry.generation}`
    this.layerTilesets.set(layerId, source.id)
    return new GuardedTile3DLayer({
      id: layerId,
      data: source.url,
      tilesetStream: entry.stream,
      visible: source.isVisible,
      pickable: true,
      // deck's PBR shading is the main per-pixel cost on a software GPU (measured by the
      // city-tiles bench); photogrammetry carries its lighting in its textures anyway.
      _subLayerProps: { scenegraph: { _lighting: 'flat' } },
      ...this.tileHandlers(entry, this.currentCheck(entry)),
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
}
