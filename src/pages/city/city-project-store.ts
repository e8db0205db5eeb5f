import { proxy } from 'valtio'
import type { CityBasemap, CityTilesetSource } from '../../../engine/api'
import type { ProjectInfo } from '../../../contract/project'
import {
  absoluteServedUrl,
  type BasemapFindDatum,
  type GisModel,
  type ObliquePhotograph,
} from '../../api/city'
import { createOfflineMapStyle, serverMapData } from '../../components/map-picker/offline-style'
import type { Language } from '../../i18n/languages'
import { reasonText } from '../../components/feedback/error-text'
import type { CityServices } from './city-services'
import type { LiveText } from '../../ui'

/**
 * What the city editor knows of the open project from the server: the project, its tilesets,
 * basemap setting and single-building models. The map host, the tabs and the status bar read
 * one store, so an upload in one tab shows in the tree and on the map at once.
 */
export interface CityProjectState {
  projectId: string | null
  project: ProjectInfo | null
  loadState: 'idle' | 'loading' | 'ready' | 'failed'
  loadError: string | null
  tilesets: ObliquePhotograph[]
  basemap: BasemapFindDatum | null
  gisModels: GisModel[]
  /** The server's message for the most recent refused tileset upload, until the next upload. */
  lastUploadRefusal: { fileName: string; message: LiveText } | null
}

/** A new, empty store (one per mounted editor; tests make their own). */
export function createCityProjectStore(): CityProjectState {
  return proxy<CityProjectState>({
    projectId: null,
    project: null,
    loadState: 'idle',
    loadError: null,
    tilesets: [],
    basemap: null,
    gisModels: [],
    lastUploadRefusal: null,
  })
}

/** The message of anything thrown, for showing the server's reason in the user's language. */
export function errorMessage(error: unknown): string {
  return reasonText(error)
}

/**
 * Loads everything the editor shows for one project. A newer call (another project) makes an
 * older one's answers be ignored, so a slow answer never overwrites the current project.
 */
export async function loadCityProject(
  store: CityProjectState,
  services: CityServices,
  projectId: string,
  signal?: AbortSignal,
): Promise<void> {
  store.projectId = projectId
  store.loadState = 'loading'
  store.loadError = null
  try {
    const [project, tilesets, basemap, gisModels] = await Promise.all([
      services.findProjectInfo(projectId),
      services.findObliquePhotographs({ projectId }, signal),
      services.findBasemap({ projectId }, signal),
      services.selectGisModels({ projectId }, signal),
    ])
    if (signal?.aborted || store.projectId !== projectId) return
    store.project = project
    store.tilesets = tilesets
    store.basemap = basemap
    store.gisModels = gisModels
    store.loadState = 'ready'
  } catch (error) {
    if (signal?.aborted || store.projectId !== projectId) return
    store.loadState = 'failed'
    store.loadError = errorMessage(error)
  }
}

/** Where the city opens: the project's centre, else the SPEC §9 default. */
export function projectCenter(project: Pick<ProjectInfo, 'project_center'> | null): {
  lng: number
  lat: number
} {
  return project?.project_center ?? { lng: 121.6, lat: 31.2 }
}

/** A tileset as the engine streams it, or null while it has no content yet. */
export function tilesetSource(tileset: ObliquePhotograph): CityTilesetSource | null {
  if (!tileset.root_url) return null
  return {
    id: tileset.id,
    name: tileset.name,
    url: absoluteServedUrl(tileset.root_url),
    isVisible: tileset.is_visible,
    placement: tileset.placement
      ? {
          lng: tileset.placement.lng,
          lat: tileset.placement.lat,
          heightOffset: tileset.placement.height_offset,
          heading: tileset.placement.heading,
        }
      : null,
  }
}

/**
 * The engine's basemap for a saved setting. The offline style is built here from the server's
 * shipped Natural Earth data (the same style as the address picker), labels in the UI language.
 */
export function engineBasemap(
  basemap: BasemapFindDatum | null,
  language: Language,
  origin: string = globalThis.location?.origin ?? 'http://localhost',
): CityBasemap {
  const setting = basemap?.setting
  if (setting?.kind === 'online' && setting.style_url) {
    // Through our server's map proxy: the page's CSP lets the browser reach only the server.
    // Without a proxied address (the host is no longer allowed) the style cannot load, and the
    // map says so.
    return {
      kind: 'online',
      styleUrl: absoluteServedUrl(basemap?.style_proxy_url ?? setting.style_url, origin),
      // a failing online style leaves the offline map in view under the message
      fallbackStyle: createOfflineMapStyle(serverMapData(origin), language) as unknown as Record<
        string,
        unknown
      >,
    }
  }
  if (setting?.kind === 'pmtiles' && basemap?.pmtiles_url) {
    return { kind: 'pmtiles', url: absoluteServedUrl(basemap.pmtiles_url, origin) }
  }
  const style = createOfflineMapStyle(serverMapData(origin), language)
  return { kind: 'offline', style: style as unknown as Record<string, unknown> }
}
