import { createInitialPoiLayerState } from './building-snapshot'
import { createInitialDrawState, type DrawLayerState } from './draw-commands'
import { createInitialNavigationState, type NavigationState } from './navigate-commands'
import { createInitialTourState, type TourState } from './tour-commands'
import { createInitialTrackState, type TrackLayerState } from './track-commands'
import type { LibraryModelState } from './library-model-commands'
import type { PoiLayerState } from './poi-commands'
import { createInitialPoiStatusState, type PoiStatusState } from './poi-status-commands'
import { createInitialStyleState, type SceneStyleState } from './style-commands'

/**
 * The basemap under the city: the offline default style (built by the UI from shipped Natural
 * Earth data, given inline or as a URL), an online MapLibre style URL, or a user's PMTiles file.
 */
export type CityBasemap =
  | { kind: 'offline'; styleUrl: string }
  | { kind: 'offline'; style: Record<string, unknown> }
  | {
      kind: 'online'
      styleUrl: string
      /**
       * Drawn when the online style fails to load (the offline style), so land stays in view;
       * the failure is still published in `snapshot.city.basemap`.
       */
      fallbackStyle?: Record<string, unknown>
    }
  | { kind: 'pmtiles'; url: string }

/** Where a tileset without georeference sits: its local origin on the globe, turned by heading. */
export interface CityTilesetPlacement {
  lng: number
  lat: number
  /** Metres above the ellipsoid of the tileset's local origin. */
  heightOffset: number
  /** Degrees clockwise from north of the tileset's local +Y axis. */
  heading: number
}

/** A 3D Tiles tileset to stream into the city. */
export interface CityTilesetSource {
  id: string
  name: string
  /** Address of its tileset.json (absolute, or relative to the page). */
  url: string
  placement?: CityTilesetPlacement | null
  isVisible: boolean
}

/** Streaming limits shared by the tilesets of the open city. */
export interface CityStreamingSettings {
  /** Tile cache budget per tileset; tiles out of view are released above it. */
  memoryBudgetMB: number
  /** Pixels of geometric error tolerated before a tile refines into its children. */
  maximumScreenSpaceError: number
}

/** Where `city.flyTo` goes. */
export type CityCameraTarget =
  | {
      lng: number
      lat: number
      zoom?: number
      pitch?: number
      bearing?: number
      /** 0 jumps; default lets MapLibre pick a duration. */
      durationMs?: number
    }
  | {
      tilesetId: string
      /** A top-level part: the index of the root's child (0 for a root without children). */
      partIndex?: number
      featureId?: number
      durationMs?: number
    }
  | {
      /** Frames these tilesets together (those that cannot be located are left out). */
      tilesetIds: readonly string[]
      durationMs?: number
    }

/** What `city.pickAtScreenPoint` found. */
export interface CityFeaturePick {
  tilesetId: string
  tileId: string
  /** Batch id within its tile (b3dm `_BATCHID`, i3dm instance), null for content without one. */
  featureId: number | null
  /** Batch-table properties of the feature (JSON-safe values). */
  properties: Record<string, unknown>
  /** The picked point on the surface, when the depth could be read. */
  position: { lng: number; lat: number; heightMeters: number } | null
}

/**
 * A point picked on a tileset's drawn surface in the tileset's own coordinates (`city.pickTilesetPoint`):
 * what an anchor point pairs with a longitude and latitude (issue 18).
 */
export interface CityTilesetPointPick {
  tilesetId: string
  /** Where it is on the globe. */
  position: { lng: number; lat: number; heightMeters: number }
  /**
   * Metres in the tileset's local frame: x east and y north of its origin before its heading
   * turned it, z up (a georeferenced tileset without a placement: east, north and up of the
   * ground under its centre, the frame a placement moves).
   */
  local: { x: number; y: number; z: number }
}

/** A tile whose content failed (404, glTF 1.0, a required extension without decoder …). */
export interface CityTileError {
  tileUrl: string
  message: string
}

/** How far one tileset has got. */
export interface CityTilesetState {
  id: string
  name: string
  url: string
  isVisible: boolean
  /** The saved placement (null: none saved). */
  placement: CityTilesetPlacement | null
  /** Whether tileset.json puts it on the globe itself; null until tileset.json is read. */
  isGeoreferenced: boolean | null
  /**
   * The placement it is drawn with: the saved one, else for a tileset without georeference the
   * city's own location (`isPlacedByDefault`); null when drawn where its georeference says.
   */
  placementInForce: CityTilesetPlacement | null
  isPlacedByDefault: boolean
  /** `failed` when tileset.json itself could not be loaded (see `failure`). */
  loadState: 'loading' | 'ready' | 'failed'
  failure: string | null
  /** Tiles whose content is in memory now. */
  tilesLoaded: number
  /** Tiles selected for the current view. */
  tilesInView: number
  /** Of the tiles in view, how many the map has drawn at least once. */
  tilesDrawn: number
  /**
   * The root tile is on screen drawn straight from tileset.json, while the tile tree is still
   * being built; false again once the stream draws its own tiles (or settles without any).
   */
  isRootPreviewDrawn: boolean
  /** Nothing is loading for the current view: what is drawn is what this view will show. */
  isSettled: boolean
  gpuMemoryBytes: number
  /** The tileset's centre on the globe (as drawn, placement included) once tileset.json is read. */
  center: { lng: number; lat: number; heightMeters: number } | null
  /** The most recent tile failures (capped); `errorCount` counts them all. */
  errors: readonly CityTileError[]
  errorCount: number
}

/**
 * Why the basemap could not be drawn, for the UI to say in the user's language (the raw
 * `error` text is for developers): the map proxy refused the address (`notAllowed`), the map
 * server could not be reached or failed (`unreachable`), the answer was too large, missing, or
 * not a style; `failed` for anything else.
 */
export type CityBasemapFailure =
  | 'notAllowed'
  | 'unreachable'
  | 'tooLarge'
  | 'notFound'
  | 'notStyle'
  | 'failed'

/** The tilt range of the city camera, in degrees from looking straight down. */
export const cityPitchRange = { min: 0, max: 85 } as const

/** A camera summary in MapLibre terms. */
export interface CityCamera {
  lng: number
  lat: number
  zoom: number
  pitch: number
  bearing: number
}

/** {@link PoiLayerState} with read-only lists, as a snapshot hands it out (and valtio mirrors it). */
export type ReadonlyPoiLayerState = {
  readonly [K in keyof PoiLayerState]: PoiLayerState[K] extends string[]
    ? readonly string[]
    : PoiLayerState[K]
}

/** What the UI may know about the open city scene (plain, JSON-safe). */
export interface CitySnapshot {
  readonly isOpen: boolean
  /**
   * Changes with every opening of a city; 0 while none is open. An open that replaces the open
   * city may never show `isOpen` false in a snapshot: what the UI hands the scene (library
   * models) is handed again when this changes (as `building.openRevision`).
   */
  readonly openRevision: number
  readonly hasContainer: boolean
  readonly projectId: string | null
  readonly basemap: {
    readonly kind: CityBasemap['kind']
    readonly isLoaded: boolean
    readonly error: string | null
    /** What kind of failure `error` is (null while there is none). */
    readonly failure: CityBasemapFailure | null
  } | null
  readonly camera: CityCamera
  /** Where the mouse points on the map, in degrees; null when it is off the map. */
  readonly pointer: { readonly lng: number; readonly lat: number } | null
  readonly tilesets: readonly CityTilesetState[]
  /** Sums over the tilesets. */
  readonly tilesLoaded: number
  readonly memoryBytes: number
  readonly streaming: CityStreamingSettings
  readonly controls: {
    readonly wheelScale: number
    readonly minDistanceFactor: number
    readonly maxDistanceFactor: number
  }
  readonly selectedFeature: {
    readonly tilesetId: string
    readonly tileId: string
    readonly featureId: number
    readonly properties: Record<string, unknown>
  } | null
  /** Map frames drawn since the city opened and the time between the last two. */
  readonly frameStats: {
    readonly renderedFrameCount: number
    readonly lastFrameIntervalMs: number
  }
  /** The POIs drawn in the city (issue 16). */
  readonly pois: ReadonlyPoiLayerState
  /** Device statuses of the POIs (issue 17), as `building.poiStatuses`. */
  readonly poiStatuses: PoiStatusState
  /** The draw tool, the shape just drawn and the saved shapes shown (issue 18). */
  readonly draw: DrawLayerState
  /** Positioned objects' markers and trails (issue 18). */
  readonly track: TrackLayerState
  /** The flight along a path (issue 18). */
  readonly navigation: NavigationState
  /** The view tour (issue 18). */
  readonly tour: TourState
  /** The scene style in force: sky, fog, lights, weather (issue 19). */
  readonly style: SceneStyleState
  /** Models of the model library placed on the map, and their animations (issue 21). */
  readonly libraryModels: readonly LibraryModelState[]
  /**
   * Where the open city's tile files were parsed: contents in the parse workers, tileset.json
   * files on the main thread (issue #7: content parsing stays off the main thread).
   */
  readonly tileParsing: {
    readonly contentsParsedInWorkers: number
    /** Contents only the main thread can parse (glTF with WebP/AVIF images). */
    readonly contentsParsedOnMainThread: number
    readonly tilesetsParsedOnMainThread: number
  }
}

/** SPEC §9 / decisions.md: a city opens at lon 121.6, lat 31.2, zoom 16. */
export const cityDefaultCamera: CityCamera = {
  lng: 121.6,
  lat: 31.2,
  zoom: 16,
  pitch: 0,
  bearing: 0,
}

/** Streaming limits before `city.setStreaming`: 3D Tiles' customary error of 16 px, 256 MB. */
export const cityDefaultStreaming: CityStreamingSettings = {
  memoryBudgetMB: 256,
  maximumScreenSpaceError: 16,
}

/** The city part of a fresh engine's snapshot. */
export function createInitialCitySnapshot(): CitySnapshot {
  return {
    isOpen: false,
    openRevision: 0,
    hasContainer: false,
    projectId: null,
    basemap: null,
    camera: cityDefaultCamera,
    pointer: null,
    tilesets: [],
    tilesLoaded: 0,
    memoryBytes: 0,
    streaming: cityDefaultStreaming,
    controls: { wheelScale: 1, minDistanceFactor: 1, maxDistanceFactor: 1 },
    selectedFeature: null,
    frameStats: { renderedFrameCount: 0, lastFrameIntervalMs: 0 },
    pois: createInitialPoiLayerState(),
    poiStatuses: createInitialPoiStatusState(),
    draw: createInitialDrawState(),
    track: createInitialTrackState(),
    navigation: createInitialNavigationState(),
    tour: createInitialTourState(),
    style: createInitialStyleState(),
    libraryModels: [],
    tileParsing: {
      contentsParsedInWorkers: 0,
      contentsParsedOnMainThread: 0,
      tilesetsParsedOnMainThread: 0,
    },
  }
}
