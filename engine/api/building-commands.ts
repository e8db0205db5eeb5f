import type {
  BuildingPick,
  BuildingPlacement,
  BuildingSceneDescription,
  GmlDisplayMode,
  GmlPlacement,
  GmlRoute,
  GmlSnappedState,
  GmlStateEntry,
  Vector3Tuple,
} from './building-snapshot'
import type { LibraryModelCommands } from './library-model-commands'
import type { MaterialCommands } from './material-commands'
import type { PoiCommands } from './poi-commands'
import type { PoiStatusCommands } from './poi-status-commands'
import type { StyleCommands } from './style-commands'
import type { BuildingTrackCommands } from './track-commands'
import type { VisitCommands } from './visit-commands'
import type { WalkCommands } from './walk-commands'

export type {
  BuildingFloorDescription,
  BuildingModelDescription,
  BuildingPick,
  BuildingSceneDescription,
  GmlDisplayMode,
  GmlPlacement,
  GmlRoute,
  GmlSnappedState,
  GmlStateEntry,
} from './building-snapshot'

/** One end of a route: a State of the network, or a scene point snapped to the nearest State. */
export type GmlRouteEndpoint = { stateId: string } | { point: Vector3Tuple }

/** What `gml.route` answers: the route (also drawn and put in the snapshot), or why there is none. */
export type GmlRouteAnswer = GmlRoute | { stateIds: null; reason: 'unreachable' }

/** What `building.open` resolves to once every model has settled (loaded or failed). */
export interface BuildingOpenResult {
  loadedModelIds: string[]
  failedModelIds: string[]
}

/** What `gml.load` resolves to. */
export interface GmlLoadResult {
  stateCount: number
  transitionCount: number
  storeyLabels: string[]
  /** The placement in force: the one asked for, or the one fitted onto the building. */
  placement: GmlPlacement
}

/**
 * Commands of the building half of the engine (three.js scene, SBM models, floors, picking,
 * GML networks, POIs). `EngineCommands` extends this map, so each entry needs a handler in
 * engine/building.
 */
export interface BuildingCommands
  extends PoiCommands<'building'>,
    PoiStatusCommands<'building'>,
    StyleCommands<'building'>,
    VisitCommands,
    WalkCommands,
    MaterialCommands,
    LibraryModelCommands<'building'>,
    BuildingTrackCommands {
  /**
   * Opens a building: fetches every model (byte progress in `snapshot.loading`), decodes it in
   * the SBM decode workers, registers its stored BVHs in the picking worker and renders. Each
   * model's load state is in `snapshot.building.models`; a model that fails does not stop the
   * others. Any open scene is disposed first. Resolves when every model has settled.
   */
  'building.open': {
    args: { description: BuildingSceneDescription }
    result: BuildingOpenResult
  }
  /** Closes the building scene and frees everything it held (GPU resources, worker state). */
  'building.close': { args: undefined; result: undefined }
  /**
   * Chooses a floor as the floor-select visit tool does: only that floor's models are drawn
   * (the other floors, the shell and models on no floor are hidden), so it is seen alone. Null
   * shows every floor again.
   */
  'building.selectFloor': { args: { floorId: string | null }; result: undefined }
  /** Shows or hides one floor (its models). Floors are drawn lifted by their elevation. */
  'building.setFloorVisible': { args: { floorId: string; isVisible: boolean }; result: undefined }
  /** Shows or hides the shell. */
  'building.setShellVisible': { args: { isVisible: boolean }; result: undefined }
  /**
   * Makes the shell translucent (0..1; 1 opaque). Below 1 it is drawn blended without writing
   * depth, and picks pass through it to what is inside, which is what the translucent visit
   * tool is for.
   */
  'building.setShellOpacity': { args: { opacity: number }; result: undefined }
  /** Shows or hides one model. */
  'building.setModelVisible': { args: { modelId: string; isVisible: boolean }; result: undefined }
  /** Moves the camera so the shown models and the network (or the one model named) fill the view. */
  'building.fitToModel': { args: { modelId?: string }; result: undefined }
  /**
   * Places the camera at `position` looking at `target` (scene metres); the orbit pivots about
   * `target` afterwards. The distance is kept inside the zoom limits.
   */
  'building.setCamera': {
    args: { position: Vector3Tuple; target: Vector3Tuple }
    result: undefined
  }
  /**
   * Zoom limits as SPEC §9 factors of the building base distances (minimum distance
   * 1 m × minDistanceFactor, maximum 1e7 m × maxDistanceFactor; the UI offers 1…0.1 and 1…10).
   * Same shape as `city.setZoomLimits`.
   */
  'building.setZoomLimits': {
    args: { minDistanceFactor: number; maxDistanceFactor: number }
    result: undefined
  }
  /**
   * Renders now and counts the canvas pixels that differ from the background, read back in the
   * same task (the drawing buffer is not kept after compositing). Tells a drawn scene from a
   * blank canvas, for e2e checks and diagnostics.
   */
  'building.countDrawnPixels': {
    args: undefined
    result: {
      drawnPixelCount: number
      totalPixelCount: number
      /** The colour (0–255) at the canvas centre, for checks where the colour is the point. */
      centreRgb: Vector3Tuple
    }
  }
  /**
   * Mouse-wheel zoom speed as one of the SPEC §9 wheel scale options (1…2.5; the speed is this
   * × 0.5). Same shape as `city.setWheelScale`.
   */
  'building.setWheelScale': { args: { wheelScale: number }; result: undefined }
  /**
   * Picks the shown surface under a point of the canvas (CSS pixels from its top-left) in the
   * picking worker. The engine owns the answer: it becomes `snapshot.building.lastPick` (what
   * the info box shows) and is marked in the scene, until the next pick or `building.clearPick`.
   * Same shape as `city.pickAtScreenPoint`.
   */
  'building.pickAtScreenPoint': { args: { x: number; y: number }; result: BuildingPick | null }
  /** Forgets the recorded pick: `snapshot.building.lastPick` becomes null and the marker goes. */
  'building.clearPick': { args: undefined; result: undefined }
  /**
   * Draws the building (models, POIs, library models, GML network, pick marker) turned and
   * scaled by its stored placement (null: as modelled). Picks keep answering the building's own
   * frame. Kept across `building.open` (the UI sets each project's); a scene whose camera the
   * user has not moved is framed again.
   */
  'building.setPlacement': { args: { placement: BuildingPlacement | null }; result: undefined }
  /**
   * Hover picking: like `building.pickAtScreenPoint` but not recorded, and when a newer hover
   * was sent before this one was answered, this one resolves `{ isStale: true }` without a pick.
   */
  'building.hoverAtScreenPoint': {
    args: { x: number; y: number }
    result: { isStale: false; pick: BuildingPick | null } | { isStale: true }
  }
  /**
   * Loads an IndoorGML file into the open building (fetched with progress, parsed in the
   * routing worker) and draws its network over the models, where `placement` says; without
   * one, the network is fitted onto the loaded models (their middle in plan, their base) and
   * that placement is reported. Until the user moved the camera, the view frames it. Closing
   * the building unloads it. Fails with 'Failed to load GML file.' (`gml.loadFailed`); the
   * previous network stays then.
   */
  'gml.load': { args: { url: string; placement?: GmlPlacement }; result: GmlLoadResult }
  /** Removes the network and its route, and stops the routing worker. */
  'gml.unload': { args: undefined; result: undefined }
  /** 0 hide all, 1 nodes and paths, 2 nodes only, 3 paths only. */
  'gml.setDisplayMode': { args: { mode: GmlDisplayMode }; result: undefined }
  /** Aligns the network with the model; drawing and point snapping both use it. */
  'gml.setPlacement': { args: GmlPlacement; result: undefined }
  /**
   * Finds the shortest route between two States or scene points (snapped to the nearest State)
   * and draws it on top of everything.
   */
  'gml.route': { args: { from: GmlRouteEndpoint; to: GmlRouteEndpoint }; result: GmlRouteAnswer }
  /**
   * Every State of the loaded network (id, name, storey, scene position under the current
   * placement), in file order, answered by the routing worker that holds the graph, so the UI
   * never fetches or parses the file itself. Fails with `gml.notLoaded` when no network is.
   */
  'gml.listStates': { args: undefined; result: GmlStateEntry[] }
  /**
   * The connected State nearest a scene point (through the inverse placement), the same State
   * `gml.route` would start or end at for that point; optionally only on one storey (a label
   * of `snapshot.building.gml.storeys`, else `engine.invalidArgument`). Null when the network
   * has no connected State there.
   */
  'gml.snapPoint': {
    args: { point: Vector3Tuple; storey?: string }
    result: GmlSnappedState | null
  }
  /** Removes the drawn route. */
  'gml.clearRoute': { args: undefined; result: undefined }
}
