import type { Insertable, Selectable } from 'kysely'
import type { SessionsTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'

/** A `sessions` row as stored. */
export type SessionRow = Selectable<SessionsTable>
/** The columns needed to insert a session. */
export type NewSessionRow = Insertable<SessionsTable>

/** SQL for the `sessions` table. Timestamps are ISO strings (see migrations/tables.ts). */
export interface SessionsRepository {
  insert(row: NewSessionRow): Promise<void>
  findByTokenHash(tokenHash: string): Promise<SessionRow | undefined>
  findById(id: string): Promise<SessionRow | undefined>
  /** Records activity; resolves to whether a live (unrevoked) session was updated. */
  touch(id: string, lastSeenAt: string): Promise<boolean>
  /** Revokes one session; resolves to whether it was live. */
  revoke(id: string, revokedAt: string): Promise<boolean>
  /** Revokes every live session of a user (e.g. after a password change); resolves to how many. */
  revokeAllOfUser(userId: string, revokedAt: string): Promise<number>
  /** Revokes every live session of a user but one (the caller's own); resolves to how many. */
  revokeOthersOfUser(userId: string, keptSessionId: string, revokedAt: string): Promise<number>
  /** Deletes sessions that ended (expired or revoked) before the cutoff; resolves to how many. */
  deleteEndedBefore(cutoff: string): Promise<number>
}

/** The sessions repository on a database. */
export function createSessionsRepository(db: Database): SessionsRepository {
  return {
    async insert(row) {
      await db.insertInto('sessions').values(row).execute()
    },
    findByTokenHash(tokenHash) {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst()
    },
    findById(id) {
      return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst()
    },
    async touch(id, lastSeenAt) {
      const result = await db
        .updateTable('sessions')
        .set({ last_seen_at: lastSeenAt })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async revoke(id, revokedAt) {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: revokedAt })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async revokeOthersOfUser(userId, keptSessionId, revokedAt) {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: revokedAt })
        .where('user_id', '=', userId)
        .where('id', '!=', keptSessionId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },
    async revokeAllOfUser(userId, revokedAt) {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: revokedAt })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },
    async deleteEndedBefore(cutoff) {
      const result = await db
        .deleteFrom('sessions')
        .where((where) =>
          where.or([where('expires_at', '<', cutoff), where('revoked_at', '<', cutoff)]),
        )
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
