import {
  type BatchCreatePoiDatum,
  type CreatedPoisDatum,
  type CreatePoiBody,
  type CreatePoiListItem,
  type FindPoiBody,
  type ModelPoiItem,
  type PoiCallName,
  type PoiCustom,
  type PoiDetail,
  type PoiModel,
  type PoiPage,
  type ProjectPoisDatum,
  poiRoutes,
  type UpdatePoiBody,
} from '../../contract/pois'
import type { RouteDatum, RouteDescriptor } from '../../contract/route'
import type { RequestOptions } from './client'
import { api } from './index'
import { postWithProgress } from './resumable-upload'

export type {
  BatchCreatePoiDatum,
  CreatedPoisDatum,
  CreatePoiBody,
  CreatePoiListItem,
  FindPoiBody,
  ModelPoiItem,
  Poi,
  PoiBatchCellError,
  PoiCustom,
  PoiCustomInput,
  PoiDetail,
  PoiKind,
  PoiModel,
  PoiPage,
  PoiSceneTemplate,
  PoiSortKey,
  ProjectPoisDatum,
  UpdatePoiBody,
} from '../../contract/pois'
export { poiLimits, poiSortKeys } from '../../contract/pois'

/**
 * The POI side of the `/web/` API (contract/pois.ts; SPEC §7 "POI (under /poi)"). Bodies go as
 * JSON: lists of POIs with nested custom properties read best that way, and the server takes
 * JSON, form or multipart alike.
 */

/**
 * Posts to one call of contract/pois.ts. Calls with a query (`findPoi`'s page,
 * `creatPoiList`'s `isCopyProperties`) carry it in the address and their fields in the body;
 * the typed client sends one or the other, so the query goes into the path here.
 */
async function call<Name extends PoiCallName>(
  name: Name,
  body: Record<string, unknown>,
  options: RequestOptions & { query?: Record<string, string | number | boolean> } = {},
): Promise<RouteDatum<(typeof poiRoutes)[Name]>> {
  const { query, ...requestOptions } = options
  const route = poiRoutes[name]
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) search.set(key, String(value))
  const path = query ? `${route.path}?${search.toString()}` : route.path
  const { datum } = await api.call(
    { ...route, path, query: undefined } as RouteDescriptor,
    body as never,
    { encoding: 'json', ...requestOptions },
  )
  return datum as RouteDatum<(typeof poiRoutes)[Name]>
}

/** `findProjectPoiDetail`: every POI of a project in columns, as the scene draws them. */
export function findProjectPois(
  projectId: string,
  options: RequestOptions = {},
): Promise<ProjectPoisDatum> {
  return call('findProjectPoiDetail', { projectid: projectId }, options)
}

/** `findPoi`: one page of a project's POIs, filtered and sorted. */
export function findPoiPage(
  body: FindPoiBody,
  page: { pageNo: number; pageSize: number },
  options: RequestOptions = {},
): Promise<PoiPage> {
  return call('findPoi', { ...body }, { ...options, query: page })
}

/** `findPoiDetail`: one POI with its custom properties. */
export function findPoiDetail(id: string, options: RequestOptions = {}): Promise<PoiDetail> {
  return call('findPoiDetail', { id }, options)
}

/** `selectCustomByPoi`: a POI's custom properties. */
export function selectCustomByPoi(id: string): Promise<PoiCustom[]> {
  return call('selectCustomByPoi', { id })
}

/** `creatPoi`: one POI from a template; answers it with its custom properties. */
export function createPoi(body: CreatePoiBody): Promise<PoiDetail> {
  return call('creatPoi', { ...body })
}

/** `updataPoi`: changes one POI (only the fields sent). */
export function updatePoi(body: UpdatePoiBody): Promise<PoiDetail> {
  return call('updataPoi', { ...body })
}

/** `deletePoi`. */
export async function deletePoi(id: string): Promise<void> {
  await call('deletePoi', { id })
}

/** `creatPoiList`: many POIs (copies, layouts) in one transaction, answered in order. */
export function createPoiList(
  projectId: string,
  list: CreatePoiListItem[],
  isCopyProperties: boolean,
): Promise<CreatedPoisDatum> {
  return call('creatPoiList', { projectid: projectId, list }, { query: { isCopyProperties } })
}

/** `updataPoiList`: changes many POIs in one transaction (all or none). */
export async function updatePoiList(list: UpdatePoiBody[]): Promise<number> {
  return (await call('updataPoiList', { list })).count
}

/** `deletePoiList`: deletes many POIs in one transaction (all or none). */
export async function deletePoiList(ids: string[]): Promise<number> {
  return (await call('deletePoiList', { ids })).count
}

/** `selectPoisBymodel`: the POIs linked to a model (model-POI items). */
export function selectPoisByModel(modelId: string): Promise<ModelPoiItem[]> {
  return call('selectPoisBymodel', { model_id: modelId })
}

/** `addPoi`: links POIs to a model ('Already linked.' when one is). */
export async function linkPoisToModel(modelId: string, ids: string[]): Promise<number> {
  return (await call('addPoi', { model_id: modelId, ids })).count
}

/** `findModelByPoi`: the models a POI is linked to. */
export function findModelsByPoi(id: string): Promise<PoiModel[]> {
  return call('findModelByPoi', { id })
}

/**
 * `batchCreatPoi`: POIs of one template from a filled XLSX or a CSV. `isDryRun` only checks the
 * rows; a refusal lists the bad cells (`ApiError.datum.details`) and creates nothing.
 */
export async function batchCreatePois(input: {
  projectId: string
  templateId: string
  file: File | Blob
  fileName?: string
  isDryRun: boolean
  signal?: AbortSignal
  /** The file's bytes on their way up (real upload progress, over XMLHttpRequest). */
  onProgress?: (sentBytes: number, totalBytes: number) => void
}): Promise<BatchCreatePoiDatum> {
  const form = new FormData()
  form.append('projectid', input.projectId)
  form.append('pid', input.templateId)
  form.append('isDryRun', String(input.isDryRun))
  // the file goes last: the server reads the fields before it streams the file
  form.append('file', input.file, input.fileName ?? (input.file as File).name ?? 'pois.xlsx')
  return postWithProgress(
    poiRoutes.batchCreatPoi,
    form,
    input.onProgress,
    input.signal ? { signal: input.signal } : {},
  )
}
