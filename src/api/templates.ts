import { tokenHeaderName } from '../../contract/auth'
import type { Envelope } from '../../contract/envelope'
import {
  type AddCategoryBody,
  type Category,
  type CategoryNode,
  type CategoryPage,
  type CreateMultiLevelTemplateBody,
  type CreatePropertyBody,
  type CreateTemplateBody,
  type Template,
  type TemplateCallName,
  type TemplateEvent,
  type TemplateLabel,
  type TemplateLabels,
  type TemplatePage,
  type TemplateProperty,
  templateRoutes,
  type UpdateCategoryBody,
  type UpdateEventsBody,
  type UpdateTemplateBody,
} from '../../contract/templates'
import type { TemplateModelDatum, UploadPoiTemplateDatum } from '../../contract/template-files'
import type { RouteDatum, RouteDescriptor } from '../../contract/route'
import { templateFileRoutes } from '../../contract/template-files'
import { fileRoutes } from '../../contract/files'
import { ApiError, type RequestOptions } from './client'
import { api } from './index'
import { postWithProgress } from './resumable-upload'
import type { UploadedImage } from './types'
import { sessionLink } from './session-link'

export type {
  Category,
  CategoryNode,
  CategoryPage,
  Template,
  TemplateEvent,
  TemplateEventKind,
  TemplateLabel,
  TemplateLabels,
  TemplateLevel,
  TemplateListItem,
  TemplatePage,
  TemplateProperty,
} from '../../contract/templates'
export { categoryRootIds, templateEventKinds, templateLimits } from '../../contract/templates'

/**
 * The template side of the `/web/` API (contract/templates.ts; SPEC §7 "Template and category
 * calls", "Template uploads"): POI categories, templates, their static attributes, labels and
 * event kinds, icons, 3D template zips and the batch-POI file.
 */

/**
 * Posts to one call of contract/templates.ts. The paged calls take `pageSize`/`pageNo` in the
 * address and their filters in the body; the typed client sends one or the other, so the page
 * goes into the path here.
 */
async function call<Name extends TemplateCallName>(
  name: Name,
  body: Record<string, unknown>,
  options: RequestOptions & { query?: Record<string, string | number> } = {},
): Promise<RouteDatum<(typeof templateRoutes)[Name]>> {
  const { query, ...requestOptions } = options
  const route = templateRoutes[name]
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) search.set(key, String(value))
  const path = query ? `${route.path}?${search.toString()}` : route.path
  const { datum } = await api.call(
    { ...route, path, query: undefined } as RouteDescriptor,
    body as never,
    requestOptions,
  )
  return datum as RouteDatum<(typeof templateRoutes)[Name]>
}

/* ---------------------------------------------------------------- categories */

/** The 2D and 3D category trees the caller sees (shared ones and their own). */
export async function findCategoryTree(): Promise<CategoryNode[]> {
  return (await call('findAllCategories', { id: 0 })) ?? []
}

/**
 * The location category tree (SPEC §3 "A location type is fetched with id '0'"): the top-level
 * location categories (pid '0') with their children, shared ones and the caller's own.
 */
export async function findLocationCategoryTree(): Promise<CategoryNode[]> {
  return (await call('findLocationCategories', { id: '0' })) ?? []
}

/** One page of categories for the paged category select (query `pageSize`, `pageNo`). */
export function selectCategoryPage(query: {
  pageNo: number
  pageSize: number
  keyword?: string
}): Promise<CategoryPage> {
  const { pageNo, pageSize, keyword } = query
  return call('selectCategoryPage', keyword ? { keyword, kind: 'poi' } : { kind: 'poi' }, {
    query: { pageNo, pageSize },
  })
}

/**
 * Adds a category under `pid`: a shared one when an admin adds it (they manage the system
 * categories), else one of the caller's own.
 */
export function addCategory(body: AddCategoryBody, isShared: boolean): Promise<Category> {
  return call(isShared ? 'addSystemCategory' : 'createCategory', { ...body })
}

/** Renames (or moves) a category, through the shared or the own call as the category is. */
export async function updateCategory(body: UpdateCategoryBody, isShared: boolean): Promise<void> {
  await call(isShared ? 'updateSystemCategory' : 'updateCategory', { ...body })
}

/** Deletes a category; refused while templates or POIs use it. */
export async function deleteCategory(id: string, isShared: boolean): Promise<void> {
  await call(isShared ? 'deleteSystemCategory' : 'deleteCategory', { id })
}

/* ---------------------------------------------------------------- templates */

/** One page of the template list, searched by name or encoding. */
export function listTemplates(query: {
  pageNo: number
  pageSize: number
  keyword?: string
  /** Only templates filed under this category or below it. */
  categoryId?: string
}): Promise<TemplatePage> {
  const { pageNo, pageSize, keyword, categoryId } = query
  const body: Record<string, string> = {}
  if (keyword) body.keyword = keyword
  if (categoryId) body.category_id = categoryId
  return call('selectTemplatePage', body, { query: { pageNo, pageSize } })
}

/** `selectPoiCategoryBasic`: one template with every field. */
export function getTemplate(id: string): Promise<Template> {
  return call('selectTemplate', { id })
}

/** `creatPoiCategoryBasic`: answers the template, whose id unlocks the popup's other tabs. */
export function createTemplate(fields: CreateTemplateBody): Promise<Template> {
  return call('createTemplate', { ...fields }, { encoding: 'json' })
}

/** `createMultiLevelTemplate`: the multi-level kind. */
export function createMultiLevelTemplate(fields: CreateMultiLevelTemplateBody): Promise<Template> {
  return call('createMultiLevelTemplate', { ...fields }, { encoding: 'json' })
}

/** `updatePoiCategoryBasic`. */
export function updateTemplate(fields: UpdateTemplateBody): Promise<Template> {
  return call('updateTemplate', { ...fields }, { encoding: 'json' })
}

/** Copies a template (own or library) into the caller's templates. */
export function copyTemplate(id: string): Promise<Template> {
  return call('copyTemplate', { id })
}

/** Deletes a template; refused while POIs use it. */
export async function deleteTemplate(id: string): Promise<void> {
  await call('deleteTemplate', { id })
}

/* ---------------------------------------------------------------- attributes */

/** The static attributes of a template. */
export async function listAttributes(poicategoryid: string): Promise<TemplateProperty[]> {
  return (await call('selectProperties', { poicategoryid })) ?? []
}

/** Adds a static attribute. */
export function addAttribute(body: CreatePropertyBody): Promise<TemplateProperty> {
  return call('createProperty', { ...body })
}

/** Deletes a static attribute. */
export async function deleteAttribute(id: string): Promise<void> {
  await call('deleteProperty', { id })
}

/** Pushes a template's attributes onto its POIs: all of them, or one project's only. */
export function syncAttributes(
  poicategoryid: string,
  scope: { projectId: string } | 'all',
): Promise<{ poi_count: number }> {
  return scope === 'all'
    ? call('syncProperties', { poicategoryid })
    : call('syncProjectProperties', { poicategoryid, project_id: scope.projectId })
}

/* ---------------------------------------------------------------- labels */

/** Current and history labels of a template. */
export async function getLabels(id: string): Promise<TemplateLabels> {
  const datum = await call('getLabels', { id })
  return {
    poicategoryLabels: datum?.poicategoryLabels ?? [],
    poicategoryHistoryLabels: datum?.poicategoryHistoryLabels ?? [],
  }
}

/** Adds a label (`label.labelKey`), or brings one back from the history. */
export function addLabel(id: string, labelKey: string): Promise<TemplateLabel> {
  return call('createLabel', { id, label: { labelKey } })
}

/** Moves a label from the current list to the history. */
export async function deleteLabel(id: string): Promise<void> {
  await call('deleteLabel', { id, status: false })
}

/* ---------------------------------------------------------------- events */

/** The four event kinds of a template, each enabled or not. */
export async function getEvents(poicategoryid: string): Promise<TemplateEvent[]> {
  return (await call('selectEvents', { poicategoryid })) ?? []
}

/** Sets the event kinds of a template. */
export function setEvents(
  poicategoryid: string,
  events: UpdateEventsBody['events'],
): Promise<TemplateEvent[]> {
  return call('updateEvents', { poicategoryid, events }, { encoding: 'json' })
}

/* ---------------------------------------------------------------- files */

/** Uploads a template icon through the shared image upload (jpeg/png ≤ 2 MB). */
export async function uploadIcon(file: File): Promise<UploadedImage> {
  const form = new FormData()
  form.append('file', file)
  const { datum } = await api.upload(fileRoutes.uploadJpg, form)
  return datum
}

/**
 * What the 3D template upload answers: a template saves `uuid` as `category_zip_uuid`,
 * `rootPath` as `file_path`, `jpgName`, `xmlName` and `sbmName` as `glbf_name`; the preview is
 * a PNG the server rendered from the model.
 */
export type TemplateModel = TemplateModelDatum

/** Uploads a 3D template zip with real byte progress; the server converts its model. */
export function upload3dZip(
  file: File,
  onProgress: (sentBytes: number, totalBytes: number) => void,
  signal?: AbortSignal,
): Promise<TemplateModel> {
  const form = new FormData()
  form.append('file', file, file.name)
  return postWithProgress(
    templateFileRoutes.upload3DPoi,
    form,
    onProgress,
    signal ? { signal } : {},
  )
}

/** A downloaded file. */
export interface DownloadedFile {
  blob: Blob
  fileName: string
}

/**
 * Downloads the batch-POI XLSX of a template (columns: the POI fields plus its static attributes;
 * a second sheet explains them in the language of the `language` cookie). A plain link cannot
 * send the `Token` header, so the file is fetched and handed to the browser as a blob.
 */
export async function downloadBatchFile(templateId: string): Promise<DownloadedFile> {
  const headers = new Headers({
    Accept: 'application/json',
    'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
  })
  const token = sessionLink.token()
  if (token) headers.set(tokenHeaderName, token)
  let response: Response
  try {
    response = await fetch('/web/poi/downloadPoiTemplate', {
      method: 'POST',
      headers,
      body: new URLSearchParams({ pid: templateId }),
    })
  } catch {
    throw new ApiError({
      reason: 'network',
      envelope: null,
      httpStatus: null,
      fallbackMessage: 'The download failed.',
    })
  }
  const type = response.headers.get('Content-Type') ?? ''
  if (!response.ok || type.includes('json')) {
    const envelope = (await response.json().catch(() => null)) as Envelope | null
    throw new ApiError({
      reason: envelope ? 'server' : 'network',
      envelope,
      httpStatus: response.status,
      fallbackMessage: 'The download failed.',
    })
  }
  const disposition = response.headers.get('Content-Disposition') ?? ''
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1]
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1]
  const fileName = encoded ? decodeURIComponent(encoded) : (plain ?? 'poi-template.xlsx')
  return { blob: await response.blob(), fileName }
}

/** A stored, valid batch-POI file. */
export type BatchFileAnswer = UploadPoiTemplateDatum

/**
 * Uploads a filled batch-POI file (multipart, field `pid`). A file with bad rows is refused;
 * the refusal's `datum.details` lists each bad cell (row, column, message id).
 */
export async function uploadBatchFile(templateId: string, file: File): Promise<BatchFileAnswer> {
  const form = new FormData()
  form.append('pid', templateId)
  form.append('file', file, file.name)
  const { datum } = await api.upload(templateFileRoutes.uploadPoiTemplate, form)
  return datum
}
