/**
 * How the offline viewer reads its package under `file://`, where Chromium refuses `fetch` and
 * module scripts of local files: every file it needs is a classic script beside it that hands
 * its content to a global callback. `viewer/data.js` holds the scene's JSON; each binary file
 * (SBM, icon) is `viewer/files/<n>.js` holding base64, loaded with a `<script>` element on demand.
 */

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

const waiting = new Map<string, (bytes: Uint8Array) => void>()

/** Reads one binary file of the package through its script; rejects when the script is missing. */
export function loadPackageFile(data: ViewerPackageData, path: string): Promise<Uint8Array> {
  const script = data.files[path]
  if (script === undefined) return Promise.reject(new Error(`not in the package: ${path}`))
  window.twinscapeFile ??= (filePath, base64) => {
    const binary = atob(base64)
    const bytes = new Uint8Array(binary.length)
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
    waiting.get(filePath)?.(bytes)
    waiting.delete(filePath)
  }
  return new Promise((resolve, reject) => {
    waiting.set(path, resolve)
    addScript(script, reject)
  })
}

function addScript(src: string, onError: (error: Error) => void): void {
  const element = document.createElement('script')
  element.src = src
  element.onerror = () => onError(new Error(`could not read ${src}`))
  document.head.append(element)
}
