import type { Selectable } from 'kysely'
import type { ProjectStylesTable } from '../../migrations/0013-style'
import type { Database } from '../../plugins/db'

/** A `project_styles` row. */
export type ProjectStyleRow = Selectable<ProjectStylesTable>

/** SQL for `project_styles`: each project's global style setting (at most one). */
export interface StyleRepository {
  findByProject(projectId: string): Promise<ProjectStyleRow | undefined>
  insert(row: ProjectStyleRow): Promise<void>
  /** Replaces the setting of an existing row; false when the project has none. */
  replace(
    projectId: string,
    settingJson: string,
    version: number,
    updatedAt: string,
  ): Promise<boolean>
  /** Deletes the project's row; whether there was one. */
  deleteByProject(projectId: string): Promise<boolean>
  /** Gives `toProjectId` the same setting. */
  copy(fromProjectId: string, toProjectId: string, copiedAt: string): Promise<void>
}

/** The style repository on a database or inside a transaction. */
export function createStyleRepository(db: Database): StyleRepository {
  const findByProject = (projectId: string) =>
    db
      .selectFrom('project_styles')
      .selectAll()
      .where('project_id', '=', projectId)
      .executeTakeFirst()
  return {
    findByProject,
    async insert(row) {
      await db.insertInto('project_styles').values(row).execute()
    },
    async replace(projectId, settingJson, version, updatedAt) {
      const result = await db
        .updateTable('project_styles')
        .set({ setting_json: settingJson, version, updated_at: updatedAt })
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async deleteByProject(projectId) {
      const result = await db
        .deleteFrom('project_styles')
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      return result.numDeletedRows > 0n
    },
    async copy(fromProjectId, toProjectId, copiedAt) {
      const source = await findByProject(fromProjectId)
      if (!source) return
      await db
        .insertInto('project_styles')
        .values({ ...source, project_id: toProjectId, created_at: copiedAt, updated_at: copiedAt })
        .execute()
    },
  }
}
