import type {
  AddGisModelBody,
  AddObliquePhotographBody,
  BasemapFile,
  BasemapFindDatum,
  GisModel,
  ObliquePhotograph,
  ObliquePhotographListItem,
  SaveBasemapBody,
  UpdateGisModelBody,
  UpdateObliquePhotographBody,
} from '../../contract/city'
import { api } from './index'
import { cityRoutes } from '../../contract/city'

export type {
  BasemapFile,
  BasemapFindDatum,
  BasemapSetting,
  GisModel,
  ObliquePhotograph,
  ObliquePhotographListItem,
  TilesetPlacement,
  TilesetStats,
  TilesetTopTile,
} from '../../contract/city'

/** Where an upload's bytes come from: a file sent now, or a finished resumable upload's id. */
export type UploadSource = { file: File | Blob; fileName?: string } | { uploadId: string }

function uploadForm(fields: Record<string, string | undefined>, source: UploadSource): FormData {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) form.append(key, value)
  }
  if ('uploadId' in source) form.append('upload_id', source.uploadId)
  // the file goes last: the server reads the fields before it streams the file
  else form.append('file', source.file, source.fileName ?? (source.file as File).name ?? 'upload')
  return form
}

/**
 * `POST /web/upload/uploadTiltModel`: a 3D Tiles zip or `.3tz`. Without `id` a new tileset is
 * made; with `id` its content is replaced (name and placement kept). Refusals (e.g. several
 * candidate root JSON files) reject with an ApiError whose message names the problem.
 */
export async function uploadTiltModel(
  input: { projectId: string; id?: string; name?: string } & UploadSource,
  signal?: AbortSignal,
): Promise<ObliquePhotograph> {
  const form = uploadForm({ project_id: input.projectId, id: input.id, name: input.name }, input)
  const { datum } = await api.upload(cityRoutes.uploadTiltModel, form, signal ? { signal } : {})
  return datum
}

/** `POST /web/obliquephotograph/add`: a named tileset record without content yet. */
export async function addObliquePhotograph(
  body: AddObliquePhotographBody,
): Promise<ObliquePhotograph> {
  const { datum } = await api.call(
    cityRoutes.obliquephotographAdd,
    { ...body },
    { encoding: 'json' },
  )
  return datum
}

/** `POST /web/obliquephotograph/update`: rename, show/hide, place (`placement: null` unsets). */
export async function updateObliquePhotograph(
  body: UpdateObliquePhotographBody,
): Promise<ObliquePhotograph> {
  const { datum } = await api.call(
    cityRoutes.obliquephotographUpdate,
    { ...body },
    { encoding: 'json' },
  )
  return datum
}

/** `POST /web/obliquephotograph/del`: deletes the tileset and its files. */
export async function deleteObliquePhotograph(id: string): Promise<void> {
  await api.call(cityRoutes.obliquephotographDel, { id })
}

/**
 * `POST /web/obliquephotograph/find`: the project's tilesets with their signed `root_url`s.
 * Pass `projectToken` instead of signing in for a public preview.
 */
export async function findObliquePhotographs(
  scope: { projectId?: string; projectToken?: string; id?: string },
  signal?: AbortSignal,
): Promise<ObliquePhotograph[]> {
  const { datum } = await api.call(
    cityRoutes.obliquephotographFind,
    { project_id: scope.projectId, project_token: scope.projectToken, id: scope.id },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/findObliquePhotograph` (SPEC §7): the project's tilesets as `{ id, name }`. */
export async function listObliquePhotographs(
  projectId: string,
  signal?: AbortSignal,
): Promise<ObliquePhotographListItem[]> {
  const { datum } = await api.call(
    cityRoutes.findObliquePhotograph,
    { project_id: projectId },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/gismodel/select`: the project's single-building (monomer) models. */
export async function selectGisModels(
  scope: { projectId?: string; projectToken?: string },
  signal?: AbortSignal,
): Promise<GisModel[]> {
  const { datum } = await api.call(
    cityRoutes.gismodelSelect,
    { project_id: scope.projectId, project_token: scope.projectToken },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/gismodel/add`: saves a picked selection of features as a named model. */
export async function addGisModel(body: AddGisModelBody): Promise<GisModel> {
  const { datum } = await api.call(cityRoutes.gismodelAdd, { ...body }, { encoding: 'json' })
  return datum
}

/** `POST /web/gismodel/update`. */
export async function updateGisModel(body: UpdateGisModelBody): Promise<GisModel> {
  const { datum } = await api.call(cityRoutes.gismodelUpdate, { ...body }, { encoding: 'json' })
  return datum
}

/** `POST /web/gismodel/delete`. */
export async function deleteGisModel(id: string): Promise<void> {
  await api.call(cityRoutes.gismodelDelete, { id })
}

/** `POST /web/upload/uploadBasemap`: a `.pmtiles` (v3) file for the project's basemap. */
export async function uploadBasemap(
  input: { projectId: string; name?: string } & UploadSource,
  signal?: AbortSignal,
): Promise<BasemapFile> {
  const form = uploadForm({ project_id: input.projectId, name: input.name }, input)
  const { datum } = await api.upload(cityRoutes.uploadBasemap, form, signal ? { signal } : {})
  return datum
}

/** `POST /web/basemap/find`: the project's basemap setting and its uploaded PMTiles files. */
export async function findBasemap(
  scope: { projectId?: string; projectToken?: string },
  signal?: AbortSignal,
): Promise<BasemapFindDatum> {
  const { datum } = await api.call(
    cityRoutes.basemapFind,
    { project_id: scope.projectId, project_token: scope.projectToken },
    signal ? { signal } : {},
  )
  return datum
}

/** `POST /web/basemap/save`: the project's basemap (offline, an online style, or a PMTiles). */
export async function saveBasemap(body: SaveBasemapBody): Promise<BasemapFindDatum> {
  const { datum } = await api.call(cityRoutes.basemapSave, { ...body }, { encoding: 'json' })
  return datum
}

/** `POST /web/basemap/del`: deletes an uploaded PMTiles (refused while it is the chosen one). */
export async function deleteBasemapFile(id: string): Promise<void> {
  await api.call(cityRoutes.basemapDel, { id })
}

/** A `root_url`/`url` from the server made absolute, as MapLibre's `pmtiles://` and workers need. */
export function absoluteServedUrl(
  path: string,
  origin = globalThis.location?.origin ?? '',
): string {
  return new URL(path, origin).toString()
}
