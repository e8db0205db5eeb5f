/**
 * How the offline viewer reads its package under `file://`, where Chromium refuses `fetch` and
 * module scripts of local files: every file it needs is a classic script beside it that hands
 * its content to a global callback. `viewer/data.js` holds the scene's JSON; each file it shows
 * (SBM, icon, GML, tileset JSON and tiles, basemap) is `viewer/files/<n>.js` holding base64,
 * loaded with a `<script>` element on demand.
 */

/** A tileset as `viewer/data.js` lists it (server: offline-package-city.ts). */
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

/** The JSON the package's `viewer/data.js` hands over (see offline-package-viewer.ts). */
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
  }>
  templates: Array<{
    id: string
    name: string
    package: { icon: string | null; model: string | null }
  }>
  style: { setting: Record<string, unknown> } | null
  /** The project's IndoorGML network and where it sits (gml/gml.json), or null. */
  gml: {
    file: string
    offset: [number, number, number]
    rotation_deg: number
    scale: number
    display_mode: number
  } | null
  /** The project's centre (a city opens there when no tileset says where it is), or null. */
  center: { lng: number; lat: number } | null
  /** The project's tilesets (a city project's; older packages have none). */
  tilesets?: ViewerTileset[]
  /** A city project's basemap, or null. */
  basemap?: ViewerBasemap | null
  /** Package path → script that holds the file's bytes. */
  files: Record<string, string>
}

declare global {
  interface Window {
    twinscapePackage?: (data: ViewerPackageData) => void
    twinscapeFile?: (path: string, base64: string) => void
  }
}

/** Reads `viewer/data.js` (the scene's JSON). */
export function loadPackageData(): Promise<ViewerPackageData> {
  return new Promise((resolve, reject) => {
    window.twinscapePackage = resolve
    addScript('viewer/data.js', reject)
  })
}

/** Readers of each file whose script is on its way (two tiles may ask for one file at once). */
const waiting = new Map<
  string,
  Array<{ resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void }>
>()

/** Reads one binary file of the package through its script; rejects when the script is missing. */
export function loadPackageFile(data: ViewerPackageData, path: string): Promise<Uint8Array> {
  const script = data.files[path]
  if (script === undefined) return Promise.reject(new Error(`not in the package: ${path}`))
  window.twinscapeFile ??= (filePath, base64) => {
    const binary = atob(base64)
    const bytes = new Uint8Array(binary.length)
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
    for (const reader of waiting.get(filePath) ?? []) reader.resolve(bytes)
    waiting.delete(filePath)
  }
  return new Promise((resolve, reject) => {
    const readers = waiting.get(path)
    if (readers) {
      readers.push({ resolve, reject })
      return
    }
    waiting.set(path, [{ resolve, reject }])
    addScript(script, (error) => {
      for (const reader of waiting.get(path) ?? []) reader.reject(error)
      waiting.delete(path)
    })
  })
}

/** Reads one text file of the package (UTF-8) through its script. */
export async function loadPackageText(data: ViewerPackageData, path: string): Promise<string> {
  return new TextDecoder().decode(await loadPackageFile(data, path))
}

function addScript(src: string, onError: (error: Error) => void): void {
  const element = document.createElement('script')
  element.src = src
  // the element has done its work once run; its text (megabytes of base64) need not stay
  element.onload = () => element.remove()
  element.onerror = () => {
    element.remove()
    onError(new Error(`could not read ${src}`))
  }
  document.head.append(element)
}
