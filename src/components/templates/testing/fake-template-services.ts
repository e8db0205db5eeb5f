import type {
  PoiCategory,
  PoiTemplate,
  StaticAttribute,
  TemplateFields,
  TemplateLabel,
} from '../../../api/templates'
import type { TemplateServices } from '../template-services'

/** A small category tree: the roots 2D (1) and 3D (2) with a child each. */
export const sampleCategoryTree: PoiCategory[] = [
  {
    id: 1,
    category_name: '2D',
    pid: 0,
    children: [
      { id: 10, category_name: 'Cameras', pid: 1 },
      { id: 11, category_name: 'Sensors', pid: 1 },
    ],
  },
  { id: 2, category_name: '3D', pid: 0, children: [{ id: 20, category_name: 'Fire', pid: 2 }] },
]

/**
 * Template services answering from memory like the server does (new ids, lists that reflect
 * what was added), recording every call so tests can check what the screens sent.
 */
export function fakeTemplateServices(overrides: Partial<TemplateServices> = {}) {
  const calls: { name: string; args: unknown[] }[] = []
  const templates = new Map<number, PoiTemplate>()
  const attributes: StaticAttribute[] = []
  const labels: TemplateLabel[] = []
  let nextId = 100
  const record = (name: string, args: unknown[]) => calls.push({ name, args })
  const store = (fields: TemplateFields, id: number): PoiTemplate => {
    const template = { ...fields, id } as PoiTemplate
    templates.set(id, template)
    return template
  }

  const services: TemplateServices = {
    async findCategoryTree() {
      record('findCategoryTree', [])
      return structuredClone(sampleCategoryTree)
    },
    async selectCategoryPage(query) {
      record('selectCategoryPage', [query])
      const all = sampleCategoryTree.flatMap((root) => [root, ...(root.children ?? [])])
      const start = (query.pageNo - 1) * query.pageSize
      return {
        list: all.slice(start, start + query.pageSize),
        total: all.length,
        pageNo: query.pageNo,
        pageSize: query.pageSize,
      }
    },
    async addCategory(body) {
      record('addCategory', [body])
      nextId += 1
      return { id: nextId, ...body }
    },
    async updateCategory(body) {
      record('updateCategory', [body])
    },
    async deleteCategory(id) {
      record('deleteCategory', [id])
    },
    async listTemplates(query) {
      record('listTemplates', [query])
      const list = [...templates.values()]
      return { list, total: list.length }
    },
    async getTemplate(id) {
      record('getTemplate', [id])
      const template = templates.get(id)
      if (!template) throw new Error(`no template ${id}`)
      return structuredClone(template)
    },
    async createTemplate(fields) {
      record('createTemplate', [fields])
      nextId += 1
      store(fields, nextId)
      return { id: nextId }
    },
    async createMultiLevelTemplate(fields) {
      record('createMultiLevelTemplate', [fields])
      nextId += 1
      store(fields, nextId)
      return { id: nextId }
    },
    async updateTemplate(fields) {
      record('updateTemplate', [fields])
      store(fields, fields.id)
    },
    async copyTemplate(id) {
      record('copyTemplate', [id])
      nextId += 1
      return { id: nextId }
    },
    async deleteTemplate(id) {
      record('deleteTemplate', [id])
      templates.delete(id)
    },
    async listAttributes(poicategoryid) {
      record('listAttributes', [poicategoryid])
      return attributes.filter((attribute) => attribute.poicategoryid === poicategoryid)
    },
    async addAttribute(body) {
      record('addAttribute', [body])
      nextId += 1
      const attribute = { ...body, id: nextId }
      attributes.push(attribute)
      return attribute
    },
    async deleteAttribute(id) {
      record('deleteAttribute', [id])
      attributes.splice(
        attributes.findIndex((attribute) => attribute.id === id),
        1,
      )
    },
    async syncAttributes(poicategoryid, scope) {
      record('syncAttributes', [poicategoryid, scope])
    },
    async getLabels(id) {
      record('getLabels', [id])
      return { poicategoryLabels: [...labels], poicategoryHistoryLabels: [] }
    },
    async addLabel(id, labelKey) {
      record('addLabel', [id, labelKey])
      nextId += 1
      const label = { id: nextId, labelKey }
      labels.push(label)
      return label
    },
    async deleteLabel(id) {
      record('deleteLabel', [id])
    },
    async getEventKinds(id) {
      record('getEventKinds', [id])
      return []
    },
    async setEventKinds(id, kinds) {
      record('setEventKinds', [id, kinds])
    },
    async uploadIcon(file) {
      record('uploadIcon', [file.name])
      return { uuid: 'icon-1', rootPath: '/web/files/icons/', jpgName: file.name } as Awaited<
        ReturnType<TemplateServices['uploadIcon']>
      >
    },
    async upload3dZip(file, onProgress) {
      record('upload3dZip', [file.name])
      onProgress(file.size / 2, file.size)
      onProgress(file.size, file.size)
      return { uuid: 'zip-1', rootPath: '/web/files/zips/zip-1/', jpgName: 'preview.jpg' }
    },
    async downloadBatchFile(categoryId, language) {
      record('downloadBatchFile', [categoryId, language])
      return { blob: new Blob(['xlsx']), fileName: 'poi-template.xlsx' }
    },
    async uploadBatchFile(categoryId, file) {
      record('uploadBatchFile', [categoryId, file.name])
      return { rowCount: 2, errors: [] }
    },
    ...overrides,
  }
  const callsOf = (name: string) => calls.filter((call) => call.name === name)
  return { services, calls, callsOf, templates }
}
