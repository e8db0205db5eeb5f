import { readFile } from 'node:fs/promises'
import type { DatabaseHandle } from '../../plugins/db'
import type { MessageLanguage } from '../messaging/message-texts'
import type { TemplateModelsService } from './template-models.service'

/** One model of the seeded system library: fixed id, so the seeded templates can name it. */
export interface SeededTemplateModel {
  /** The template model's uuid: a template's `category_zip_uuid`. */
  id: string
  /** File base name under server/resources/template-models/. */
  file: string
  /** A suggested template code (`poicategory_code`) and names for the template made from it. */
  code: string
  name: Record<MessageLanguage, string>
  sourceName: string
}

/**
 * The system 3D template models (issue 15 item 7): small sample models shipped with the server
 * (see server/resources/template-models/README.md for their sources and licences).
 */
export const seededTemplateModels: readonly SeededTemplateModel[] = [
  {
    id: '3d7e0000-0000-4000-8000-000000000001',
    file: 'camera',
    code: 'camera-3d',
    name: { ko: '카메라', zh: '摄像头', en: 'Camera' },
    sourceName: 'Duck.glb',
  },
  {
    id: '3d7e0000-0000-4000-8000-000000000002',
    file: 'sensor',
    code: 'sensor-3d',
    name: { ko: '센서', zh: '传感器', en: 'Sensor' },
    sourceName: 'BoxTextured.glb',
  },
  {
    id: '3d7e0000-0000-4000-8000-000000000003',
    file: 'fire-extinguisher-box',
    code: 'fire-extinguisher-box-3d',
    name: { ko: '소화기함', zh: '灭火器箱', en: 'Fire extinguisher box' },
    sourceName: 'Box.glb',
  },
]

const resources = new URL('../../resources/template-models/', import.meta.url)

/**
 * Seeds the system template models on a database that has none, with their shipped SBMs and
 * previews (no conversion or rendering at start-up). Seeded models an admin removed later are
 * not brought back while any other system model remains. Resolves to how many were created.
 */
export async function seedTemplateModels(deps: {
  database: DatabaseHandle
  models: TemplateModelsService
}): Promise<number> {
  const existing = await deps.database.db
    .selectFrom('template_models')
    .select('id')
    .where('owner_id', 'is', null)
    .limit(1)
    .execute()
  if (existing.length > 0) return 0
  for (const model of seededTemplateModels) {
    const [sbm, preview] = await Promise.all([
      readFile(new URL(`${model.file}.sbm`, resources)),
      readFile(new URL(`${model.file}.png`, resources)),
    ])
    await deps.models.createFromSbm(null, model.sourceName, sbm, { preview, id: model.id })
  }
  return seededTemplateModels.length
}
