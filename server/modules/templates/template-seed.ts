import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { uploadedFilesRoot } from '../../../contract/files'
import { templateModelFilesRoot } from '../../../contract/template-files'
import type { TemplateEventKind } from '../../../contract/templates'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import { type Clock, timestampOf } from '../time/clock'
import type { UsersRepository } from '../accounts/users.repository'
import { seededTemplateModels } from '../template-files/seed-template-models'
import { writeGrams } from './template-search'

/** A seeded 2D library template. */
interface LibraryTemplate {
  name: string
  code: string
  /** The shared category it is filed under (see `libraryCategories`). */
  category: string
  icon: string
  isIotDevice: boolean
  properties: ReadonlyArray<[column: string, display: string, example: string]>
  labels: readonly string[]
  events: readonly TemplateEventKind[]
}

/** Shared categories: key → [name, parent key] ('2D' / '3D' for the roots). */
const libraryCategories: ReadonlyArray<[key: string, name: string, parent: string]> = [
  ['Security', 'Security', '2D'],
  ['Cameras', 'Cameras', 'Security'],
  ['Sensors', 'Sensors', '2D'],
  ['Fire safety', 'Fire safety', '2D'],
  ['Lighting', 'Lighting', '2D'],
  // the 3D library's own branch: the same names may sit under both roots
  ['3D devices', 'Devices', '3D'],
  ['3D fire safety', 'Fire safety', '3D'],
]

/**
 * A seeded 3D library template: made from one of the system template models (by its fixed id),
 * whose preview is its icon.
 */
interface LibraryModelTemplate {
  /** `seededTemplateModels[].id`. */
  modelId: string
  category: string
  isIotDevice: boolean
  properties: ReadonlyArray<[column: string, display: string, example: string]>
  labels: readonly string[]
  events: readonly TemplateEventKind[]
}

/** The 3D library a new user sees at once: a camera, a sensor and a fire extinguisher box. */
export const libraryModelTemplates: readonly LibraryModelTemplate[] = [
  {
    modelId: '3d7e0000-0000-4000-8000-000000000001',
    category: '3D devices',
    isIotDevice: true,
    properties: [['brand', 'Brand', 'Hikvision']],
    labels: ['camera', 'security'],
    events: ['link', 'offline', 'fault'],
  },
  {
    modelId: '3d7e0000-0000-4000-8000-000000000002',
    category: '3D devices',
    isIotDevice: true,
    properties: [['unit', 'Unit', '°C']],
    labels: ['sensor'],
    events: ['alarm', 'offline'],
  },
  {
    modelId: '3d7e0000-0000-4000-8000-000000000003',
    category: '3D fire safety',
    isIotDevice: false,
    properties: [['agent', 'Agent', 'Dry powder']],
    labels: ['fire'],
    events: [],
  },
]

/** The library a new user sees at once (icons drawn by tools/make-template-icons.ts). */
export const libraryTemplates: readonly LibraryTemplate[] = [
  {
    name: 'Camera',
    code: 'CAM-2D',
    category: 'Cameras',
    icon: 'camera.png',
    isIotDevice: true,
    properties: [
      ['brand', 'Brand', 'Hikvision'],
      ['stream_url', 'Stream address', 'https://example.com/live.m3u8'],
    ],
    labels: ['camera', 'security'],
    events: ['link', 'offline', 'fault'],
  },
  {
    name: 'Temperature sensor',
    code: 'SENSOR-TEMP',
    category: 'Sensors',
    icon: 'sensor.png',
    isIotDevice: true,
    properties: [
      ['unit', 'Unit', '°C'],
      ['alarm_above', 'Alarm above', '60'],
    ],
    labels: ['sensor'],
    events: ['alarm', 'offline'],
  },
  {
    name: 'Fire extinguisher box',
    code: 'FIRE-EXT',
    category: 'Fire safety',
    icon: 'fire-extinguisher.png',
    isIotDevice: false,
    properties: [
      ['agent', 'Agent', 'Dry powder'],
      ['inspected_on', 'Last inspection', '2026-01-01'],
    ],
    labels: ['fire'],
    events: [],
  },
  {
    name: 'Smoke detector',
    code: 'SMOKE-DET',
    category: 'Fire safety',
    icon: 'smoke-detector.png',
    isIotDevice: true,
    properties: [['zone', 'Zone', 'A1']],
    labels: ['fire', 'sensor'],
    events: ['alarm', 'offline', 'fault'],
  },
  {
    name: 'Ceiling light',
    code: 'LIGHT',
    category: 'Lighting',
    icon: 'light.png',
    isIotDevice: true,
    properties: [['power_w', 'Power (W)', '18']],
    labels: ['light'],
    events: ['offline'],
  },
]

const iconsFolder = new URL('../../resources/template-icons/', import.meta.url)

/**
 * Seeds the shared categories and library templates into a database with no templates and no
 * categories besides the roots, so restarting never brings back what an admin deleted: the 2D
 * ones with their icons as image uploads of the admin, the 3D ones made from the system
 * template models (seeded before, see seed-template-models.ts; a model that is missing is
 * skipped). Resolves to how many templates were created.
 */
export async function seedTemplateLibrary(dependencies: {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  users: UsersRepository
  adminName: string
}): Promise<number> {
  const { database, storage, clock, users, adminName } = dependencies
  const { db } = database
  const anyTemplate = await db.selectFrom('poi_templates').select('id').executeTakeFirst()
  const anyCategory = await db
    .selectFrom('poi_categories')
    .select('id')
    .where('id', 'not in', ['1', '2'])
    .executeTakeFirst()
  if (anyTemplate || anyCategory) return 0
  const admin = await users.findByName(adminName)
  if (admin?.role !== 'admin') return 0

  const icons = new Map<string, { bytes: Buffer; sha256: string }>()
  for (const template of libraryTemplates) {
    if (icons.has(template.icon)) continue
    const bytes = await readFile(new URL(template.icon, iconsFolder))
    icons.set(template.icon, { bytes, sha256: (await storage.put(bytes)).sha256 })
  }
  const models = await db
    .selectFrom('template_models')
    .select('id')
    .where('owner_id', 'is', null)
    .execute()
  const modelIds = new Set(models.map((model) => model.id))
  const modelTemplates = libraryModelTemplates.filter((template) => modelIds.has(template.modelId))
  const startMs = clock.nowMs()
  await db.transaction().execute(async (transaction) => {
    const categoryIds = new Map<string, string>([
      ['2D', '1'],
      ['3D', '2'],
    ])
    for (const [index, [key, name, parent]] of libraryCategories.entries()) {
      const id = randomUUID()
      const timestamp = timestampOf(startMs + index)
      categoryIds.set(key, id)
      await transaction
        .insertInto('poi_categories')
        .values({
          id,
          owner_id: '',
          pid: categoryIds.get(parent)!,
          kind: 'poi',
          category_name: name,
          created_at: timestamp,
          updated_at: timestamp,
        })
        .execute()
    }
    const pathOf = (key: string): string => {
      const parent = libraryCategories.find(([child]) => child === key)?.[2]
      const id = categoryIds.get(key)!
      return parent === undefined ? id : `${pathOf(parent)},${id}`
    }
    for (const [index, template] of libraryTemplates.entries()) {
      // a millisecond apart, so the list shows them in this order (newest first)
      const timestamp = timestampOf(startMs + index)
      const icon = icons.get(template.icon)!
      const fileId = randomUUID()
      await transaction
        .insertInto('uploaded_files')
        .values({
          id: fileId,
          sha256: icon.sha256,
          size_bytes: icon.bytes.byteLength,
          content_type: 'image/png',
          extension: 'png',
          original_name: template.icon,
          thumbnail_sha256: null,
          owner_id: admin.id,
          project_id: null,
          purpose: 'image',
          created_at: timestamp,
        })
        .execute()
      const row = {
        id: randomUUID(),
        owner_id: '',
        uuid: randomUUID(),
        name: template.name,
        poicategory_code: template.code,
        piddes: pathOf(template.category),
        category_id: categoryIds.get(template.category)!,
        type: '2D' as const,
        iconpath: `${uploadedFilesRoot}${fileId}.png`,
        category_zip_uuid: '',
        bgtype: '1',
        template_type: '0' as const,
        use_shadow_editor_render: 0,
        is_iot_device: template.isIotDevice ? 1 : 0,
        levels_json: '[]',
        file_path: '',
        jpg_name: '',
        xml_name: '',
        glbf_name: '',
        created_at: timestamp,
        updated_at: timestamp,
      }
      await transaction.insertInto('poi_templates').values(row).execute()
      await writeGrams(transaction, row)
      await insertParts(transaction, row.id, template, timestamp)
    }
    for (const [offset, template] of modelTemplates.entries()) {
      const index = libraryTemplates.length + offset
      const timestamp = timestampOf(startMs + index)
      const model = seededTemplateModels.find((seeded) => seeded.id === template.modelId)!
      const id = template.modelId
      const rootPath = `${templateModelFilesRoot}${id}/`
      // the same files the model's upload answer names (TemplateModelsService's datum)
      const row = {
        id: randomUUID(),
        owner_id: '',
        uuid: randomUUID(),
        name: model.name.en,
        poicategory_code: model.code,
        piddes: pathOf(template.category),
        category_id: categoryIds.get(template.category)!,
        type: '3D' as const,
        iconpath: `${rootPath}${id}.png`,
        category_zip_uuid: id,
        bgtype: '1',
        template_type: '0' as const,
        use_shadow_editor_render: 0,
        is_iot_device: template.isIotDevice ? 1 : 0,
        levels_json: '[]',
        file_path: rootPath,
        jpg_name: `${id}.png`,
        xml_name: `${id}.xml`,
        glbf_name: `${id}.sbm`,
        created_at: timestamp,
        updated_at: timestamp,
      }
      await transaction.insertInto('poi_templates').values(row).execute()
      await writeGrams(transaction, row)
      await insertParts(transaction, row.id, template, timestamp)
    }
  })
  return libraryTemplates.length + modelTemplates.length
}

/** Writes a seeded template's static attributes, labels and event kinds. */
async function insertParts(
  transaction: Database,
  templateId: string,
  template: Pick<LibraryTemplate, 'properties' | 'labels' | 'events'>,
  timestamp: string,
): Promise<void> {
  for (const [column, display, example] of template.properties) {
    await transaction
      .insertInto('poi_template_properties')
      .values({
        id: randomUUID(),
        template_id: templateId,
        property_column: column,
        column_des: display,
        column_example: example,
        created_at: timestamp,
      })
      .execute()
  }
  for (const label of template.labels) {
    await transaction
      .insertInto('poi_template_labels')
      .values({
        id: randomUUID(),
        template_id: templateId,
        label_key: label,
        is_current: 1,
        created_at: timestamp,
      })
      .execute()
  }
  for (const kind of template.events) {
    await transaction
      .insertInto('poi_template_events')
      .values({ template_id: templateId, kind, is_enabled: 1, event_code: '', event_image: '' })
      .execute()
  }
}
