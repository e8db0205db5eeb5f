import type { Insertable, Selectable } from 'kysely'
import type { NoticesTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'

/** A `notices` row as stored. */
export type NoticeRow = Selectable<NoticesTable>

/** SQL for the `notices` and `notice_reads` tables. */
export interface NoticesRepository {
  insert(row: Insertable<NoticesTable>): Promise<void>
  findById(id: string): Promise<NoticeRow | undefined>
  /** The newest notices with whether this user has read each, newest first. */
  listForUser(
    userId: string,
    limit: number,
  ): Promise<Array<Omit<NoticeRow, 'author_id'> & { read_at: string | null }>>
  /** Records that a user read a notice; reading it again changes nothing. */
  markRead(noticeId: string, userId: string, readAt: string): Promise<void>
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
    listForUser(userId, limit) {
      return db
        .selectFrom('notices')
        .leftJoin('notice_reads', (join) =>
          join
            .onRef('notice_reads.notice_id', '=', 'notices.id')
            .on('notice_reads.user_id', '=', userId),
        )
        .select([
          'notices.id',
          'notices.title',
          'notices.body',
          'notices.created_at',
          'notice_reads.read_at',
        ])
        .orderBy('notices.created_at', 'desc')
        .orderBy('notices.id', 'desc')
        .limit(limit)
        .execute()
    },
    async markRead(noticeId, userId, readAt) {
      await db
        .insertInto('notice_reads')
        .values({ notice_id: noticeId, user_id: userId, read_at: readAt })
        .onConflict((conflict) => conflict.columns(['notice_id', 'user_id']).doNothing())
        .execute()
    },
  }
}
