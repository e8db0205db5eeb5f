import type { Selectable } from 'kysely'
import type { TilesetsTable } from '../../migrations/0006-city'
import type { Database } from '../../plugins/db'

/** A stored tileset row. */
export type TilesetRow = Selectable<TilesetsTable>

/** The only place SQL for `tilesets` lives. */
export interface TilesetsRepository {
  insert(row: TilesetRow): Promise<void>
  findById(id: string): Promise<TilesetRow | undefined>
  listByProject(projectId: string): Promise<TilesetRow[]>
  update(id: string, changes: Partial<Omit<TilesetRow, 'id' | 'project_id'>>): Promise<boolean>
  delete(id: string): Promise<boolean>
  deleteByProject(projectId: string): Promise<string[]>
  /** How many rows serve this version folder (copies of a project share it). */
  countVersionUsers(versionId: string): Promise<number>
  /** Every version folder some row serves. */
  versionsInUse(versionIds: readonly string[]): Promise<Set<string>>
}

/** The tilesets repository on a database or inside a transaction. */
export function createTilesetsRepository(db: Database): TilesetsRepository {
  return {
    async insert(row) {
      await db.insertInto('tilesets').values(row).execute()
    },
    findById: (id) => db.selectFrom('tilesets').selectAll().where('id', '=', id).executeTakeFirst(),
    listByProject: (projectId) =>
      db
        .selectFrom('tilesets')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    async update(id, changes) {
      const result = await db
        .updateTable('tilesets')
        .set(changes)
        .where('id', '=', id)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async delete(id) {
      const result = await db.deleteFrom('tilesets').where('id', '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    },
    async deleteByProject(projectId) {
      const rows = await db
        .deleteFrom('tilesets')
        .where('project_id', '=', projectId)
        .returning('version_id')
        .execute()
      return rows.flatMap((row) => (row.version_id === null ? [] : [row.version_id]))
    },
    async countVersionUsers(versionId) {
      const row = await db
        .selectFrom('tilesets')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('version_id', '=', versionId)
        .executeTakeFirst()
      return Number(row?.count ?? 0)
    },
    async versionsInUse(versionIds) {
      if (versionIds.length === 0) return new Set()
      const rows = await db
        .selectFrom('tilesets')
        .select('version_id')
        .where('version_id', 'in', [...versionIds])
        .execute()
      return new Set(rows.flatMap((row) => (row.version_id === null ? [] : [row.version_id])))
    },
  }
}
