import type { MessageId } from '../../../contract/messages'

/**
 * The seeded library's names as catalogue ids (decisions.md "Messages": the server answers
 * stable ids, the client renders them in ko/zh/en). A seeded template or category keeps the
 * English name it was stored with; the answers carry `name_key` beside it while it is still the
 * shared one with that name. Once an admin renames it, it is shown as typed, like every
 * user-made name.
 */

/** Seeded templates: their code, the name they were stored with and its catalogue id. */
const templateKeys: ReadonlyArray<{ code: string; name: string; key: MessageId }> = [
  { code: 'CAM-2D', name: 'Camera', key: 'library.template.camera2d' },
  { code: 'SENSOR-TEMP', name: 'Temperature sensor', key: 'library.template.temperatureSensor' },
  {
    code: 'FIRE-EXT',
    name: 'Fire extinguisher box',
    key: 'library.template.fireExtinguisherBox2d',
  },
  { code: 'SMOKE-DET', name: 'Smoke detector', key: 'library.template.smokeDetector' },
  { code: 'LIGHT', name: 'Ceiling light', key: 'library.template.ceilingLight' },
  { code: 'camera-3d', name: 'Camera', key: 'library.template.camera3d' },
  { code: 'sensor-3d', name: 'Sensor', key: 'library.template.sensor3d' },
  {
    code: 'fire-extinguisher-box-3d',
    name: 'Fire extinguisher box',
    key: 'library.template.fireExtinguisherBox3d',
  },
]

/** Seeded categories: the name they were stored with and its catalogue id. */
const categoryKeys: ReadonlyMap<string, MessageId> = new Map<string, MessageId>([
  ['Security', 'library.category.security'],
  ['Cameras', 'library.category.cameras'],
  ['Sensors', 'library.category.sensors'],
  ['Fire safety', 'library.category.fireSafety'],
  ['Lighting', 'library.category.lighting'],
  ['Devices', 'library.category.devices'],
])

/**
 * The catalogue id of a seeded template's name, or undefined for a name to show as typed: a
 * user's own template, or a shared one renamed since it was seeded.
 */
export function libraryTemplateNameKey(template: {
  owner_id: string | null
  poicategory_code: string
  name: string
}): MessageId | undefined {
  if (template.owner_id !== '') return undefined
  return templateKeys.find(
    (entry) => entry.code === template.poicategory_code && entry.name === template.name,
  )?.key
}

/** The catalogue id of a seeded (shared) category's name, or undefined to show it as typed. */
export function libraryCategoryNameKey(category: {
  owner_id: string | null
  category_name: string
}): MessageId | undefined {
  if (category.owner_id !== '') return undefined
  return categoryKeys.get(category.category_name)
}

/** `{ name_key }` when there is one, else nothing (the field is left out of the answer). */
export function nameKeyField(key: MessageId | undefined): { name_key?: MessageId } {
  return key === undefined ? {} : { name_key: key }
}
