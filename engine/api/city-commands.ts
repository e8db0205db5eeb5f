import type {
  CityBasemap,
  CityCameraTarget,
  CityFeaturePick,
  CityStreamingSettings,
  CityTilesetPlacement,
  CityTilesetPointPick,
  CityTilesetSource,
} from './city-snapshot'
import type { DrawCommands } from './draw-commands'
import type { LibraryModelCommands } from './library-model-commands'
import type { NavigateCommands } from './navigate-commands'
import type { PoiCommands } from './poi-commands'
import type { CityPoiDragCommands } from './poi-drag-commands'
import type { PoiStatusCommands } from './poi-status-commands'
import type { StyleCommands } from './style-commands'
import type { TrackCommands } from './track-commands'
import type { TourCommands } from './tour-commands'

/**
 * Commands of the city half of the engine (MapLibre basemap, deck.gl, 3D Tiles), POIs included
 * (`city.setPois` …, see poi-commands.ts). `EngineCommands` extends this map, so each entry
 * needs a handler in engine/city.
 */
export interface CityCommands
  extends PoiCommands<'city'>,
    CityPoiDragCommands,
    PoiStatusCommands<'city'>,
    DrawCommands,
    TrackCommands,
    NavigateCommands,
    TourCommands,
    StyleCommands<'city'>,
    LibraryModelCommands<'city'> {
  /**
   * Gives the engine the element the city map lives in (null to let it go, which closes an open
   * city). MapLibre creates its own canvas inside it, so the element should be empty and sized.
   * With an element it resolves once the city engine's code (MapLibre, deck.gl, loaders.gl) is
   * loaded and its tile parse workers are started and warmed up, so an open that follows starts
   * at once. The workers stay until the element is let go; the cities opened in it share them.
   */
  'city.attachContainer': {
    args: { container: HTMLElement | null }
    result: undefined
  }
  /**
   * Opens a city project: the basemap, then the tilesets streamed in 3D Tiles. `center` is the
   * project's location: the camera starts there, and a tileset without georeference and
   * without a placement is drawn there. Resolves once the
   * map exists (the basemap and tiles keep loading; follow `snapshot.city`). Opening again closes
   * the previous city first. Fails with `city.noContainer` before `city.attachContainer`.
   */
  'city.open': {
    args: {
      projectId: string
      center: { lng: number; lat: number }
      /** MapLibre zoom; defaults to 16 (SPEC §9). */
      zoom?: number
      basemap: CityBasemap
      tilesets: readonly CityTilesetSource[]
      streaming?: Partial<CityStreamingSettings>
      /**
       * Keep each drawn frame readable (screenshots, pixel checks in tests). Off by default: it
       * costs a copy per frame on software GPUs.
       */
      keepDrawingBuffer?: boolean
    }
    result: undefined
  }
  /** Closes the open city: removes the map and the overlay and releases every tile. */
  'city.close': {
    args: undefined
    result: undefined
  }
  /**
   * Moves the camera: to a place, to a tileset or one of its top-level parts (`partIndex`, the
   * root's child; the view shows it whole), or to a feature that was picked (`{tilesetId,
   * featureId}` of the current selection), or so that several tilesets are seen together
   * (`tilesetIds`, e.g. the project's tilesets when it opens). A tileset still reading its tileset.json is waited
   * for; one that failed answers `city.tilesetNotReady`. Resolves when the flight ends.
   */
  'city.flyTo': {
    args: CityCameraTarget
    result: undefined
  }
  /** Replaces the basemap style; the tilesets stay loaded. */
  'city.setBasemap': {
    args: { basemap: CityBasemap }
    result: undefined
  }
  /** Adds a tileset to the open city (e.g. after an upload). Its id must be new. */
  'city.addTileset': {
    args: CityTilesetSource
    result: undefined
  }
  /** Removes a tileset and releases its tiles. */
  'city.removeTileset': {
    args: { id: string }
    result: undefined
  }
  /** Shows or hides a tileset; a hidden tileset keeps its tiles cached but draws nothing. */
  'city.setTilesetVisible': {
    args: { id: string; isVisible: boolean }
    result: undefined
  }
  /**
   * Places a tileset on the globe (for tilesets in local metres without georeference), or null
   * to draw it where its own transform says. The tileset reloads its tiles at the new place.
   */
  'city.setTilesetPlacement': {
    args: { id: string; placement: CityTilesetPlacement | null }
    result: undefined
  }
  /**
   * Streaming limits of every tileset: the tile cache budget and the screen-space error that
   * drives refinement. Tilesets restart streaming with the new limits.
   */
  'city.setStreaming': {
    args: Partial<CityStreamingSettings>
    result: undefined
  }
  /**
   * What is drawn at a point of the map (CSS pixels from the container's top-left): the tileset,
   * tile and batched feature with its batch-table properties, or null for the basemap.
   */
  'city.pickAtScreenPoint': {
    args: { x: number; y: number }
    result: CityFeaturePick | null
  }
  /**
   * The point of a tileset drawn at a point of the map, in the tileset's own coordinates (for an
   * anchor point picked in the model), or null where no tileset is drawn or the depth cannot be
   * read. Only tilesets are looked at: POIs, drawings and the basemap are passed through.
   */
  'city.pickTilesetPoint': {
    args: { x: number; y: number }
    result: CityTilesetPointPick | null
  }
  /**
   * Picks what is drawn at a point of the map (as `city.pickAtScreenPoint`) and selects and
   * highlights the batched feature found there; a point without a feature (the basemap, an
   * unbatched tile) clears the selection. The UI reads the selection from `snapshot.city`.
   */
  'city.pickAndSelect': {
    args: { x: number; y: number }
    result: CityFeaturePick | null
  }
  /**
   * Selects and highlights one batched feature of a loaded tile (a saved monomer model), or clears the
   * selection with `featureId: null`. Without `tileId` the first loaded tile holding that
   * feature id is used.
   */
  'city.selectFeature': {
    args: { tilesetId: string; tileId?: string; featureId: number | null }
    result: undefined
  }
  /** Where a geographic point appears in the container, in CSS pixels (for tests and overlays). */
  'city.projectToScreen': {
    args: { lng: number; lat: number; heightMeters?: number }
    result: { x: number; y: number }
  }
  /** Mouse-wheel zoom speed as one of the SPEC §9 wheel scale options (1 = the basic speed). */
  'city.setWheelScale': {
    args: { wheelScale: number }
    result: undefined
  }
  /**
   * Zoom limits as SPEC §9 factors of the base camera distances (min 0.5 m, max 2e8 m): a
   * smaller minimum factor lets the camera come closer, a bigger maximum factor go farther.
   */
  'city.setZoomLimits': {
    args: { minDistanceFactor: number; maxDistanceFactor: number }
    result: undefined
  }
  /** Zooms in (positive) or out (negative) by whole or fractional levels, animated. */
  'city.zoomBy': {
    args: { delta: number }
    result: undefined
  }
  /** Turns the map back to north up (bearing 0), keeping its tilt. */
  'city.resetNorth': {
    args: undefined
    result: undefined
  }
  /** Tilts the camera: 0 looks straight down, up to 85 degrees towards the horizon. */
  'city.setPitch': {
    args: { pitch: number }
    result: undefined
  }
}
