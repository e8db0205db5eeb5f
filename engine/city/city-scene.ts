import type { Layer } from '@deck.gl/core'
import { MapLibreOverlay } from '@deck.gl/maplibre'
import { clearPrewarmedResources, Map as MapLibreMap, prewarm, setWorkerUrl } from 'maplibre-gl'
import mapLibreWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import 'maplibre-gl/dist/maplibre-gl.css'
import type {
  CityBasemap,
  CityCamera,
  CityCameraTarget,
  CityFeaturePick,
  CitySnapshot,
  CityStreamingSettings,
  CityTilesetPlacement,
  CityTilesetPointPick,
  CityTilesetSource,
  CityTilesetState,
} from '../api/city-snapshot'
import { createInitialPoiLayerState } from '../api/building-snapshot'
import type { WorkerTilesLoader } from '../workers/tile-parse-client'
import { BasemapController } from './basemap-controller'
import { CityCameraController } from './city-camera'
import type { CityPatch, CitySceneContext } from './city-scene-parts'
import { FeatureSelection } from './feature-selection'
import { markCityStep } from './first-render-marks'
import { attachMapControls, type MapControls } from './map-controls'
import {
  attachDeviceEarly,
  type GpuFramePacing,
  isOverlayReady,
  paceGpuFrames,
  preloadLumaDevice,
  updateOverlayLayersNow,
} from './library-internals'
import { createInitialDrawState } from '../api/draw-commands'
import { createInitialNavigationState } from '../api/navigate-commands'
import { createInitialTourState } from '../api/tour-commands'
import { createInitialTrackState } from '../api/track-commands'
import { CityDraw } from './draw/city-draw'
import { CityTracking } from './draw/city-tracking'
import { PathNavigation } from './draw/path-navigation'
import { ViewTour } from './draw/view-tour'
import { CityPois } from './pois/city-pois'
import { PoiDragHold } from './pois/poi-drag'
import { prepareTileMeshProgram } from './tile-mesh-renderer'
import { TilesetStreams } from './tileset-streams'
import { tilesetLocalPoint } from './tileset-placement'
import type { SceneStyle } from '../api/style-commands'
import { CityStyle } from './style/city-style'
import { CityLibraryModels } from './models/city-library-models'

export type { CityPatch } from './city-scene-parts'
export { createCityTilesLoader } from './tileset-stream'

// MapLibre's worker is bundled as its own file; MapLibre must be told where it went.
setWorkerUrl(mapLibreWorkerUrl)

/**
 * Starts what a map would start on the clock, when a container is attached (a city is about to
 * open), as the tile parse workers are: MapLibre's worker — made by the first map instead, it
 * loads and compiles MapLibre's 0.5 MB worker script while that map draws its first frames, on
 * the same cores; MapLibre keeps it for every later map until {@link releaseMapWorkers} — and
 * the luma.gl module deck waits for before its first draw (preloadLumaDevice).
 */
export function prepareCityMap(): void {
  // Only a head start: where no worker can start here (a host without Worker, as the dom tests'
  // jsdom), the map reports that itself when it opens; attaching must not fail for it.
  if (typeof Worker === 'function') prewarm()
  void preloadLumaDevice()
}

/** Lets MapLibre's prewarmed worker go (no container is attached any more). */
export function releaseMapWorkers(): void {
  clearPrewarmedResources()
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
  /** The style to draw the city with (null: the neutral look). */
  style: SceneStyle | null
}

/**
 * One open city: a MapLibre map in the container with a deck.gl overlay interleaved into its
 * WebGL context, composed of four parts — the basemap (basemap-controller.ts), the tileset
 * streams (tileset-streams.ts), the feature selection (feature-selection.ts) and the camera
 * (city-camera.ts). The scene owns the map and the overlay, rebuilds deck's layers from the
 * parts, and publishes frame statistics; nothing reaches the UI except through `publish`.
 */
export class CityScene {
  private readonly map: MapLibreMap
  private readonly overlay: MapLibreOverlay
  /** Parses tile contents in workers; shared by the scenes of one attached container. */
  private readonly tilesLoader: WorkerTilesLoader
  private readonly publish: (patch: CityPatch) => void
  private readonly basemap: BasemapController
  private readonly streams: TilesetStreams
  private readonly selection: FeatureSelection
  private readonly camera: CityCameraController
  /** Zoom, north and tilt for the UI's buttons; the scale bar and cursor position. */
  readonly mapControls: MapControls
  /** The POIs drawn in the city (issue 16). */
  readonly pois: CityPois
  /** Holds the camera gestures while a selected POI is dragged. */
  readonly poiDrag: PoiDragHold
  /** Drawing and the saved areas and paths (issue 18). */
  readonly draw: CityDraw
  /** Positioned objects' markers and trails (issue 18). */
  readonly tracking: CityTracking
  /** Flights along paths (issue 18). */
  readonly navigation: PathNavigation
  /** The view tour through saved viewpoints (issue 18). */
  readonly tour: ViewTour
  /** Sky, fog, lights and weather (issue 19). */
  readonly style: CityStyle
  /** glTF/SBM models of the model library and their animations (issue 21). */
  readonly libraryModels: CityLibraryModels
  private readonly framePacing: GpuFramePacing | null
  private isDisposed = false
  private renderedFrameCount = 0
  private lastRenderAtMs = 0
  private lastFrameIntervalMs = 0

  constructor(options: CitySceneOptions) {
    markCityStep('open')
    this.tilesLoader = options.tilesLoader
    this.tilesLoader.resetCounts()
    this.publish = options.publish
    const scene = this
    const context: CitySceneContext = {
      // The map is made below, after the streams: nothing reads it before then.
      get map() {
        return scene.map
      },
      publish: (patch) => this.publish(patch),
      updateLayers: () => this.updateLayers(),
      isDisposed: () => this.isDisposed,
      nextRender: () => this.nextRender(),
      drawNextFrame: () => this.framePacing?.drawNextFrame(),
      drawNow: () => this.drawNow(),
    }
    // Streams start first: their tileset.json requests go out ahead of the map's synchronous
    // start-up below.
    this.streams = new TilesetStreams(
      context,
      this.tilesLoader,
      options.streaming,
      { lng: options.camera.lng, lat: options.camera.lat },
      (id) => this.selection.clearIfOf(id),
    )
    for (const source of options.tilesets) this.streams.add(source)

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
    markCityStep('map-made')
    this.basemap = new BasemapController(this.map, options.basemap, this.publish)

    const gl = this.map.getCanvas().getContext('webgl2')
    if (gl) {
      attachDeviceEarly(gl)
      // Compiled and linked now, while the tileset loads, not in the frame of the first tile.
      prepareTileMeshProgram(gl)
    }
    // deck's layers are brought up to date before each map frame draws them (the overlay is made
    // just below, before the first frame).
    this.framePacing = gl
      ? paceGpuFrames(this.map, gl, undefined, () => updateOverlayLayersNow(this.overlay))
      : null
    markCityStep('device-attached')
    // No onLoad here: the overlay hands its props to deck on every update, and deck's own
    // onLoad (which starts following the map's moves) would be replaced.
    this.overlay = new MapLibreOverlay({ interleaved: true, layers: [] })
    this.map.addControl(this.overlay)
    markCityStep('overlay-added')
    this.selection = new FeatureSelection(context, this.overlay, this.streams)
    this.camera = new CityCameraController(context, options.controls, this.streams, this.selection)
    this.mapControls = attachMapControls(this.map, context.publish)
    this.pois = new CityPois(context, (x, y) => this.selection.pick(x, y))
    this.poiDrag = new PoiDragHold(
      this.map,
      (x, y) => this.pois.pickAt(x, y, false),
      (id) => this.pois.isSelected(id),
    )
    this.draw = new CityDraw(context)
    this.tracking = new CityTracking(context)
    this.navigation = new PathNavigation(context)
    this.tour = new ViewTour(context)
    this.style = new CityStyle({
      map: this.map,
      gl,
      publish: context.publish,
      setControls: (controls) => this.camera.setControls(controls),
    })

    this.libraryModels = new CityLibraryModels(context)

    this.map.on('render', () => this.onRender())
    this.publish({
      isOpen: true,
      projectId: options.projectId,
      basemap: this.basemap.initialState(),
      streaming: this.streams.settings,
      controls: this.camera.currentControls,
      selectedFeature: null,
      pois: createInitialPoiLayerState(),
      draw: createInitialDrawState(),
      track: createInitialTrackState(),
      navigation: createInitialNavigationState(),
      tour: createInitialTourState(),
      libraryModels: [],
      frameStats: { renderedFrameCount: 0, lastFrameIntervalMs: 0 },
    })
    this.camera.publish()
    if (options.style) this.style.apply(options.style)
    // A failed basemap is already published in the snapshot; the open itself succeeds.
    this.setBasemap(options.basemap).catch(() => {})
    this.updateLayers()
    markCityStep('scene-made')
  }

  /** Switches the basemap style; deck layers survive MapLibre's style swap. */
  setBasemap(basemap: CityBasemap): Promise<void> {
    return this.basemap.set(basemap)
  }

  /** Adds a tileset; its tiles start streaming at the next frame. */
  addTileset(source: CityTilesetSource): void {
    this.streams.add(source)
    this.updateLayers()
  }

  /** Removes a tileset; deck finalizes its layer, which destroys the loaders.gl tileset. */
  removeTileset(id: string): void {
    this.streams.remove(id)
    this.updateLayers()
  }

  setTilesetVisible(id: string, isVisible: boolean): void {
    this.streams.setVisible(id, isVisible)
    this.updateLayers()
  }

  setTilesetPlacement(id: string, placement: CityTilesetPlacement | null): void {
    this.streams.setPlacement(id, placement)
    this.updateLayers()
  }

  setStreaming(settings: Partial<CityStreamingSettings>): void {
    this.streams.setStreaming(settings)
    this.publish({ streaming: this.streams.settings })
    this.updateLayers()
  }

  setControls(controls: Partial<CitySnapshot['controls']>): void {
    this.camera.setControls(controls)
  }

  flyTo(target: CityCameraTarget): Promise<void> {
    return this.camera.flyTo(target)
  }

  /** The map's zoom now. */
  currentZoom(): number {
    return this.map.getZoom()
  }

  /** Where a geographic point is drawn, in CSS pixels of the container. */
  projectToScreen(lng: number, lat: number, heightMeters = 0): { x: number; y: number } {
    return this.camera.projectToScreen(lng, lat, heightMeters)
  }

  /** The tileset, tile and batched feature drawn at a container point, or null. */
  pick(x: number, y: number): CityFeaturePick | null {
    return this.selection.pick(x, y)
  }

  /**
   * The tileset point drawn at a container point in the tileset's own coordinates, given the
   * tilesets' states (their placements in force), or null.
   */
  pickTilesetPoint(
    x: number,
    y: number,
    tilesets: readonly CityTilesetState[],
  ): CityTilesetPointPick | null {
    const pick = this.selection.pick(x, y)
    if (!pick?.position) return null
    const tileset = tilesets.find((state) => state.id === pick.tilesetId)
    // a georeferenced tileset nobody placed: the frame a placement would move (its own ground)
    const frame =
      tileset?.placementInForce ??
      (tileset?.center
        ? { lng: tileset.center.lng, lat: tileset.center.lat, heightOffset: 0, heading: 0 }
        : null)
    if (!frame) return null
    const { tilesetId, position } = pick
    return { tilesetId, position, local: tilesetLocalPoint(frame, position) }
  }

  /** Picks at a container point and selects what was found (or clears the selection). */
  pickAndSelect(x: number, y: number): CityFeaturePick | null {
    return this.selection.pickAndSelect(x, y)
  }

  /** Selects (and highlights) one feature of a loaded tile, or clears with `featureId: null`. */
  selectFeature(tilesetId: string, tileId: string | undefined, featureId: number | null): void {
    this.selection.select(tilesetId, tileId, featureId)
  }

  /** Removes the map, finalizes deck (and with it every loaders.gl tileset and its requests). */
  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    this.basemap.dispose()
    this.streams.dispose()
    this.overlay.setProps({ layers: [] })
    this.map.removeControl(this.overlay)
    this.overlay.finalize()
    this.framePacing?.remove()
    this.mapControls.dispose()
    this.pois.dispose()
    this.draw.dispose()
    this.navigation.dispose()
    this.tour.dispose()
    this.style.dispose()
    this.libraryModels.dispose()
    this.map.remove()
    this.tilesLoader.forgetPrefetches()
    this.selection.dispose()
  }

  /**
   * Draws the map now instead of at its next animation frame, so content shown for the first
   * time (a tileset's root preview) is on screen at the browser's next frame, not one map frame
   * later — on a software GPU a map frame is tens to hundreds of ms. Only when the map can draw
   * it (style loaded, deck started); otherwise the next frame draws it, unheld by GPU pacing.
   */
  private drawNow(): void {
    this.framePacing?.drawNextFrame()
    if (this.isDisposed || !this.map.isStyleLoaded() || !isOverlayReady(this.overlay)) return
    // MapLibre's synchronous draw (through the pacing's wrapper, which lets it pass).
    this.map.redraw()
  }

  /** Resolves after the map's next drawn frame. */
  private nextRender(): Promise<void> {
    return new Promise((resolve) => {
      if (this.isDisposed) resolve()
      else this.map.once('render', () => resolve())
    })
  }

  private updateLayers(): void {
    if (this.isDisposed) return
    const layers: Layer[] = this.streams.layers()
    const highlight = this.selection.layer()
    if (highlight) layers.push(highlight)
    // Drawn areas and paths under the POIs, which are clicked more.
    layers.push(...this.draw.layers())
    layers.push(...this.tracking.layers())
    layers.push(...this.pois.layers())
    this.overlay.setProps({ layers })
    this.style?.keepOnTop()
    this.streams.publish()
  }

  private onRender(): void {
    const nowMs = performance.now()
    if (this.lastRenderAtMs > 0) this.lastFrameIntervalMs = nowMs - this.lastRenderAtMs
    this.lastRenderAtMs = nowMs
    this.renderedFrameCount++
    if (this.renderedFrameCount === 1) markCityStep('first-map-render')
    this.publish({
      frameStats: {
        renderedFrameCount: this.renderedFrameCount,
        lastFrameIntervalMs: this.lastFrameIntervalMs,
      },
    })
    // Tiles enter and leave the view on camera moves without a load event.
    this.streams.publish()
  }
}
