import type {
  CategoryNode,
  Template,
  TemplateEvent,
  TemplateLabel,
  TemplateListItem,
  TemplateProperty,
} from '../../../api/templates'
import { templateKindOfPath } from '../../../../contract/templates'
import type { TemplateServices } from '../template-services'

const createdAt = '2026-11-26T10:00:00.000Z'

/** A category node as the server answers it. */
export function categoryNode(
  id: string,
  name: string,
  parent: CategoryNode | null,
  children: CategoryNode[] = [],
  extra: Partial<CategoryNode> = {},
): CategoryNode {
  const piddes = parent ? `${parent.piddes},${id}` : id
  return {
    id,
    pid: parent?.id ?? '0',
    category_name: name,
    value: id,
    kind: 'poi',
    piddes,
    level: piddes.split(',').length,
    is_system: parent === null,
    can_edit: parent !== null,
    created_at: createdAt,
    children,
    ...extra,
  }
}

/** A small category tree: the roots 2D ('1') and 3D ('2') with children. */
export function sampleCategoryTree(): CategoryNode[] {
  const twoD = categoryNode('1', '2D', null)
  const threeD = categoryNode('2', '3D', null)
  twoD.children = [categoryNode('10', 'Cameras', twoD), categoryNode('11', 'Sensors', twoD)]
  threeD.children = [categoryNode('20', 'Fire', threeD)]
  return [twoD, threeD]
}

/** The location category tree (pid '0' at the top): Floors › Rooms. */
export function sampleLocationTree(): CategoryNode[] {
  const location = { kind: 'location' as const }
  const floors = categoryNode('30', 'Floors', null, [], {
    ...location,
    is_system: false,
    can_edit: true,
  })
  floors.children = [categoryNode('31', 'Rooms', floors, [], location)]
  return [floors]
}

/** A template as the server answers it, from the fields a save sent. */
export function templateOf(fields: Partial<Template> & { id: string }): Template {
  const piddes = fields.piddes ?? '1'
  return {
    uuid: `uuid-${fields.id}`,
    name: 'Template',
    poicategory_code: `T-${fields.id}`,
    piddes,
    category_id: piddes.split(',').at(-1) ?? '1',
    type: templateKindOfPath(piddes),
    iconpath: '',
    icon_path: fields.iconpath ?? '',
    category_zip_uuid: '',
    bgtype: '1',
    template_type: fields.projectInfoAllCustoms?.length ? '1' : '0',
    use_shadow_editor_render: false,
    is_iot_device: false,
    projectInfoAllCustoms: [],
    refProjectNameList: [],
    file_path: '',
    jpg_name: '',
    xml_name: '',
    glbf_name: '',
    is_system: false,
    can_edit: true,
    created_at: createdAt,
    updated_at: createdAt,
    ...fields,
  }
}

/**
 * Template services answering from memory like the server does (new ids, lists that reflect
 * what was added), recording every call so tests can check what the screens sent.
 */
export function fakeTemplateServices(overrides: Partial<TemplateServices> = {}) {
  const calls: { name: string; args: unknown[] }[] = []
  const templates = new Map<string, Template>()
  const properties: TemplateProperty[] = []
  const labels: TemplateLabel[] = []
  let nextId = 100
  const newId = () => String(++nextId)
  const record = (name: string, args: unknown[]) => calls.push({ name, args })
  const store = (fields: Partial<Template> & { id: string }): Template => {
    const template = templateOf({ ...templates.get(fields.id), ...fields })
    templates.set(template.id, template)
    return template
  }
  // a test may store a template with the list's category path already (seeded names)
  const listItem = (template: Template & Partial<TemplateListItem>): TemplateListItem => ({
    ...template,
    classify: template.type,
    category: template.category ?? template.piddes,
    category_path: template.category_path ?? [],
    encoding: template.poicategory_code,
  })

  const services: TemplateServices = {
    async findCategoryTree() {
      record('findCategoryTree', [])
      return sampleCategoryTree()
    },
    async findLocationCategoryTree() {
      record('findLocationCategoryTree', [])
      return sampleLocationTree()
    },
    async selectCategoryPage(query) {
      record('selectCategoryPage', [query])
      const all = sampleCategoryTree().flatMap((root) => [root, ...root.children])
      const start = (query.pageNo - 1) * query.pageSize
      return {
        list: all.slice(start, start + query.pageSize),
        total: all.length,
        pageNo: query.pageNo,
        pageSize: query.pageSize,
      }
    },
    async addCategory(body, isShared) {
      record('addCategory', [body, isShared])
      return categoryNode(newId(), body.category_name, categoryNode(body.pid, 'parent', null))
    },
    async updateCategory(body, isShared) {
      record('updateCategory', [body, isShared])
    },
    async deleteCategory(id, isShared) {
      record('deleteCategory', [id, isShared])
    },
    async listTemplates(query) {
      record('listTemplates', [query])
      const list = [...templates.values()].map(listItem)
      return { list, total: list.length, pageNo: query.pageNo, pageSize: query.pageSize }
    },
    async getTemplate(id) {
      record('getTemplate', [id])
      const template = templates.get(id)
      if (!template) throw new Error(`no template ${id}`)
      return structuredClone(template)
    },
    async createTemplate(fields) {
      record('createTemplate', [fields])
      return store({ ...(fields as Partial<Template>), id: newId() })
    },
    async createMultiLevelTemplate(fields) {
      record('createMultiLevelTemplate', [fields])
      return store({ ...(fields as Partial<Template>), id: newId(), template_type: '1' })
    },
    async updateTemplate(fields) {
      record('updateTemplate', [fields])
      return store(fields as Partial<Template> & { id: string })
    },
    async copyTemplate(id) {
      record('copyTemplate', [id])
      return store({ ...templates.get(id), id: newId() })
    },
    async deleteTemplate(id) {
      record('deleteTemplate', [id])
      templates.delete(id)
    },
    async listAttributes(poicategoryid) {
      record('listAttributes', [poicategoryid])
      return properties.filter((property) => property.poicategoryid === poicategoryid)
    },
    async addAttribute(body) {
      record('addAttribute', [body])
      const property = { ...body, id: newId(), created_at: createdAt } as TemplateProperty
      properties.push(property)
      return property
    },
    async deleteAttribute(id) {
      record('deleteAttribute', [id])
      properties.splice(
        properties.findIndex((property) => property.id === id),
        1,
      )
    },
    async syncAttributes(poicategoryid, scope) {
      record('syncAttributes', [poicategoryid, scope])
      return { poi_count: 3 }
    },
    async getLabels(id) {
      record('getLabels', [id])
      return { poicategoryLabels: [...labels], poicategoryHistoryLabels: [] }
    },
    async addLabel(id, labelKey) {
      record('addLabel', [id, labelKey])
      const label = { id: newId(), labelKey }
      labels.push(label)
      return label
    },
    async deleteLabel(id) {
      record('deleteLabel', [id])
    },
    async getEvents(id) {
      record('getEvents', [id])
      return (['link', 'alarm', 'offline', 'fault'] as const).map(
        (kind): TemplateEvent => ({ kind, is_enabled: false, event_code: '', event_image: '' }),
      )
    },
    async setEvents(id, events) {
      record('setEvents', [id, events])
      return events as TemplateEvent[]
    },
    async uploadIcon(file) {
      record('uploadIcon', [file.name])
      return {
        uuid: 'icon-1',
        rootPath: '/web/files/',
        jpgName: file.name,
        sizeBytes: file.size,
        contentType: 'image/png',
        thumbnailPath: `/web/files/${file.name}`,
      }
    },
    async upload3dZip(file, onProgress) {
      record('upload3dZip', [file.name])
      onProgress(file.size / 2, file.size)
      onProgress(file.size, file.size)
      return {
        uuid: 'zip-1',
        rootPath: '/web/templateModels/zip-1/',
        jpgName: 'preview.png',
        xmlName: 'model.xml',
        sbmName: 'model.sbm',
        sourceName: 'camera.gltf',
        triangleCount: 12,
        sizeBytes: file.size,
        warnings: [],
      }
    },
    async downloadBatchFile(templateId) {
      record('downloadBatchFile', [templateId])
      return { blob: new Blob(['xlsx']), fileName: 'poi-template.xlsx' }
    },
    async uploadBatchFile(templateId, file) {
      record('uploadBatchFile', [templateId, file.name])
      return { uuid: 'batch-1', pid: templateId, fileName: file.name, rowCount: 2, columns: [] }
    },
    ...overrides,
  }
  const callsOf = (name: string) => calls.filter((call) => call.name === name)
  return { services, calls, callsOf, templates }
}
