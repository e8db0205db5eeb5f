import type { Insertable, Selectable, Updateable } from 'kysely'
import type {
  BuildingFloorsTable,
  BuildingModelsTable,
  BuildingStructuresTable,
  ConvertedModelsTable,
} from '../../migrations/0004-building-models'
import type { Database } from '../../plugins/db'

/** A `building_models` row. */
export type BuildingModelRow = Selectable<BuildingModelsTable>
/** A `building_floors` row. */
export type BuildingFloorRow = Selectable<BuildingFloorsTable>
/** A `building_structures` row. */
export type BuildingStructureRow = Selectable<BuildingStructuresTable>
/** A `converted_models` row. */
export type ConvertedModelRow = Selectable<ConvertedModelsTable>

/** The only place SQL for the building tables lives (migration 0004). */
export interface BuildingRepository {
  listModels(projectId: string): Promise<BuildingModelRow[]>
  findModel(id: string): Promise<BuildingModelRow | undefined>
  findModelByFileName(projectId: string, fileName: string): Promise<BuildingModelRow | undefined>
  insertModel(row: Insertable<BuildingModelsTable>): Promise<void>
  updateModel(id: string, changes: Updateable<BuildingModelsTable>): Promise<void>
  deleteModel(id: string): Promise<void>
  countModels(projectId: string): Promise<Record<'shell' | 'floor' | 'model', number>>
  listFloors(projectId: string): Promise<BuildingFloorRow[]>
  findFloor(id: string): Promise<BuildingFloorRow | undefined>
  findFloorByKey(projectId: string, floorKey: string): Promise<BuildingFloorRow | undefined>
  insertFloor(row: Insertable<BuildingFloorsTable>): Promise<void>
  updateFloor(id: string, changes: Updateable<BuildingFloorsTable>): Promise<void>
  findStructure(projectId: string): Promise<BuildingStructureRow | undefined>
  /** Inserts or replaces the project's manifest; resolves to the sha256 it replaced, if any. */
  saveStructure(row: BuildingStructureRow): Promise<string | undefined>
  findConverted(id: string): Promise<ConvertedModelRow | undefined>
  insertConverted(row: Insertable<ConvertedModelsTable>): Promise<void>
  /** Deletes every model, floor and manifest of a project; resolves to the hashes they used. */
  deleteProjectRows(projectId: string): Promise<string[]>
  /** Whether any building row (or uploaded image) still stores these bytes. */
  isContentUsed(sha256: string): Promise<boolean>
}

/** The building repository on a database or inside a transaction. */
export function createBuildingRepository(db: Database): BuildingRepository {
  return {
    listModels(projectId) {
      return db
        .selectFrom('building_models')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    },
    findModel(id) {
      return db.selectFrom('building_models').selectAll().where('id', '=', id).executeTakeFirst()
    },
    findModelByFileName(projectId, fileName) {
      return db
        .selectFrom('building_models')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('file_name', '=', fileName)
        .orderBy('created_at')
        .orderBy('id')
        .executeTakeFirst()
    },
    async insertModel(row) {
      await db.insertInto('building_models').values(row).execute()
    },
    async updateModel(id, changes) {
      await db.updateTable('building_models').set(changes).where('id', '=', id).execute()
    },
    async deleteModel(id) {
      await db.deleteFrom('building_models').where('id', '=', id).execute()
    },
    async countModels(projectId) {
      const rows = await db
        .selectFrom('building_models')
        .select(['role', (builder) => builder.fn.countAll().as('count')])
        .where('project_id', '=', projectId)
        .groupBy('role')
        .execute()
      const counts = { shell: 0, floor: 0, model: 0 }
      for (const row of rows) counts[row.role] = Number(row.count)
      return counts
    },
    listFloors(projectId) {
      return db
        .selectFrom('building_floors')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('sort_order')
        .orderBy('elevation')
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    },
    findFloor(id) {
      return db.selectFrom('building_floors').selectAll().where('id', '=', id).executeTakeFirst()
    },
    findFloorByKey(projectId, floorKey) {
      return db
        .selectFrom('building_floors')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('floor_key', '=', floorKey)
        .executeTakeFirst()
    },
    async insertFloor(row) {
      await db.insertInto('building_floors').values(row).execute()
    },
    async updateFloor(id, changes) {
      await db.updateTable('building_floors').set(changes).where('id', '=', id).execute()
    },
    findStructure(projectId) {
      return db
        .selectFrom('building_structures')
        .selectAll()
        .where('project_id', '=', projectId)
        .executeTakeFirst()
    },
    async saveStructure(row) {
      const before = await db
        .selectFrom('building_structures')
        .select(['sha256', 'created_at'])
        .where('project_id', '=', row.project_id)
        .executeTakeFirst()
      if (before) {
        await db
          .updateTable('building_structures')
          .set({
            sha256: row.sha256,
            name: row.name,
            manifest_json: row.manifest_json,
            updated_at: row.updated_at,
          })
          .where('project_id', '=', row.project_id)
          .execute()
      } else {
        await db.insertInto('building_structures').values(row).execute()
      }
      return before?.sha256
    },
    findConverted(id) {
      return db.selectFrom('converted_models').selectAll().where('id', '=', id).executeTakeFirst()
    },
    async insertConverted(row) {
      await db.insertInto('converted_models').values(row).execute()
    },
    async deleteProjectRows(projectId) {
      const models = await db
        .deleteFrom('building_models')
        .where('project_id', '=', projectId)
        .returning(['sha256', 'preview_sha256'])
        .execute()
      await db.deleteFrom('building_floors').where('project_id', '=', projectId).execute()
      const structures = await db
        .deleteFrom('building_structures')
        .where('project_id', '=', projectId)
        .returning('sha256')
        .execute()
      const previews = models.flatMap((row) => (row.preview_sha256 ? [row.preview_sha256] : []))
      return [...new Set([...[...models, ...structures].map((row) => row.sha256), ...previews])]
    },
    async isContentUsed(sha256) {
      const used = await db
        .selectFrom('building_models')
        .select('id')
        .where('sha256', '=', sha256)
        .unionAll(
          db
            .selectFrom('building_structures')
            .select('project_id as id')
            .where('sha256', '=', sha256),
        )
        .unionAll(db.selectFrom('converted_models').select('id').where('sha256', '=', sha256))
        // the city's library models and model details' documents share the store
        .unionAll(db.selectFrom('city_models').select('id').where('sha256', '=', sha256))
        .unionAll(db.selectFrom('model_documents').select('id').where('sha256', '=', sha256))
        // thumbnails are stored files too
        .unionAll(
          db.selectFrom('building_models').select('id').where('preview_sha256', '=', sha256),
        )
        .unionAll(
          db.selectFrom('converted_models').select('id').where('preview_sha256', '=', sha256),
        )
        .unionAll(
          db
            .selectFrom('uploaded_files')
            .select('id')
            .where((builder) =>
              builder.or([
                builder('sha256', '=', sha256),
                builder('thumbnail_sha256', '=', sha256),
              ]),
            ),
        )
        .limit(1)
        .executeTakeFirst()
      return used !== undefined
    },
  }
}
