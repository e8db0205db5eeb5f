import { fileURLToPath } from 'node:url'
import { uploadedFilesRoot } from '../../../contract/files'
import type { ViewerGml } from '../../../contract/offline-viewer-data'
import { templateModelFilesRoot } from '../../../contract/template-files'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import { templateModelFileName } from '../template-files/template-model-files'
import { type PackageEntry, storedEntry, textEntry } from './offline-package-entry'
import { planCityPart } from './offline-package-city'
import { planLibraryModelsPart } from './offline-package-library-models'
import { type PackagePoisSummary, summarizePackagePois } from './offline-package-pois'
import { planViewerEntries, StreamedJson } from './offline-package-viewer'

/** The format name and version written in every package's manifest.json. */
export const offlinePackageFormat = { name: 'twinscape-offline-package', version: 1 } as const

export type { PackageEntry, PackageSource } from './offline-package-entry'

/** What a package is built from: the project's records, read once when the build starts. */
export interface PackagePlan {
  entries: PackageEntry[]
  /** The entries' bytes before compression; the POI lists' are estimated (they weigh progress). */
  totalBytes: number
  /**
   * The POI list the manifest and templates.json were written for: the writer reads the rows
   * themselves later, and the build checks they are still these (see offline-packages.service).
   */
  pois: PackagePoisSummary
}

/** Files a package reads besides the file store's. */
export interface PackageDirectories {
  /** The offline viewer's script (dist/offline-viewer/viewer.js); packages lack it if absent. */
  viewerScript: string
}

/** The offline viewer as `npm run build` writes it (the server runs from the repository). */
const builtViewerScript = fileURLToPath(
  new URL('../../../dist/offline-viewer/viewer.js', import.meta.url),
)

/** What a server reads packages from besides its file store. */
export function packageDirectories(): PackageDirectories {
  return {
    viewerScript: builtViewerScript,
  }
}

function jsonEntry(path: string, value: unknown): PackageEntry {
  // compact: readers parse it anyway
  return textEntry(path, `${JSON.stringify(value)}\n`)
}

/** Three numbers as the viewer's data has them (a position, a rotation, a scale). */
const triple = (x: number, y: number, z: number): [number, number, number] => [x, y, z]

/** A file name safe inside the zip: no folders, no control characters, never empty. */
function safeName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed
  const cleaned = name.replace(/[\u0000-\u001f/\\:*?"<>|]/g, '_').replace(/^\.+/, '_')
  return cleaned.length > 0 ? cleaned.slice(0, 120) : 'file'
}

/**
 * Reads what a project's offline package holds (decisions.md "Formats", offline package):
 * manifest.json, the building structure, floors and models (SBM files from the store), POIs and
 * the templates they use, the style, the GML path, areas and paths, tilesets and a PMTiles
 * basemap when one is chosen, and the model library's GLB/SBM models where they were placed.
 * Reads the records at one moment; the bytes are read when written. Of the POI list, megabytes
 * for 10,000 POIs, only the count and the templates are read here: the rows go into the zip
 * straight from the database as the writer's thread writes it (a `pois` source), so neither
 * the request thread nor a file holds them and a build's memory stays flat.
 */
export async function planOfflinePackage(
  database: DatabaseHandle,
  storage: FileStorage,
  directories: PackageDirectories,
  input: { projectId: string; isWatermarked: boolean; variant: 'full' | 'trial'; builtAt: string },
): Promise<PackagePlan> {
  const { projectId } = input
  const handle = database.db
  const project = await handle
    .selectFrom('projects')
    .select(['id', 'name', 'kind', 'description', 'project_center_lng', 'project_center_lat'])
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow()
  const entries: PackageEntry[] = []
  const contents: Record<string, string | string[]> = {}

  const structure = await handle
    .selectFrom('building_structures')
    .select(['name', 'manifest_json'])
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  if (structure) {
    entries.push(jsonEntry('building/structure.json', JSON.parse(structure.manifest_json)))
    contents.structure = 'building/structure.json'
  }
  const floors = await handle
    .selectFrom('building_floors')
    .select(['id', 'name', 'elevation', 'sort_order', 'floor_key'])
    .where('project_id', '=', projectId)
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
  const models = await handle
    .selectFrom('building_models')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const modelFiles = new Map<string, string>()
  for (const model of models) {
    // copies of one model share bytes: one file in the package
    if (modelFiles.has(model.sha256)) continue
    const path = `building/models/${model.sha256.slice(0, 16)}.sbm`
    modelFiles.set(model.sha256, path)
    entries.push(
      await storedEntry(storage, { path, sha256: model.sha256, rowSizeBytes: model.size_bytes }),
    )
  }
  const modelsValue = {
    floors,
    models: models.map((model) => ({
      id: model.id,
      name: model.name,
      file_name: model.file_name,
      role: model.role,
      floor_id: model.floor_id,
      file: modelFiles.get(model.sha256),
      triangle_count: Number(model.triangle_count),
      position: triple(model.position_x, model.position_y, model.position_z),
      rotation: triple(model.rotation_x, model.rotation_y, model.rotation_z),
      scale: triple(model.scale_x, model.scale_y, model.scale_z),
      is_visible: model.is_visible === 1,
    })),
  }
  entries.push(jsonEntry('building/models.json', modelsValue))
  contents.models = 'building/models.json'

  const pois = await summarizePackagePois(handle, projectId)
  // in pois.json and in the viewer's data.js: the writer's thread reads it from the database
  // once and writes the same bytes to both (offline-package-poi-spool.ts)
  const poisJson = new StreamedJson(
    { kind: 'pois', projectId },
    pois.count * estimatedPoiJsonBytes + 3,
  )
  entries.push({
    path: 'pois.json',
    source: poisJson.source,
    sizeBytes: poisJson.sizeBytes,
    isDeflated: true,
  })
  contents.pois = 'pois.json'
  const { templateIds } = pois
  const templates =
    templateIds.length === 0
      ? []
      : await handle
          .selectFrom('poi_templates')
          .selectAll()
          .where('id', 'in', templateIds)
          .orderBy('id')
          .execute()
  const templateFiles = await planTemplateFiles(handle, storage, templates)
  entries.push(...templateFiles.entries)
  // each template says where its icon and model are inside the package (null: none)
  const templatesValue = templates.map((template) => ({
    ...template,
    package: templateFiles.pathsOf(template.id),
  }))
  entries.push(jsonEntry('templates.json', templatesValue))
  contents.templates = 'templates.json'

  const captures = await handle
    .selectFrom('project_captures')
    .innerJoin('uploaded_files', 'uploaded_files.id', 'project_captures.file_id')
    .select([
      'project_captures.id',
      'project_captures.name',
      'project_captures.seq',
      'project_captures.camera_json',
      'project_captures.dwell_seconds',
      'uploaded_files.sha256',
      'uploaded_files.size_bytes',
      'uploaded_files.extension',
    ])
    .where('project_captures.project_id', '=', projectId)
    .orderBy('project_captures.seq')
    .execute()
  if (captures.length > 0) {
    const listed = []
    for (const capture of captures) {
      const path = `captures/${capture.seq}-${capture.id}.${safeName(capture.extension)}`
      entries.push(
        await storedEntry(storage, {
          path,
          sha256: capture.sha256,
          rowSizeBytes: capture.size_bytes,
        }),
      )
      listed.push({
        id: capture.id,
        name: capture.name,
        seq: capture.seq,
        camera: JSON.parse(capture.camera_json),
        dwell_seconds: capture.dwell_seconds,
        file: path,
      })
    }
    entries.push(jsonEntry('captures/captures.json', listed))
    contents.captures = 'captures/captures.json'
  }

  const style = await handle
    .selectFrom('project_styles')
    .select(['version', 'setting_json'])
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  const styleValue = style
    ? {
        version: style.version,
        setting: JSON.parse(style.setting_json) as Record<string, unknown>,
      }
    : null
  if (styleValue) {
    entries.push(jsonEntry('style.json', styleValue))
    contents.style = 'style.json'
  }

  const gml = await handle
    .selectFrom('project_gml_files')
    .selectAll()
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  let gmlValue: ViewerGml | null = null
  if (gml) {
    const path = `gml/${safeName(gml.file_name)}`
    entries.push(
      await storedEntry(storage, {
        path,
        sha256: gml.sha256,
        rowSizeBytes: gml.size_bytes,
        isDeflated: true,
      }),
    )
    gmlValue = {
      file: path,
      offset: triple(gml.offset_x, gml.offset_y, gml.offset_z),
      rotation_deg: gml.rotation_deg,
      scale: gml.scale,
      display_mode: gml.display_mode,
    }
    entries.push(jsonEntry('gml/gml.json', gmlValue))
    contents.gml = 'gml/gml.json'
  }

  const draws = await handle
    .selectFrom('area_draws')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()
  entries.push(jsonEntry('draws.json', draws))
  contents.draws = 'draws.json'

  const city = await planCityPart(handle, { tilesetFiles: storage.named('tilesets') }, project)
  entries.push(...city.entries)
  Object.assign(contents, city.contents)

  const libraryModels = await planLibraryModelsPart(handle, storage, project)
  entries.push(...libraryModels.entries)
  if (libraryModels.listPath !== null) contents.library_models = libraryModels.listPath

  // the manifest goes first, so a reader finds what the package holds without reading on
  const manifest = {
    format: offlinePackageFormat.name,
    version: offlinePackageFormat.version,
    variant: input.variant,
    watermark: input.isWatermarked,
    built_at: input.builtAt,
    project: project,
    counts: {
      floors: floors.length,
      models: models.length,
      pois: pois.count,
      templates: templates.length,
      draws: draws.length,
      tilesets: city.tilesetCount,
      captures: captures.length,
      library_models: libraryModels.count,
    },
    contents,
  }
  // the viewer, when this server has it built (npm run build makes dist/offline-viewer)
  contents.viewer = 'index.html'
  const viewerEntries = await planViewerEntries({
    viewerScript: directories.viewerScript,
    entries,
    data: {
      manifest,
      models: modelsValue,
      pois: poisJson,
      templates: templatesValue,
      style: styleValue,
      gml: gmlValue,
      center:
        project.project_center_lng === null || project.project_center_lat === null
          ? null
          : { lng: project.project_center_lng, lat: project.project_center_lat },
      tilesets: city.viewer.tilesets,
      basemap: city.viewer.basemap,
      library_models: libraryModels.viewer,
    },
    shownFiles: [
      ...modelFiles.values(),
      ...(gmlValue === null ? [] : [gmlValue.file]),
      ...templatesValue.flatMap((template) => template.package.icon ?? []),
      // a 3D template's POIs are drawn as its model, as online
      ...templatesValue.flatMap((template) => template.package.model ?? []),
      ...city.shownFiles,
      ...libraryModels.shownFiles,
    ],
  })
  if (viewerEntries === null) delete contents.viewer
  else entries.push(...viewerEntries)
  entries.unshift(jsonEntry('manifest.json', manifest))
  return {
    entries,
    totalBytes: entries.reduce((sum, entry) => sum + entry.sizeBytes, 0),
    pois,
  }
}

/** A POI's JSON is about this long (every column; 700 bytes in the 10,000 POIs of the bench). */
const estimatedPoiJsonBytes = 700

/** Where one template's files sit in the package. */
interface TemplatePackagePaths {
  icon: string | null
  model: string | null
}

/**
 * The icons and models the project's templates show: an icon uploaded to the file store
 * (`/web/files/<id>.<ext>`) or a 3D template's preview and SBM (`/web/templateModels/<uuid>/…`,
 * files of the store's template-models area). Each file goes in once, however many templates use it;
 * a file that is gone is left out (the viewer falls back to a plain marker).
 */
async function planTemplateFiles(
  handle: Database,
  storage: FileStorage,
  templates: ReadonlyArray<{
    id: string
    iconpath: string
    category_zip_uuid: string
    type: string
  }>,
): Promise<{ entries: PackageEntry[]; pathsOf(templateId: string): TemplatePackagePaths }> {
  const entries: PackageEntry[] = []
  const added = new Set<string>()
  const paths = new Map<string, TemplatePackagePaths>()
  const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
  const modelFiles = storage.named('template-models')
  /** A template model's file, from the folder its row names; null when either is gone. */
  const addModelFile = async (uuid: string, kind: 'sbm' | 'png'): Promise<string | null> => {
    const packagePath = `templates/models/${uuid}/${kind === 'sbm' ? 'model.sbm' : 'preview.png'}`
    if (added.has(packagePath)) return packagePath
    const row = await handle
      .selectFrom('template_models')
      .select(['id', 'files_folder'])
      .where('id', '=', uuid)
      .executeTakeFirst()
    if (!row) return null
    const name = templateModelFileName(row, kind)
    const info = await modelFiles.statOf(name)
    if (info === undefined) return null
    entries.push({
      path: packagePath,
      source: { kind: 'named', area: 'template-models', name, inflatesGzip: false },
      sizeBytes: info.sizeBytes,
      isDeflated: false,
    })
    added.add(packagePath)
    return packagePath
  }
  const iconOf = async (iconpath: string): Promise<string | null> => {
    if (iconpath.startsWith(uploadedFilesRoot)) {
      const name = iconpath.slice(uploadedFilesRoot.length)
      const fileId = name.replace(/\.[a-z0-9]+$/i, '')
      const file = await handle
        .selectFrom('uploaded_files')
        .select(['id', 'sha256', 'size_bytes', 'extension'])
        .where('id', '=', fileId)
        .executeTakeFirst()
      if (!file) return null
      const packagePath = `templates/icons/${safeName(`${file.id}.${file.extension}`)}`
      if (added.has(packagePath)) return packagePath
      const size = await storage.sizeOf(file.sha256)
      if (size === undefined) return null
      entries.push({
        path: packagePath,
        source: { kind: 'stored', sha256: file.sha256 },
        sizeBytes: size,
        isDeflated: false,
      })
      added.add(packagePath)
      return packagePath
    }
    if (iconpath.startsWith(templateModelFilesRoot)) {
      const uuid = iconpath.slice(templateModelFilesRoot.length).split('/')[0] ?? ''
      if (!uuidPattern.test(uuid)) return null
      return addModelFile(uuid, 'png')
    }
    return null
  }
  for (const template of templates) {
    const icon = template.iconpath === '' ? null : await iconOf(template.iconpath)
    const uuid = template.category_zip_uuid
    const model =
      template.type === '3D' && uuidPattern.test(uuid) ? await addModelFile(uuid, 'sbm') : null
    paths.set(template.id, { icon, model })
  }
  return { entries, pathsOf: (templateId) => paths.get(templateId) ?? { icon: null, model: null } }
}
