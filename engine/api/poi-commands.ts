/** x, y, z; the same shape as the snapshots' `Vector3Tuple` (not imported: the building snapshot imports this module). */
type Vector3Tuple = readonly [number, number, number]

/**
 * POIs as the two scenes draw them (issue 16). Both halves take the same shapes under the same
 * command names (`city.setPois` / `building.setPois` …); only the meaning of `position`
 * differs: the city uses WGS84 (longitude°, latitude°, height in metres above the ellipsoid),
 * the building its own scene metres (the space of `BuildingPick.point`).
 *
 * The UI owns the records (it loads them from the server and edits them optimistically) and
 * hands the scene what to draw; the engine owns how: atlases, instancing, clustering, label
 * decluttering, hover and selection. The UI never touches a deck.gl or three.js object.
 */
export interface ScenePoi {
  id: string
  /** The template it is made from (its look comes from `setPoiLooks`). */
  templateId: string
  /** The label drawn next to the marker; '' draws none. */
  label: string
  position: Vector3Tuple
  /** Degrees, −180..180: turn about the up axis (clockwise seen from above), then pitch, roll. */
  heading: number
  pitch: number
  roll: number
  /** Building only: the floor it stands on; hidden with that floor. Null: on no floor. */
  floorId?: string | null
  /** The group that POI classify shows or hides it with (its template's category id). */
  groupId: string
}

/** How the POIs of one template are drawn. */
export interface PoiTemplateLook {
  templateId: string
  /** 2D: an icon sprite that faces the camera. 3D: an instance of the template's model. */
  kind: '2D' | '3D'
  /** The icon (2D), or the model's preview picture (3D, drawn while its model loads or fails). */
  iconUrl: string
  /** 3D only: the template's SBM model address. */
  modelUrl?: string
}

/** What is under a point of the canvas for placing a POI: a surface point and its normal. */
export interface PoiSurfacePoint {
  /** City: [lng°, lat°, height m]; building: scene metres. */
  position: Vector3Tuple
  /** Unit normal facing the viewer, in the scene's frame (city: east, north, up). */
  normal: Vector3Tuple
  /**
   * What was hit: the basemap (city, height 0), a tileset, a building model, or the ground under
   * the building (asked for with `orGround`).
   */
  surface: 'basemap' | 'tileset' | 'model' | 'ground'
  /** Building only: the floor of the hit model, null for the shell and free models. */
  floorId?: string | null
}

/** The POI layer of a scene, in its snapshot (`snapshot.city.pois`, `snapshot.building.pois`). */
export interface PoiLayerState {
  /** POIs handed to the scene. */
  count: number
  /** Markers drawn in the last frame, clusters counted once. */
  drawnCount: number
  /** Clusters drawn in the last frame (POIs too close on screen to draw apart). */
  clusterCount: number
  selectedIds: string[]
  hoveredId: string | null
  hiddenGroupIds: string[]
  /** Copy-preview ghosts drawn. */
  ghostCount: number
  /** Templates whose 3D model failed to load (their POIs fall back to the preview picture). */
  failedTemplateIds: string[]
}

/**
 * POI commands, the same for both halves; `Prefix` is 'city' or 'building'. Each half's
 * command map extends `PoiCommands<'city'>` / `PoiCommands<'building'>` once its handlers exist.
 */
export type PoiCommands<Prefix extends 'city' | 'building'> = {
  /** The looks of the templates the POIs use; a POI whose template has no look is not drawn. */
  [K in `${Prefix}.setPoiLooks`]: { args: { looks: PoiTemplateLook[] }; result: undefined }
} & {
  /** Replaces every POI of the scene (up to 100,000 and more). */
  [K in `${Prefix}.setPois`]: { args: { pois: ScenePoi[] }; result: undefined }
} & {
  /** Adds or changes some POIs (by id), e.g. an optimistic edit before the server answered. */
  [K in `${Prefix}.upsertPois`]: { args: { pois: ScenePoi[] }; result: undefined }
} & {
  /** Removes POIs by id (unknown ids are ignored). */
  [K in `${Prefix}.removePois`]: { args: { ids: string[] }; result: undefined }
} & {
  /** POI classify: hides the POIs of these groups (every other group is shown). */
  [K in `${Prefix}.setHiddenPoiGroups`]: { args: { groupIds: string[] }; result: undefined }
} & {
  /** Selects (highlights) these POIs; [] clears. */
  [K in `${Prefix}.selectPois`]: { args: { ids: string[] }; result: undefined }
} & {
  /**
   * The POI under a point of the canvas (CSS pixels from its top-left), or null. With
   * `select` it also becomes the selection (null clears it).
   */
  [K in `${Prefix}.pickPoiAtScreenPoint`]: {
    args: { x: number; y: number; select?: boolean }
    result: { poiId: string } | null
  }
} & {
  /** Marks the POI under the pointer as hovered (`hoveredId`); null when none. */
  [K in `${Prefix}.hoverPoiAtScreenPoint`]: {
    args: { x: number; y: number }
    result: { poiId: string } | null
  }
} & {
  /** The surface under a point of the canvas where a POI would be placed, or null (sky). */
  [K in `${Prefix}.surfacePointAtScreenPoint`]: {
    args: {
      x: number
      y: number
      /**
       * Building: when no model is hit, answer the ground under the building there (a library
       * model placed beside it); POIs go on the building only. The city always has its basemap.
       */
      orGround?: boolean
    }
    result: PoiSurfacePoint | null
  }
} & {
  /** Copy preview: draws these as translucent ghosts (not pickable); [] removes them. */
  [K in `${Prefix}.setPoiGhosts`]: { args: { pois: ScenePoi[] }; result: undefined }
} & {
  /** Flies the camera to a POI (list click). */
  [K in `${Prefix}.flyToPoi`]: { args: { id: string }; result: undefined }
} & {
  /** Where a scene position appears on the canvas, CSS pixels (tests and overlays). */
  [K in `${Prefix}.poiToScreen`]: {
    args: { position: Vector3Tuple }
    result: { x: number; y: number; isVisible: boolean }
  }
}
