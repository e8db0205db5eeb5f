import type { Insertable, Selectable } from 'kysely'
import type { NoticesTable } from '../migrations/tables'
import type { Database } from '../plugins/db'

/** A `notices` row as stored. */
export type NoticeRow = Selectable<NoticesTable>

/** SQL for the `notices` and `notice_reads` tables. */
export interface NoticesRepository {
  insert(row: Insertable<NoticesTable>): Promise<void>
  findById(id: string): Promise<NoticeRow | undefined>
}

/** The notices repository on a database. */
export function createNoticesRepository(db: Database): NoticesRepository {
  return {
    async insert(row) {
      await db.insertInto('notices').values(row).execute()
    },
    findById(id) {
      return db.selectFrom('notices').selectAll().where('id', '=', id).executeTakeFirst()
    },
  }
}
