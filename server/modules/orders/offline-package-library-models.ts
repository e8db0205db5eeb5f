import type { ViewerLibraryModel } from '../../../contract/offline-viewer-data'
import type { Database } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import { type PackageEntry, storedEntry, textEntry } from './offline-package-entry'

/** What a project's model library adds to its package. */
export interface LibraryModelsPackagePart {
  /** Each model's file (once, however many models share its bytes), then the list. */
  entries: PackageEntry[]
  /** The list's package path, or null when the library is empty. */
  listPath: string | null
  count: number
  viewer: ViewerLibraryModel[]
  /** Package paths of the files the viewer reads (each also written as a script). */
  shownFiles: string[]
}

/**
 * A project's model library (`/cityModel/*`, migrations 0028 and 0030): every model's GLB or
 * SBM from the file store under `library-models/`, and `library-models.json` listing each with
 * its place (a city's longitude, latitude and height, or a building's scene metres), heading,
 * scale and animation settings, so the viewer draws them where the editor shows them.
 */
export async function planLibraryModelsPart(
  handle: Database,
  storage: FileStorage,
  project: { id: string; kind: string },
): Promise<LibraryModelsPackagePart> {
  const rows = await handle
    .selectFrom('city_models')
    .selectAll()
    .where('project_id', '=', project.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const part: LibraryModelsPackagePart = {
    entries: [],
    listPath: null,
    count: rows.length,
    viewer: [],
    shownFiles: [],
  }
  if (rows.length === 0) return part
  const files = new Map<string, string>()
  const listed = []
  for (const row of rows) {
    const extension = row.format === 'sbm' ? 'sbm' : 'glb'
    let path = files.get(row.sha256)
    if (path === undefined) {
      path = `library-models/${row.sha256.slice(0, 16)}.${extension}`
      files.set(row.sha256, path)
      part.entries.push(
        await storedEntry(storage, { path, sha256: row.sha256, rowSizeBytes: row.size_bytes }),
      )
      part.shownFiles.push(path)
    }
    const animation = {
      clip: row.animation_clip,
      speed: row.animation_speed,
      loop: row.animation_loop === 1,
      autoplay: row.animation_autoplay === 1,
    }
    listed.push({
      id: row.id,
      name: row.model_name,
      file_name: row.file_name,
      format: extension,
      file: path,
      lng: row.lng,
      lat: row.lat,
      height: row.height,
      x: row.x,
      y: row.y,
      z: row.z,
      heading: row.heading,
      scale: row.scale,
      animation,
    })
    part.viewer.push({
      id: row.id,
      name: row.model_name,
      file: path,
      // where the engine puts it: on the map in a city, at scene metres in a building
      position: project.kind === 'city' ? [row.lng, row.lat, row.height] : [row.x, row.y, row.z],
      heading: row.heading,
      scale: row.scale,
      animation,
    })
  }
  part.listPath = 'library-models.json'
  part.entries.push(textEntry(part.listPath, `${JSON.stringify(listed)}\n`))
  return part
}
