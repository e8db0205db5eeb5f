import type { TemplateLevel } from '../../../contract/templates'
import type { Database } from '../../plugins/db'
import { loadVisibleTemplate } from '../templates/template-access'
import type { AuthUser } from '../accounts/users.service'
import type { BatchTemplateSource } from './poi-batch-files.service'
import type { StaticAttributeColumnSource } from './poi-batch-columns'

/**
 * The templates the batch-POI file is made for, read from the templates area's tables: a
 * template the caller may see (their own, a library one, any for an admin; another user's is
 * `template.notFound`) with its static attributes in the order they were added. A multi-level
 * template's file has the attributes of all its levels, each column once.
 */
export function createBatchTemplateSource(db: Database): BatchTemplateSource {
  return {
    async templateForBatch(caller, templateId) {
      const template = await loadVisibleTemplate(db, caller as AuthUser, templateId)
      const properties = await db
        .selectFrom('poi_template_properties')
        .select(['property_column', 'column_des', 'column_example'])
        .where('template_id', '=', template.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      const attributes: StaticAttributeColumnSource[] = [...properties]
      if (template.template_type === '1') {
        const seen = new Set(attributes.map((attribute) => attribute.property_column))
        for (const level of parseLevels(template.levels_json)) {
          for (const custom of level.customs) {
            if (seen.has(custom.property_column)) continue
            seen.add(custom.property_column)
            attributes.push(custom)
          }
        }
      }
      return { name: template.name, code: template.poicategory_code, attributes }
    },
  }
}

function parseLevels(json: string): TemplateLevel[] {
  try {
    const levels = JSON.parse(json) as unknown
    return Array.isArray(levels) ? (levels as TemplateLevel[]) : []
  } catch {
    return []
  }
}
