import type { Insertable, Selectable } from 'kysely'
import type { UploadedFilesTable } from '../../migrations/projects-tables'
import type { Database } from '../../plugins/db'

/** An `uploaded_files` row. */
export type UploadedFileRow = Selectable<UploadedFilesTable>
/** The columns needed to record an upload. */
export type NewUploadedFileRow = Insertable<UploadedFilesTable>

/**
 * SQL for `uploaded_files` and `file_references`: which uploads exist, and who uses them.
 * The bytes themselves are in the file store, shared by content (see projects-tables.ts).
 */
export interface UploadsRepository {
  insert(row: NewUploadedFileRow): Promise<void>
  findById(id: string): Promise<UploadedFileRow | undefined>
  /** Records that `holder` uses the file; adding the same reference twice is a no-op. */
  addReference(fileId: string, holder: string, createdAt: string): Promise<void>
  /** Removes every reference of a holder; resolves to the ids of the files it used. */
  removeReferencesOfHolder(holder: string): Promise<string[]>
  /** Removes one reference; resolves to whether it existed. */
  removeReference(fileId: string, holder: string): Promise<boolean>
  /** The ids of uploads made for a project (its edit form), referenced or not. */
  idsMadeForProject(projectId: string): Promise<string[]>
  /** Forgets which project the uploads were made for (they stay, referenced elsewhere). */
  clearProject(fileIds: readonly string[]): Promise<void>
  /**
   * Deletes the given uploads that no reference names; resolves to the content hashes (images
   * and thumbnails) of the deleted rows, whose bytes may now be unused.
   */
  deleteUnreferenced(fileIds: readonly string[]): Promise<string[]>
  /** Unreferenced project-cover uploads created before the cutoff (abandoned forms), oldest first. */
  unreferencedCreatedBefore(cutoff: string, limit: number): Promise<string[]>
  /** Whether any upload row (image or thumbnail) or model document still stores these bytes. */
  isContentUsed(sha256: string): Promise<boolean>
  countReferences(fileId: string): Promise<number>
  countAll(): Promise<number>
}

/** The uploads repository on a database or inside a transaction. */
export function createUploadsRepository(db: Database): UploadsRepository {
  return {
    async insert(row) {
      await db.insertInto('uploaded_files').values(row).execute()
    },
    findById(id) {
      return db.selectFrom('uploaded_files').selectAll().where('id', '=', id).executeTakeFirst()
    },
    async addReference(fileId, holder, createdAt) {
      await db
        .insertInto('file_references')
        .values({ file_id: fileId, holder, created_at: createdAt })
        .onConflict((conflict) => conflict.columns(['file_id', 'holder']).doNothing())
        .execute()
    },
    async removeReferencesOfHolder(holder) {
      const rows = await db
        .deleteFrom('file_references')
        .where('holder', '=', holder)
        .returning('file_id')
        .execute()
      return [...new Set(rows.map((row) => row.file_id))]
    },
    async removeReference(fileId, holder) {
      const result = await db
        .deleteFrom('file_references')
        .where('file_id', '=', fileId)
        .where('holder', '=', holder)
        .executeTakeFirst()
      return result.numDeletedRows > 0n
    },
    async idsMadeForProject(projectId) {
      const rows = await db
        .selectFrom('uploaded_files')
        .select('id')
        .where('project_id', '=', projectId)
        .execute()
      return rows.map((row) => row.id)
    },
    async clearProject(fileIds) {
      if (fileIds.length === 0) return
      await db
        .updateTable('uploaded_files')
        .set({ project_id: null })
        .where('id', 'in', fileIds)
        .execute()
    },
    async deleteUnreferenced(fileIds) {
      if (fileIds.length === 0) return []
      const unreferenced = await db
        .selectFrom('uploaded_files')
        .select(['id', 'sha256', 'thumbnail_sha256'])
        .where('id', 'in', fileIds)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('file_references')
                .select('file_references.file_id')
                .whereRef('file_references.file_id', '=', 'uploaded_files.id'),
            ),
          ),
        )
        .execute()
      if (unreferenced.length === 0) return []
      await db
        .deleteFrom('uploaded_files')
        .where(
          'id',
          'in',
          unreferenced.map((row) => row.id),
        )
        .execute()
      const hashes = new Set<string>()
      for (const row of unreferenced) {
        hashes.add(row.sha256)
        if (row.thumbnail_sha256) hashes.add(row.thumbnail_sha256)
      }
      return [...hashes]
    },
    async unreferencedCreatedBefore(cutoff, limit) {
      const rows = await db
        .selectFrom('uploaded_files')
        .select('id')
        .where('created_at', '<', cutoff)
        .where('purpose', '=', 'project-cover')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('file_references')
                .select('file_references.file_id')
                .whereRef('file_references.file_id', '=', 'uploaded_files.id'),
            ),
          ),
        )
        .orderBy('created_at')
        .limit(limit)
        .execute()
      return rows.map((row) => row.id)
    },
    async isContentUsed(sha256) {
      const row = await db
        .selectFrom('uploaded_files')
        .select('id')
        .where((builder) =>
          builder.or([builder('sha256', '=', sha256), builder('thumbnail_sha256', '=', sha256)]),
        )
        // an image attached to a model's details may be the same bytes as an uploaded image
        .unionAll(db.selectFrom('model_documents').select('id').where('sha256', '=', sha256))
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },
    async countReferences(fileId) {
      const row = await db
        .selectFrom('file_references')
        .select((builder) => builder.fn.countAll().as('count'))
        .where('file_id', '=', fileId)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
    async countAll() {
      const row = await db
        .selectFrom('uploaded_files')
        .select((builder) => builder.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
  }
}
