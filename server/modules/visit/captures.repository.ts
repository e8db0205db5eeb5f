import type { Selectable } from 'kysely'
import type { ProjectCapturesTable } from '../../migrations/0017-captures'
import type { Database } from '../../plugins/db'

/** A `project_captures` row. */
export type CaptureRow = Selectable<ProjectCapturesTable>

/** SQL for `project_captures`: the captures of each project, in tour order. */
export interface CapturesRepository {
  listByProject(projectId: string): Promise<CaptureRow[]>
  findById(id: string): Promise<CaptureRow | undefined>
  insert(row: CaptureRow): Promise<void>
  delete(id: string): Promise<void>
  deleteByProject(projectId: string): Promise<CaptureRow[]>
  setSeq(id: string, seq: number): Promise<void>
  /** Changes the name and the dwell of a capture. */
  update(id: string, values: { name: string; dwell_seconds: number }): Promise<void>
}

/** The captures repository on a database or inside a transaction. */
export function createCapturesRepository(db: Database): CapturesRepository {
  return {
    listByProject(projectId) {
      return db
        .selectFrom('project_captures')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('seq')
        .orderBy('created_at')
        .execute()
    },
    findById(id) {
      return db.selectFrom('project_captures').selectAll().where('id', '=', id).executeTakeFirst()
    },
    async insert(row) {
      await db.insertInto('project_captures').values(row).execute()
    },
    async delete(id) {
      await db.deleteFrom('project_captures').where('id', '=', id).execute()
    },
    async deleteByProject(projectId) {
      const rows = await db
        .selectFrom('project_captures')
        .selectAll()
        .where('project_id', '=', projectId)
        .execute()
      await db.deleteFrom('project_captures').where('project_id', '=', projectId).execute()
      return rows
    },
    async update(id, values) {
      await db.updateTable('project_captures').set(values).where('id', '=', id).execute()
    },
    async setSeq(id, seq) {
      await db.updateTable('project_captures').set({ seq }).where('id', '=', id).execute()
    },
  }
}
