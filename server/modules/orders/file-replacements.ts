import { randomUUID } from 'node:crypto'
import type { Database } from '../../plugins/db'

/** What kind of stored file was replaced (the `area` of `file_replacements`, migration 0019). */
export type ReplacedArea = 'model' | 'gml' | 'tileset'

/**
 * Records that a project's stored file was replaced by a different one (update traffic,
 * issue 20). Call it inside the transaction that makes the replacement, and only when the bytes
 * really differ (the same file uploaded again stores nothing new). `recordCreatedAt` is when
 * the record's file was first stored; the replaced file was stored then or at the record's
 * last replacement, whichever is later.
 */
export async function recordFileReplacement(
  db: Database,
  replacement: {
    projectId: string
    area: ReplacedArea
    recordId: string
    recordCreatedAt: string
    previousSizeBytes: number
    sizeBytes: number
    at: string
  },
): Promise<void> {
  const last = await db
    .selectFrom('file_replacements')
    .select('created_at')
    .where('area', '=', replacement.area)
    .where('record_id', '=', replacement.recordId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  await db
    .insertInto('file_replacements')
    .values({
      id: randomUUID(),
      project_id: replacement.projectId,
      area: replacement.area,
      record_id: replacement.recordId,
      previous_size_bytes: replacement.previousSizeBytes,
      previous_stored_at: last?.created_at ?? replacement.recordCreatedAt,
      size_bytes: replacement.sizeBytes,
      created_at: replacement.at,
    })
    .execute()
}
