import { randomUUID } from 'node:crypto'
import type { SyncDatum } from '../../../contract/templates'
import { AppError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import { type Clock, timestampOf } from '../time/clock'
import type { AuthUser } from '../accounts/users.service'
import { CountChanges, templateKey } from '../pois/poi-counts'
import { loadVisibleTemplate } from './template-access'

/**
 * The POI side of templates (SPEC §7 `sysnPoiCustomProperty`, `sysnCurrentProjectPoiCustomProperty`,
 * `updatePoiCategoryId`): POIs take their static attributes from their template. Works on the
 * minimal `pois` storage of migration 0007, which the POI issue extends.
 */
export interface TemplatePoisService {
  /** Brings the user's POIs of the template (all, or one project's) in line with it. */
  syncProperties(user: AuthUser, templateId: string, projectId?: string): Promise<SyncDatum>
  /** Makes POIs use another template (and its attributes). */
  changeTemplate(user: AuthUser, poiIds: readonly string[], templateId: string): Promise<SyncDatum>
}

/** Builds the service; the SQL of `pois` and `poi_custom_properties` lives here until issue 16. */
export function createTemplatePoisService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}): TemplatePoisService {
  const { database, access } = dependencies
  const { db } = database
  const now = () => timestampOf(dependencies.clock.nowMs())

  /**
   * Gives each POI exactly the template's attributes: missing ones get the example value,
   * present ones keep their value (the display name follows the template), others go.
   */
  const applyProperties = async (
    transaction: Database,
    templateId: string,
    poiIds: readonly string[],
  ) => {
    if (poiIds.length === 0) return
    const properties = await transaction
      .selectFrom('poi_template_properties')
      .selectAll()
      .where('template_id', '=', templateId)
      .execute()
    const columns = properties.map((property) => property.property_column)
    // chunks keep each statement well under both dialects' bound-parameter limits
    for (let start = 0; start < poiIds.length; start += 500) {
      const chunk = poiIds.slice(start, start + 500)
      let removal = transaction.deleteFrom('poi_custom_properties').where('poi_id', 'in', chunk)
      if (columns.length > 0) removal = removal.where('property_column', 'not in', columns)
      await removal.execute()
      if (properties.length === 0) continue
      const present = await transaction
        .selectFrom('poi_custom_properties')
        .select(['poi_id', 'property_column', 'column_des'])
        .where('poi_id', 'in', chunk)
        .execute()
      const have = new Map(present.map((row) => [`${row.poi_id}\u0000${row.property_column}`, row]))
      const inserts = []
      for (const poiId of chunk) {
        for (const property of properties) {
          const existing = have.get(`${poiId}\u0000${property.property_column}`)
          if (!existing) {
            inserts.push({
              id: randomUUID(),
              poi_id: poiId,
              property_column: property.property_column,
              column_des: property.column_des,
              column_value: property.column_example,
            })
          }
        }
      }
      for (const property of properties) {
        await transaction
          .updateTable('poi_custom_properties')
          .set({ column_des: property.column_des })
          .where('poi_id', 'in', chunk)
          .where('property_column', '=', property.property_column)
          .where('column_des', '<>', property.column_des)
          .execute()
      }
      for (let at = 0; at < inserts.length; at += 100) {
        await transaction
          .insertInto('poi_custom_properties')
          .values(inserts.slice(at, at + 100))
          .execute()
      }
    }
  }

  return {
    async syncProperties(user, templateId, projectId) {
      const template = await loadVisibleTemplate(db, user, templateId)
      if (projectId !== undefined) await access.requireEditable(user, projectId)
      return db.transaction().execute(async (transaction) => {
        let query = transaction
          .selectFrom('pois')
          .innerJoin('projects', 'projects.id', 'pois.project_id')
          .select('pois.id as id')
          .where('pois.category_id', '=', template.id)
        if (projectId !== undefined) {
          await access.lockEditable(transaction, user, projectId)
          query = query.where('pois.project_id', '=', projectId)
        } else if (user.role !== 'admin') {
          // "all POIs of the template" are all the caller's: other users' projects are untouched
          query = query.where('projects.owner_id', '=', user.id)
        }
        const poiIds = (await query.execute()).map((row) => row.id)
        await applyProperties(transaction, template.id, poiIds)
        return { poi_count: poiIds.length }
      })
    },

    async changeTemplate(user, poiIds, templateId) {
      const template = await loadVisibleTemplate(db, user, templateId)
      const ids = [...new Set(poiIds)]
      return db.transaction().execute(async (transaction) => {
        const pois = await transaction
          .selectFrom('pois')
          .select(['id', 'project_id', 'category_id'])
          .where('id', 'in', ids)
          .execute()
        if (pois.length !== ids.length) throw new AppError('notFound', 'template.poiNotFound')
        for (const projectId of new Set(pois.map((poi) => poi.project_id))) {
          // someone else's POI is as unknown as a made-up one
          await access.lockEditable(transaction, user, projectId).catch((error: unknown) => {
            if (error instanceof AppError && error.kind !== 'internal') {
              throw new AppError('notFound', 'template.poiNotFound')
            }
            throw error
          })
        }
        await transaction
          .updateTable('pois')
          .set({
            category_id: template.id,
            poicategory_code: template.poicategory_code,
            template_type: template.template_type,
            category_type: template.type,
            updated_at: now(),
          })
          .where('id', 'in', ids)
          .execute()
        await applyProperties(transaction, template.id, ids)
        // the POI area's per-template counts (findPoi totals) follow the move
        const counts = new CountChanges()
        for (const poi of pois) {
          counts
            .addKey(poi.project_id, templateKey(poi.category_id), -1)
            .addKey(poi.project_id, templateKey(template.id), 1)
        }
        await counts.write(transaction)
        return { poi_count: ids.length }
      })
    },
  }
}
