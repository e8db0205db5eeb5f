import type { Insertable, Selectable } from 'kysely'
import type { SessionTicketsTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'

/** A `session_tickets` row. */
export type SessionTicketRow = Selectable<SessionTicketsTable>

/** SQL for `session_tickets`. */
export interface SessionTicketsRepository {
  insert(row: Insertable<SessionTicketsTable>): Promise<void>
  /**
   * Uses up a live ticket in one statement, so of parallel exchanges exactly one wins; resolves
   * to the ticket when this call used it, else undefined (unknown, used or expired).
   */
  use(ticketHash: string, at: string): Promise<SessionTicketRow | undefined>
  /** Deletes tickets that expired before the cutoff; resolves to how many. */
  deleteExpiredBefore(cutoff: string): Promise<number>
}

/** The session-tickets repository on a database. */
export function createSessionTicketsRepository(db: Database): SessionTicketsRepository {
  return {
    async insert(row) {
      await db.insertInto('session_tickets').values(row).execute()
    },
    async use(ticketHash, at) {
      const result = await db
        .updateTable('session_tickets')
        .set({ used_at: at })
        .where('ticket_hash', '=', ticketHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst()
      if (result.numUpdatedRows === 0n) return undefined
      return db
        .selectFrom('session_tickets')
        .selectAll()
        .where('ticket_hash', '=', ticketHash)
        .executeTakeFirst()
    },
    async deleteExpiredBefore(cutoff) {
      const result = await db
        .deleteFrom('session_tickets')
        .where('expires_at', '<', cutoff)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
