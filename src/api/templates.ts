import { tokenHeaderName } from '../../contract/auth'
import type { Envelope } from '../../contract/envelope'
import { session } from '../state/session'
import { ApiError } from './client'
import { postWithProgress } from './resumable-upload'
import { api } from './index'
import type { UploadedImage } from './types'

/**
 * The template side of the `/web/` API (SPEC §7 "Template and category calls", "Template
 * uploads", the `/poi` category, custom-property and label calls): POI categories, templates,
 * their static attributes, labels and event kinds, icons, 3D zips and the batch-POI file.
 */

/** SPEC §3: the roots of the category tree. */
export const rootCategoryIds = { twoD: 1, threeD: 2 } as const

/** A POI category (SPEC §3), with its children when asked for as a tree. */
export interface PoiCategory {
  id: number
  category_name: string
  pid: number
  /** A system category is shared and only an admin manages it. */
  is_system?: boolean
  children?: PoiCategory[]
}

/** One page of the paged category select. */
export interface CategoryPage {
  list: PoiCategory[]
  total: number
  pageNo: number
  pageSize: number
}

/** SPEC §3 "type (2D or 3D)". */
export type TemplateType = '2D' | '3D'

/** A POI template (SPEC §3 "POI template"). */
export interface PoiTemplate {
  id: number
  uuid?: string | null
  name: string
  poicategory_code: string
  /** The category path, comma-separated ids from the root (e.g. `2,14,15`). */
  piddes: string
  type: TemplateType
  iconpath?: string | null
  icon_path?: string | null
  category_zip_uuid?: string | null
  bgtype?: string
  template_type?: string
  use_shadow_editor_render?: boolean
  is_iot_device?: boolean
  projectInfoAllCustoms?: MultiLevelEntry[] | null
  refProjectNameList?: string[]
  file_path?: string | null
  jpg_name?: string | null
  xml_name?: string | null
  glbf_name?: string | null
  sbm_name?: string | null
  /** Listing extras: the category's name (classify), its path of names, creation time. */
  category_name?: string | null
  classify?: string | null
  created_at?: string | null
}

/** One level of a multi-level template (`projectInfoAllCustoms`). */
export interface MultiLevelEntry {
  name: string
  poicategory_code?: string
}

/** The fields a template is saved with. */
export type TemplateFields = Omit<
  PoiTemplate,
  'id' | 'refProjectNameList' | 'category_name' | 'classify' | 'created_at'
> & { id?: number }

/** One page of the template list. */
export interface TemplatePage {
  list: PoiTemplate[]
  total: number
}

/** A static attribute of a template (SPEC §3). */
export interface StaticAttribute {
  id: number
  poicategoryid: number
  property_column: string
  column_des: string
  column_example: string
}

/** One label of a template. */
export interface TemplateLabel {
  id: number
  labelKey: string
}

/** SPEC §3 "Template labels": current and history lists. */
export interface TemplateLabels {
  poicategoryLabels: TemplateLabel[]
  poicategoryHistoryLabels: TemplateLabel[]
}

/** The event kinds a template's POIs raise (SPEC §2 template popup "events"). */
export const templateEventKinds = ['link', 'alarm', 'offline', 'fault'] as const
export type TemplateEventKind = (typeof templateEventKinds)[number]

/** SPEC §7 "The 3D zip upload returns uuid, rootPath, jpgName, xmlName." */
export interface Uploaded3dZip {
  uuid: string
  rootPath: string
  jpgName: string
  xmlName?: string
  sbmName?: string
}

/** One bad cell of an uploaded batch-POI file. */
export interface BatchRowError {
  row: number
  column: string
  reason: string
}

/** The answer to an uploaded batch-POI file. */
export interface BatchFileCheck {
  rowCount: number
  errors: BatchRowError[]
}

/** A file's public address from its upload answer. */
export function filePathOf(rootPath: string | null | undefined, name: string | null | undefined) {
  if (!name) return null
  if (!rootPath) return name
  return `${rootPath.endsWith('/') ? rootPath : `${rootPath}/`}${name}`
}

/* ---------------------------------------------------------------- categories */

/** The whole category tree of the signed-in user (own and system), from the roots 2D and 3D. */
export async function findCategoryTree(): Promise<PoiCategory[]> {
  const { datum } = await api.post<PoiCategory[]>('/systempoicategory/findAll', { id: 0 })
  return datum ?? []
}

/** The children of one category. */
export async function selectCategories(pid: number): Promise<PoiCategory[]> {
  const { datum } = await api.post<PoiCategory[]>('/poi/selectPoiCategorys', { pid })
  return datum ?? []
}

/** One page of categories for the paged category select (SPEC §7 `pageSize`, `pageNo`). */
export async function selectCategoryPage(query: {
  pageNo: number
  pageSize: number
  keyword?: string
}): Promise<CategoryPage> {
  const { datum } = await api.post<CategoryPage>('/poi/selectPoiCategoryPage', query)
  return datum
}

/** Adds a category under `pid`. */
export async function addCategory(body: {
  category_name: string
  pid: number
}): Promise<PoiCategory> {
  const { datum } = await api.post<PoiCategory>('/systempoicategory/add', body)
  return datum
}

/** Renames (or moves) a category. */
export async function updateCategory(body: {
  id: number
  category_name: string
  pid?: number
}): Promise<void> {
  await api.post('/systempoicategory/update', body)
}

/** Deletes a category; refused while templates or POIs use it. */
export async function deleteCategory(id: number): Promise<void> {
  await api.post('/systempoicategory/del', { id })
}

/* ---------------------------------------------------------------- templates */

/** One page of the template list, searched by name or encoding. */
export async function listTemplates(query: {
  pageNo: number
  pageSize: number
  keyword?: string
  categoryId?: number
}): Promise<TemplatePage> {
  const { datum } = await api.post<TemplatePage>('/poi/selectPoiCategoryBasicPage', query)
  return datum
}

/** `selectPoiCategoryBasic`: one template with every field. */
export async function getTemplate(id: number): Promise<PoiTemplate> {
  const { datum } = await api.post<PoiTemplate>('/poi/selectPoiCategoryBasic', { id })
  return datum
}

/** `creatPoiCategoryBasic`: answers the new id. */
export async function createTemplate(fields: TemplateFields): Promise<{ id: number }> {
  const { datum } = await api.post<{ id: number }>('/poi/creatPoiCategoryBasic', fields, {
    encoding: 'json',
  })
  return datum
}

/** `updatePoiCategoryBasic`. */
export async function updateTemplate(fields: TemplateFields & { id: number }): Promise<void> {
  await api.post('/poi/updatePoiCategoryBasic', fields, { encoding: 'json' })
}

/** `createMultiLevelTemplate`: the multi-level kind, answers the new id. */
export async function createMultiLevelTemplate(fields: TemplateFields): Promise<{ id: number }> {
  const { datum } = await api.post<{ id: number }>('/poi/createMultiLevelTemplate', fields, {
    encoding: 'json',
  })
  return datum
}

/** Copies a template; answers the copy. */
export async function copyTemplate(id: number): Promise<{ id: number }> {
  const { datum } = await api.post<{ id: number }>('/poi/copyPoiCategoryBasic', { id })
  return datum
}

/** Deletes a template; refused while projects use it. */
export async function deleteTemplate(id: number): Promise<void> {
  await api.post('/poi/deletePoiCategoryBasic', { id })
}

/* ---------------------------------------------------------------- attributes */

/** The static attributes of a template. */
export async function listAttributes(poicategoryid: number): Promise<StaticAttribute[]> {
  const { datum } = await api.post<StaticAttribute[]>('/poi/selectPoiCategoryCustomPropery', {
    poicategoryid,
  })
  return datum ?? []
}

/** Adds a static attribute. */
export async function addAttribute(body: Omit<StaticAttribute, 'id'>): Promise<StaticAttribute> {
  const { datum } = await api.post<StaticAttribute>('/poi/creatPoiCategoryCustomPropery', body)
  return datum
}

/** Deletes a static attribute. */
export async function deleteAttribute(id: number): Promise<void> {
  await api.post('/poi/deletePoiCategoryCustomPropery', { id })
}

/** Pushes a template's attributes onto its POIs: all of them, or the current project's only. */
export async function syncAttributes(
  poicategoryid: number,
  scope: { projectId: string } | 'all',
): Promise<void> {
  if (scope === 'all') await api.post('/poi/sysnPoiCustomProperty', { poicategoryid })
  else
    await api.post('/poi/sysnCurrentProjectPoiCustomProperty', {
      poicategoryid,
      projectid: scope.projectId,
    })
}

/* ---------------------------------------------------------------- labels */

/** Current and history labels of a template. */
export async function getLabels(id: number): Promise<TemplateLabels> {
  const { datum } = await api.post<TemplateLabels>('/poi/getPoiCategoryLabel', { id })
  return {
    poicategoryLabels: datum?.poicategoryLabels ?? [],
    poicategoryHistoryLabels: datum?.poicategoryHistoryLabels ?? [],
  }
}

/** Adds a label (`label.labelKey`); answers the new label. */
export async function addLabel(id: number, labelKey: string): Promise<TemplateLabel> {
  const { datum } = await api.post<TemplateLabel>('/poi/creatPoiCategoryLabel', {
    id,
    label: { labelKey },
  })
  return datum
}

/** Removes a label from the current list (it stays in the history). */
export async function deleteLabel(id: number): Promise<void> {
  await api.post('/poi/deletePoiCategoryLabel', { id, status: false })
}

/* ---------------------------------------------------------------- events */

/** The event kinds a template's POIs raise. */
export async function getEventKinds(id: number): Promise<TemplateEventKind[]> {
  const { datum } = await api.post<TemplateEventKind[]>('/poi/selectPoiCategoryEvents', { id })
  return datum ?? []
}

/** Sets the event kinds of a template. */
export async function setEventKinds(id: number, kinds: TemplateEventKind[]): Promise<void> {
  await api.post('/poi/updatePoiCategoryEvents', { id, events: kinds }, { encoding: 'json' })
}

/* ---------------------------------------------------------------- files */

/** Uploads a template icon through the shared image upload. */
export async function uploadIcon(file: File): Promise<UploadedImage> {
  const form = new FormData()
  form.append('file', file)
  const { datum } = await api.post<UploadedImage>('/upload/uploadJpg', form)
  return datum
}

/** Uploads a 3D template zip with real byte progress; the server converts its model. */
export function upload3dZip(
  file: File,
  onProgress: (sentBytes: number, totalBytes: number) => void,
  signal?: AbortSignal,
): Promise<Uploaded3dZip> {
  const form = new FormData()
  form.append('file', file, file.name)
  return postWithProgress<Uploaded3dZip>(
    '/upload/upload3DPoi',
    form,
    onProgress,
    signal ? { signal } : {},
  )
}

/** A downloaded batch-POI file. */
export interface DownloadedFile {
  blob: Blob
  fileName: string
}

/**
 * Downloads the batch-POI XLSX of a category (columns: the POI fields plus the template's static
 * attributes; a second sheet explains them in `language`). A plain link cannot send the
 * `Token` header, so the file is fetched and handed to the browser as a blob.
 */
export async function downloadBatchFile(
  categoryId: number,
  language: string,
): Promise<DownloadedFile> {
  const query = new URLSearchParams({ pid: String(categoryId), language })
  const headers = new Headers()
  if (session.token) headers.set(tokenHeaderName, session.token)
  const response = await fetch(`/web/poi/downloadPoiTemplate?${query.toString()}`, { headers })
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
  const fileName = encoded
    ? decodeURIComponent(encoded)
    : (plain ?? `poi-template-${categoryId}.xlsx`)
  return { blob: await response.blob(), fileName }
}

/** Uploads a filled batch-POI file (multipart, field `pid`); answers the row errors. */
export async function uploadBatchFile(categoryId: number, file: File): Promise<BatchFileCheck> {
  const form = new FormData()
  form.append('pid', String(categoryId))
  form.append('file', file, file.name)
  const { datum } = await api.post<BatchFileCheck>('/poi/uploadPoiTemplate', form)
  return datum
}
