/**
 * The scene an offline package hands its viewer in `viewer/data.js`: written by the server
 * (server/modules/orders/offline-package-*.ts) and read by the viewer (engine/offline-viewer/),
 * one description of the format for both sides. Plain types, no schema: the viewer reads only
 * the package it was built into.
 */

/** A tileset as the viewer lists it. */
export interface ViewerTileset {
  id: string
  name: string
  /** Package path of the root tileset JSON. */
  root: string
  is_visible: boolean
  /** Where the user put it in the city editor, or null. */
  placement: { lng: number; lat: number; height_offset: number; heading: number } | null
}

/** The basemap a city package carries: its PMTiles archive, or the offline style's data. */
export type ViewerBasemap =
  | { kind: 'pmtiles'; file: string }
  | { kind: 'offline'; countries: string; places: string }

/** The project's IndoorGML network and where it sits (gml/gml.json). */
export interface ViewerGml {
  file: string
  offset: [number, number, number]
  rotation_deg: number
  scale: number
  display_mode: number
}

/**
 * A model of the project's model library (`/cityModel/*`, glTF binary or SBM) where the user put
 * it, with how its animation plays when the scene opens.
 */
export interface ViewerLibraryModel {
  id: string
  name: string
  /** Package path of its GLB or SBM (both glTF 2.0 binaries). */
  file: string
  /**
   * A city's longitude°, latitude° and metres above the ellipsoid; a building's scene metres
   * (x, y, z; y up), as the engine's `setLibraryModels` takes them.
   */
  position: [number, number, number]
  /** Degrees clockwise seen from above; 0 leaves the model's front (glTF +Z) facing south. */
  heading: number
  scale: number
  animation: { clip: number; speed: number; loop: boolean; autoplay: boolean }
}

/** The JSON `viewer/data.js` hands over. */
export interface ViewerPackageData {
  manifest: {
    variant: 'full' | 'trial'
    watermark: boolean
    project: { id: string; name: string; kind: string }
  }
  models: {
    floors: Array<{ id: string; name: string; elevation: number }>
    models: Array<{
      id: string
      name: string
      floor_id: string | null
      file: string | undefined
      position: [number, number, number]
      rotation: [number, number, number]
      scale: [number, number, number]
      is_visible: boolean
    }>
  }
  pois: Array<{
    id: string
    name: string
    category_id: string
    floor_id: string
    x: number
    y: number
    z: number
    /** Degrees: turn about the up axis (clockwise seen from above), then pitch, roll. */
    heading: number
    pitch: number
    roll: number
  }>
  templates: Array<{
    id: string
    name: string
    /** Package paths of its icon (a 3D template's: the model's preview) and a 3D template's SBM. */
    package: { icon: string | null; model: string | null }
  }>
  style: { setting: Record<string, unknown> } | null
  /** The project's IndoorGML network, or null. */
  gml: ViewerGml | null
  /** The project's centre (a city opens there when no tileset says where it is), or null. */
  center: { lng: number; lat: number } | null
  /** The project's tilesets (a city project's; older packages have none). */
  tilesets?: ViewerTileset[]
  /** A city project's basemap, or null. */
  basemap?: ViewerBasemap | null
  /** The project's library models (older packages have none). */
  library_models?: ViewerLibraryModel[]
  /** Package path → script that holds the file's bytes. */
  files: Record<string, string>
}
