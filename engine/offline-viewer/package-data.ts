/**
 * How the offline viewer reads its package under `file://`, where Chromium refuses `fetch` and
 * module scripts of local files: every file it needs is a classic script beside it that hands
 * its content to a global callback. `viewer/data.js` holds the scene's JSON; each file it shows
 * (SBM, icon, GML, tileset JSON and tiles, basemap) is `viewer/files/<n>.js` holding base64,
 * loaded with a `<script>` element on demand.
 */

import type { ViewerPackageData } from '../../contract/offline-viewer-data'

export type {
  ViewerBasemap,
  ViewerPackageData,
  ViewerTileset,
} from '../../contract/offline-viewer-data'

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
