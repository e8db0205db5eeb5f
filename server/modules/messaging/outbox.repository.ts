import type { Insertable, Selectable } from 'kysely'
import type { OutboxTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'

/** An `outbox` row. */
export type OutboxRow = Selectable<OutboxTable>

/** SQL for the `outbox` table of the local message provider. */
export interface OutboxRepository {
  insert(row: Insertable<OutboxTable>): Promise<void>
  /** The newest messages to a recipient, newest first. */
  listTo(recipient: string, limit: number): Promise<OutboxRow[]>
  /** Deletes messages older than the cutoff; resolves to how many. */
  deleteBefore(cutoff: string): Promise<number>
}

/** The outbox repository on a database. */
export function createOutboxRepository(db: Database): OutboxRepository {
  return {
    async insert(row) {
      await db.insertInto('outbox').values(row).execute()
    },
    listTo(recipient, limit) {
      return db
        .selectFrom('outbox')
        .selectAll()
        .where('recipient', '=', recipient)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
    },
    async deleteBefore(cutoff) {
      const result = await db
        .deleteFrom('outbox')
        .where('created_at', '<', cutoff)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
