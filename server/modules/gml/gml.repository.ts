import { randomUUID } from 'node:crypto'
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { ProjectGmlFilesTable } from '../../migrations/0005-uploads-and-gml'
import type { Database } from '../../plugins/db'

/** A `project_gml_files` row. */
export type ProjectGmlRow = Selectable<ProjectGmlFilesTable>
/** The columns needed to record a project's GML file. */
export type NewProjectGmlRow = Insertable<ProjectGmlFilesTable>

/** SQL for `project_gml_files`: which GML file each building project has, and its placement. */
export interface GmlRepository {
  findByProject(projectId: string): Promise<ProjectGmlRow | undefined>
  findByFileId(fileId: string): Promise<ProjectGmlRow | undefined>
  /** Replaces the project's row (if any) with this one; resolves to the replaced row. */
  replace(row: NewProjectGmlRow): Promise<ProjectGmlRow | undefined>
  /** Changes placement/display columns; false if the project has no GML file. */
  update(projectId: string, changes: Updateable<ProjectGmlFilesTable>): Promise<boolean>
  /** Deletes the project's row; resolves to it, if there was one. */
  deleteByProject(projectId: string): Promise<ProjectGmlRow | undefined>
  /** Gives `toProjectId` the same file (same bytes, a new file id) and placement. */
  copy(fromProjectId: string, toProjectId: string, copiedAt: string): Promise<void>
  /** Whether any project still has these bytes as its GML file. */
  isContentUsed(sha256: string): Promise<boolean>
}

/** The GML repository on a database or inside a transaction. */
export function createGmlRepository(db: Database): GmlRepository {
  const findByProject = (projectId: string) =>
    db
      .selectFrom('project_gml_files')
      .selectAll()
      .where('project_id', '=', projectId)
      .executeTakeFirst()
  const deleteByProject = async (projectId: string) => {
    const existing = await findByProject(projectId)
    if (existing) {
      await db.deleteFrom('project_gml_files').where('project_id', '=', projectId).execute()
    }
    return existing
  }
  return {
    findByProject,
    findByFileId(fileId) {
      return db
        .selectFrom('project_gml_files')
        .selectAll()
        .where('file_id', '=', fileId)
        .executeTakeFirst()
    },
    async replace(row) {
      const replaced = await deleteByProject(row.project_id)
      await db.insertInto('project_gml_files').values(row).execute()
      return replaced
    },
    async update(projectId, changes) {
      const result = await db
        .updateTable('project_gml_files')
        .set(changes)
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    deleteByProject,
    async copy(fromProjectId, toProjectId, copiedAt) {
      const source = await findByProject(fromProjectId)
      if (!source) return
      await db
        .insertInto('project_gml_files')
        .values({
          ...source,
          project_id: toProjectId,
          file_id: randomUUID(),
          created_at: copiedAt,
          updated_at: copiedAt,
        })
        .execute()
    },
    async isContentUsed(sha256) {
      const row = await db
        .selectFrom('project_gml_files')
        .select('project_id')
        .where('sha256', '=', sha256)
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },
  }
}
