/**
 * The building half of the engine snapshot, and the plain data the UI hands the engine to open a
 * building. Everything here is JSON-safe: no three.js or worker object ever reaches the UI.
 */

import { createInitialMaterialOverrideState, type MaterialOverrideState } from './material-commands'
import type { LibraryModelState } from './library-model-commands'
import type { PoiLayerState } from './poi-commands'
import { createInitialPoiStatusState, type PoiStatusState } from './poi-status-commands'
import { createInitialStyleState, type SceneStyleState } from './style-commands'
import { createInitialWalkState, type WalkState } from './walk-commands'
import { createInitialTrackState, type TrackLayerState } from './track-commands'

/** x, y, z (read-only, so a valtio snapshot of it type-checks where the engine's does). */
export type Vector3Tuple = readonly [number, number, number]

/** What a model is in a building structure (the SBM role). */
export type BuildingModelRole = 'shell' | 'floor' | 'model'

/** One model of a building scene, as the UI maps it from the server's `findModelInfo` answer. */
export interface BuildingModelDescription {
  /** The model's id on the server; the engine reports picks and load states under it. */
  id: string
  name: string
  role: BuildingModelRole
  /** The floor the model belongs to (hidden with it), or null for the shell and free models. */
  floorId: string | null
  /** Where the SBM file is served (absolute or relative to the page). */
  url: string
  /** The file's size as the server recorded it; progress uses it when no Content-Length comes. */
  sizeBytes: number
}

/** One floor of a building: its models are those listed in `modelIds`. */
export interface BuildingFloorDescription {
  id: string
  name: string
  /** Height of the floor's base above the building's origin; orders floors bottom-up. */
  elevationMeters: number
  modelIds: string[]
}

/**
 * Everything `building.open` needs, as plain data: the UI builds it from the server's
 * `/web/model/findModelInfo` answer, so the engine never talks to the /web/ API itself.
 */
export interface BuildingSceneDescription {
  projectId: string
  name: string
  /** The shell model's id (also listed in `models` with role 'shell'), or null. */
  shellModelId: string | null
  floors: BuildingFloorDescription[]
  models: BuildingModelDescription[]
}

/** Where a model's loading stands. */
export type ModelLoadState = 'loading' | 'success' | 'error'

/** Why a model failed to load. */
export type ModelLoadErrorCode = 'sbm.invalid' | 'sbm.downloadFailed' | 'engine.workerFailed'

/** A floor as the UI shows it in a floor list. */
export interface BuildingFloorState {
  id: string
  name: string
  elevationMeters: number
  /** The user's own switch (`building.setFloorVisible`). */
  isVisible: boolean
  /** Whether it is drawn now: visible and not above the selected floor. */
  isShown: boolean
}

/** A model as the UI shows it in a model list. */
export interface BuildingModelState {
  id: string
  name: string
  role: BuildingModelRole
  floorId: string | null
  loadState: ModelLoadState
  /** Set when `loadState` is 'error': what the user reads (e.g. the not-a-valid-SBM message). */
  errorMessage: string | null
  /** Why it failed, for the UI's translations: not an SBM, not downloadable, or a worker crash. */
  errorCode: ModelLoadErrorCode | null
  /** Triangles of the model once loaded, else 0. */
  triangleCount: number
  /** True when every picking BVH came stored in the file (none was built while loading). */
  hasStoredBvh: boolean
  /** The user's own switch (`building.setModelVisible`). */
  isVisible: boolean
  /** Whether it is drawn now (its own switch, its floor and, for the shell, the shell's switch). */
  isShown: boolean
}

/**
 * Where the building stands on the earth, as its anchors placed it (issue 18; the project's
 * `project_center` heading and scale): the scene is drawn east (+x), up (+y) and north (−z) of
 * the project's location, and the building's own frame — where its models, POIs, library models
 * and GML network are kept — is turned and scaled into it about its origin.
 */
export interface BuildingPlacement {
  /** Degrees clockwise from north of the model's +y axis (three.js −z), 0…360. */
  headingDegrees: number
  /** Model metres to earth metres (> 0). */
  scale: number
}

/**
 * The answer of a pick: what surface lies under a screen point. Points are in the building's
 * own frame (its placement not applied), the frame POIs, anchors and routes are kept in.
 */
export interface BuildingPick {
  /** Hit point in the building's own frame, metres. */
  point: Vector3Tuple
  /** Unit normal in the building's own frame, facing the viewer. */
  normal: Vector3Tuple
  /** From the camera to the point, scene metres (the placement's scale applied). */
  distance: number
  /**
   * Names the picked mesh: the glTF node's name, else the glTF mesh's name (exporters often
   * name only one of the two), else `mesh <index>` from the file's mesh list.
   */
  meshName: string
  modelId: string
  /** The floor of the picked model, or null for the shell and free models. */
  floorId: string | null
}

/** A storey of the loaded GML network, bottom-up. */
export interface GmlStoreyState {
  label: string
  /** Median height of its States, in the file's units (null when unknown). */
  elevation: number | null
  stateCount: number
}

/**
 * GML display modes (SPEC §9): 0 hide all, 1 nodes and paths, 2 nodes only, 3 paths only.
 * "Paths" are the Transitions and the found route.
 */
export type GmlDisplayMode = 0 | 1 | 2 | 3

/**
 * How the GML network sits in the building's scene. The file's coordinates are z-up; they are
 * turned to the scene's y-up first (file x → x, file z → up, file y → −z), then scaled,
 * rotated about the vertical axis by `rotationDeg` (counter-clockwise seen from above), then
 * moved by `offset` (scene metres). Picked points are mapped back by the inverse.
 */
export interface GmlPlacement {
  offset: Vector3Tuple
  rotationDeg: number
  scale: number
}

/** One State along a route. */
export interface GmlRouteStep {
  stateId: string
  /** The State's name in the file, or its id when it has none. */
  name: string
  storey: string
}

/** Where a route moves to another storey. */
export interface GmlFloorChange {
  fromStorey: string
  toStorey: string
  /** The first State on the new storey. */
  atStateId: string
}

/** One State of the loaded network, as the searchable State list shows it. */
export interface GmlStateEntry {
  stateId: string
  /** The State's name in the file, or its id when it has none. */
  name: string
  /** Label of its storey in the network (`GmlStoreyState.label`). */
  storey: string
  /**
   * Where it is drawn: scene metres with the current placement applied; null when the file
   * gives the State no position at all.
   */
  position: Vector3Tuple | null
}

/** The State a scene point snaps to. */
export interface GmlSnappedState {
  stateId: string
  /** The State's name in the file, or its id when it has none. */
  name: string
  storey: string
  /**
   * From the point to the State in scene metres (placement scale applied); measured in plan
   * only when a storey was named, since a point on a floor plan carries the floor's height.
   */
  distanceMeters: number
}

/** A route that was found. */
export interface GmlRoute {
  stateIds: string[]
  /** Length along the Transitions, in file units times the placement scale (metres). */
  lengthMeters: number
  floorChanges: GmlFloorChange[]
  steps: GmlRouteStep[]
}

/** The loaded GML network. */
export interface GmlState {
  isLoaded: boolean
  /** True while `gml.load` runs. */
  isLoading: boolean
  /**
   * Changes whenever a network is loaded or unloaded (unique in the page, never reused), so
   * what the UI read from a network (`gml.listStates`) is known to be stale when it changes.
   */
  networkRevision: number
  stateCount: number
  transitionCount: number
  storeys: GmlStoreyState[]
  displayMode: GmlDisplayMode
  placement: GmlPlacement
  /** The route drawn now, or null. */
  route: GmlRoute | null
  /** The colour the route is drawn in (the style's path colour; red without one). */
  routeColor: { r: number; g: number; b: number; a: number }
}

/** What the camera looks at, for the UI's zoom controls. */
export interface BuildingCameraState {
  /** From the camera to its orbit target, metres. */
  distance: number
  target: Vector3Tuple
  position: Vector3Tuple
  minDistance: number
  maxDistance: number
  minZoomFactor: number
  maxZoomFactor: number
  /** The wheel scale option the user chose (the effective speed is this × 0.5). */
  wheelScale: number
}

/** What the renderer holds and did last, for the leak checks and the status bar. */
export interface BuildingRenderState {
  /** Renders since the engine started (on demand: nothing changes, nothing renders). */
  renderCount: number
  drawCalls: number
  triangles: number
  /** GPU resources alive now (three.js `renderer.info.memory` / `programs`). */
  geometryCount: number
  textureCount: number
  programCount: number
}

/** What the UI may know about the open building scene (plain, JSON-safe). */
export interface BuildingSnapshot {
  readonly isOpen: boolean
  /**
   * Counts the buildings opened since the engine started; 0 while none is open. `building.open`
   * on an open building closes and opens it within one frame, so no snapshot shows it closed in
   * between: what the UI hands the scene (library models, material overrides), which the close
   * drops, is handed again when this changes.
   */
  readonly openRevision: number
  readonly projectId: string | null
  readonly name: string | null
  /** Bottom-up by elevation. */
  readonly floors: readonly BuildingFloorState[]
  /** The floor chosen with `building.selectFloor` (floors above it are hidden), or null = all. */
  readonly selectedFloorId: string | null
  readonly shell: {
    readonly modelId: string | null
    readonly isVisible: boolean
    /** 1 opaque; below 1 the shell is drawn translucent and picks pass through it. */
    readonly opacity: number
    readonly isShown: boolean
  }
  readonly models: readonly BuildingModelState[]
  /** The last answer of `pick.atScreenPoint` (shown as a marker), or null. */
  readonly lastPick: BuildingPick | null
  readonly camera: BuildingCameraState
  readonly gml: GmlState
  /** The POIs drawn in the building (issue 16). */
  readonly pois: PoiLayerState
  /** Device statuses of the POIs (issue 17). */
  readonly poiStatuses: PoiStatusState
  /** Material overrides drawn on meshes (issue 21). */
  readonly materials: MaterialOverrideState
  /** Models of the model library placed in the scene, and their animations (issue 21). */
  readonly libraryModels: readonly LibraryModelState[]
  /** Sky, weather, ground, fog and lights (issue 19); kept across buildings. */
  readonly style: SceneStyleState
  /** The WASD walk (issue 19 visit tools). */
  readonly walk: WalkState
  /** The placement the building is drawn with (null: unplaced, its own frame is the scene's). */
  readonly placement: BuildingPlacement | null
  /** The positioned objects drawn (`building.setTrackMarkers`). */
  readonly track: TrackLayerState
  /** Null until the scene has a canvas to render into. */
  readonly render: BuildingRenderState | null
}

/** The building zoom defaults (SPEC §9: building kind min base 1, max 1e7; factors start at 1). */
export const defaultBuildingCamera: BuildingCameraState = {
  distance: 0,
  target: [0, 0, 0],
  position: [0, 0, 0],
  minDistance: 1,
  maxDistance: 1e7,
  minZoomFactor: 1,
  maxZoomFactor: 1,
  wheelScale: 1,
}

/** The route's colour when the style names none (#ff3b30). */
export const defaultGmlRouteColor = { r: 255, g: 59, b: 48, a: 1 } as const

/** The GML part before any file is loaded. */
export function createInitialGmlState(): GmlState {
  return {
    isLoaded: false,
    isLoading: false,
    networkRevision: 0,
    stateCount: 0,
    transitionCount: 0,
    storeys: [],
    displayMode: 1,
    placement: { offset: [0, 0, 0], rotationDeg: 0, scale: 1 },
    route: null,
    routeColor: defaultGmlRouteColor,
  }
}

/** The POI layer with nothing in it (no scene open, or no POIs handed to it yet). */
export function createInitialPoiLayerState(): PoiLayerState {
  return {
    count: 0,
    drawnCount: 0,
    clusterCount: 0,
    selectedIds: [],
    hoveredId: null,
    hiddenGroupIds: [],
    ghostCount: 0,
    failedTemplateIds: [],
  }
}

/** The building snapshot with no scene open. */
export function createInitialBuildingSnapshot(): BuildingSnapshot {
  return {
    isOpen: false,
    openRevision: 0,
    projectId: null,
    name: null,
    floors: [],
    selectedFloorId: null,
    shell: { modelId: null, isVisible: true, opacity: 1, isShown: true },
    models: [],
    lastPick: null,
    camera: defaultBuildingCamera,
    gml: createInitialGmlState(),
    pois: createInitialPoiLayerState(),
    poiStatuses: createInitialPoiStatusState(),
    materials: createInitialMaterialOverrideState(),
    libraryModels: [],
    style: createInitialStyleState(),
    walk: createInitialWalkState(),
    placement: null,
    track: createInitialTrackState(),
    render: null,
  }
}
