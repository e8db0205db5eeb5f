import type { ViewerBasemap, ViewerTileset } from '../../../contract/offline-viewer-data'
import type { Database } from '../../plugins/db'
import type { NamedFiles } from '../../plugins/storage'
import { basemapFileName } from '../basemaps/basemap-files'
import { offlineMapData } from '../geo/offline-map-data'
import { type PackageEntry, textEntry } from './offline-package-entry'

/** What a project's tilesets and basemap add to its package. */
export interface CityPackagePart {
  entries: PackageEntry[]
  /** The manifest's `contents` lines. */
  contents: { tilesets?: string[]; basemap?: string | { countries: string; places: string } }
  tilesetCount: number
  viewer: { tilesets: ViewerTileset[]; basemap: ViewerBasemap | null }
  /** Package paths of the files the viewer reads (each also written as a script). */
  shownFiles: string[]
}

/**
 * A project's tilesets (every stored file, under `tilesets/<id>/`) and, for a city project,
 * its basemap: the PMTiles archive when one is chosen, else the offline style's Natural Earth
 * data (`basemap/countries.geojson`, `basemap/places.geojson`), so the viewer draws the same
 * map with no server.
 */
export async function planCityPart(
  handle: Database,
  directories: { tilesetFiles: NamedFiles },
  project: { id: string; kind: string },
): Promise<CityPackagePart> {
  const part: CityPackagePart = {
    entries: [],
    contents: {},
    tilesetCount: 0,
    viewer: { tilesets: [], basemap: null },
    shownFiles: [],
  }
  const tilesets = await handle
    .selectFrom('tilesets')
    .selectAll()
    .where('project_id', '=', project.id)
    .orderBy('created_at')
    .execute()
  part.tilesetCount = tilesets.length
  const roots: string[] = []
  for (const tileset of tilesets) {
    if (tileset.version_id === null || tileset.root_path === null) continue
    const folder = `tilesets/${tileset.id}`
    const versionId = tileset.version_id
    for (const file of await directories.tilesetFiles.list(versionId)) {
      const path = `${folder}/${file.name}`
      part.entries.push({
        path,
        // some exporters write every file gzip-compressed (a server then sends it with
        // Content-Encoding: gzip); a package on a disk has no such server: its files are plain
        source: {
          kind: 'named',
          area: 'tilesets',
          name: `${versionId}/${file.name}`,
          inflatesGzip: true,
        },
        sizeBytes: file.sizeBytes,
        // tileset JSON shrinks a lot; tiles barely do
        isDeflated: file.name.endsWith('.json'),
      })
      part.shownFiles.push(path)
    }
    const root = `${folder}/${tileset.root_path}`
    roots.push(root)
    const { placement_lng: lng, placement_lat: lat } = tileset
    part.viewer.tilesets.push({
      id: tileset.id,
      name: tileset.name,
      root,
      is_visible: tileset.is_visible === 1,
      placement:
        lng === null || lat === null
          ? null
          : {
              lng,
              lat,
              height_offset: tileset.placement_height_offset ?? 0,
              heading: tileset.placement_heading ?? 0,
            },
    })
  }
  if (tilesets.length > 0) {
    part.entries.push(textEntry('tilesets/tilesets.json', `${JSON.stringify(tilesets)}\n`))
    part.contents.tilesets = roots
  }

  const basemap = await handle
    .selectFrom('basemap_settings')
    .innerJoin('basemap_files', 'basemap_files.id', 'basemap_settings.pmtiles_id')
    .select(['basemap_files.file_key', 'basemap_files.size_bytes'])
    .where('basemap_settings.project_id', '=', project.id)
    .where('basemap_settings.kind', '=', 'pmtiles')
    .executeTakeFirst()
  if (basemap) {
    const path = 'basemap/basemap.pmtiles'
    part.entries.push({
      path,
      // from the store's basemaps area, as the server serves it
      source: {
        kind: 'named',
        area: 'basemaps',
        name: basemapFileName(basemap.file_key),
        inflatesGzip: false,
      },
      sizeBytes: basemap.size_bytes,
      isDeflated: false,
    })
    part.contents.basemap = path
    part.viewer.basemap = { kind: 'pmtiles', file: path }
    part.shownFiles.push(path)
  } else if (project.kind === 'city') {
    // the offline style (also what an online style falls back to when its server is gone)
    const countries = 'basemap/countries.geojson'
    const places = 'basemap/places.geojson'
    part.entries.push(
      textEntry(countries, offlineMapData.countries()),
      textEntry(places, offlineMapData.places()),
    )
    part.contents.basemap = { countries, places }
    part.viewer.basemap = { kind: 'offline', countries, places }
    part.shownFiles.push(countries, places)
  }
  return part
}
