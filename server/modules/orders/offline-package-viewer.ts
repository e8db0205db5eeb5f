import { readFile, stat } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { ViewerPackageData } from '../../../contract/offline-viewer-data'
import { type PackageEntry, type PackageSource, textEntry } from './offline-package-entry'

/**
 * A value whose JSON is streamed into the package from a source, never held as a string: the
 * POI list is megabytes, read from the database as pois.json and the viewer's data.js are written.
 * `sizeBytes` may be an estimate (it only weighs progress).
 */
export class StreamedJson {
  constructor(
    readonly source: PackageSource,
    readonly sizeBytes: number,
  ) {}
}

/** Every member of `viewer/data.js` but `files`, each maybe streamed. */
type ViewerDataInput = {
  [Key in Exclude<keyof ViewerPackageData, 'files'>]-?: ViewerPackageData[Key] | StreamedJson
}

/**
 * Files every package with a viewer carries as they are: `serve.mjs`, a web server of a few
 * lines for browsers that refuse pages opened from a disk (`node serve.mjs`, no dependencies,
 * serves the package's folder only, to this computer only), and `README.md` saying in en, zh
 * and ko when to use it.
 */
const bundledFiles = ['serve.mjs', 'README.md'].map((name) => ({
  name,
  path: fileURLToPath(new URL(`./offline-package-files/${name}`, import.meta.url)),
}))

/**
 * The viewer part of an offline package: `index.html` at the root, the viewer's one classic
 * script (built by vite.viewer.config.ts from engine/offline-viewer), the data it reads, and
 * the bundled server for browsers that refuse `file://` ({@link bundledFiles}).
 * Chromium refuses `fetch`, module scripts and workers for `file://` pages, so every file the
 * viewer reads is a classic script: `viewer/data.js` holds the scene's JSON and each binary file
 * the viewer shows (SBM models, library models, template icons, the GML file, tilesets, the
 * basemap) is also written as `viewer/files/<n>.js`, base64 inside a call. The plain files
 * stay in the package for other tools; the copies cost a third more than the bytes they hold
 * (base64), paid for opening with a double click.
 */
export async function planViewerEntries(input: {
  viewerScript: string
  entries: readonly PackageEntry[]
  /** The scene as the viewer reads it (contract/offline-viewer-data.ts); `files` is added here. */
  data: ViewerDataInput
  /** Package paths of the binary files the viewer shows. */
  shownFiles: readonly string[]
}): Promise<PackageEntry[] | null> {
  // read whole (a megabyte, the same for every package): bytes the plan holds are deflated on
  // the thread pool from the start, beside the POI list's JSON, not after it
  let viewerScript: Buffer
  try {
    viewerScript = await readFile(input.viewerScript)
  } catch {
    return null
  }
  const byPath = new Map(input.entries.map((entry) => [entry.path, entry]))
  const viewerEntries: PackageEntry[] = []
  const files: Record<string, string> = {}
  for (const path of new Set(input.shownFiles)) {
    const entry = byPath.get(path)
    if (!entry) continue
    const script = `viewer/files/${viewerEntries.length}.js`
    files[path] = script
    viewerEntries.push({
      path: script,
      source: { kind: 'script', path, of: entry.source },
      sizeBytes: Math.ceil(entry.sizeBytes / 3) * 4 + path.length + 24,
      isDeflated: false,
    })
  }
  // an object literal in a script file of its own (never inline HTML: no `</script>` to escape),
  // written in parts: streamed JSON goes in from its source, never as a string
  const parts: PackageSource[] = []
  let dataSize = 0
  const addText = (text: string) => {
    const bytes = Buffer.from(text)
    parts.push({ kind: 'bytes', bytes })
    dataSize += bytes.byteLength
  }
  let pending = 'window.twinscapePackage({'
  for (const [index, [key, value]] of Object.entries({ ...input.data, files }).entries()) {
    pending += `${index === 0 ? '' : ','}${JSON.stringify(key)}:`
    if (value instanceof StreamedJson) {
      addText(pending)
      parts.push(value.source)
      dataSize += value.sizeBytes
      pending = ''
    } else {
      pending += JSON.stringify(value)
    }
  }
  addText(`${pending}})\n`)
  viewerEntries.push(
    {
      path: 'viewer/data.js',
      source: { kind: 'parts', parts },
      sizeBytes: dataSize,
      isDeflated: true,
    },
    textEntry('viewer/viewer.js', viewerScript),
    textEntry('index.html', indexHtml),
  )
  for (const file of bundledFiles) {
    viewerEntries.push({
      path: file.name,
      source: { kind: 'file', path: file.path },
      sizeBytes: (await stat(file.path)).size,
      isDeflated: true,
    })
  }
  return viewerEntries
}

/** The page a person opens; the viewer fills in the name, the list and the status. */
const indexHtml = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twinscape</title>
<style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  body { display: grid; grid-template-columns: 1fr 16rem; grid-template-rows: auto 1fr; }
  header { grid-column: 1 / 3; display: flex; gap: 1rem; align-items: baseline;
    padding: 0.5rem 1rem; background: #14213d; color: #fff; }
  header h1 { margin: 0; font-size: 1.1rem; }
  #status { font-size: 0.9rem; opacity: 0.85; }
  #scene { width: 100%; height: 100%; display: block; min-height: 0; }
  aside { overflow: auto; border-left: 1px solid #ccd; padding: 0.5rem 1rem; }
  aside ul { padding-left: 1.2rem; margin: 0; }
  aside li.empty { list-style: none; margin-left: -1.2rem; color: #556; }
  :lang(ko) { word-break: keep-all; overflow-wrap: break-word; }
  #watermark { position: fixed; left: 50%; top: 50%; transform: translate(-50%, -50%) rotate(-20deg);
    font-size: 3rem; color: rgba(20, 33, 61, 0.25); pointer-events: none; white-space: nowrap; }
</style>
</head>
<body>
<header><h1 id="project-name"></h1><span id="status"></span></header>
<canvas id="scene"></canvas>
<aside><p id="network" hidden></p><ul id="poi-list"></ul></aside>
<div id="watermark" hidden></div>
<script src="viewer/viewer.js"></script>
</body>
</html>
`
