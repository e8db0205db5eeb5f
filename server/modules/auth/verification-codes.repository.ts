import type { Insertable, Selectable } from 'kysely'
import { sql } from 'kysely'
import type { VerificationCodesTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'

/** A `verification_codes` row. */
export type VerificationCodeRow = Selectable<VerificationCodesTable>

/** Which codes a lookup is about. */
export interface CodeAddress {
  channel: VerificationCodeRow['channel']
  recipient: string
  purpose: VerificationCodeRow['purpose']
}

/** SQL for `verification_codes`. */
export interface VerificationCodesRepository {
  /** Inserts a code and retires the earlier live codes of the same address, in one transaction. */
  insertReplacing(row: Insertable<VerificationCodesTable>, retiredAt: string): Promise<void>
  /** The newest code of an address, used or not. */
  findNewest(address: CodeAddress): Promise<VerificationCodeRow | undefined>
  /**
   * Counts a try on a live code, unless it has no tries left: resolves to whether a try was
   * counted. One statement, so parallel guesses cannot exceed the budget.
   */
  reserveTry(id: string, maxTries: number): Promise<boolean>
  /** Gives back a try counted by `reserveTry` (the code proved right and stays usable). */
  refundTry(id: string): Promise<void>
  /** Marks a live code used; resolves to whether this call was the one that used it. */
  consume(id: string, at: string): Promise<boolean>
  /** Deletes codes that expired before the cutoff; resolves to how many. */
  deleteExpiredBefore(cutoff: string): Promise<number>
}

/** The verification-codes repository on a database. */
export function createVerificationCodesRepository(db: Database): VerificationCodesRepository {
  return {
    async insertReplacing(row, retiredAt) {
      await db.transaction().execute(async (transaction) => {
        await transaction
          .updateTable('verification_codes')
          .set({ consumed_at: retiredAt })
          .where('channel', '=', row.channel)
          .where('recipient', '=', row.recipient)
          .where('purpose', '=', row.purpose)
          .where('consumed_at', 'is', null)
          .execute()
        await transaction.insertInto('verification_codes').values(row).execute()
      })
    },
    findNewest(address) {
      return db
        .selectFrom('verification_codes')
        .selectAll()
        .where('channel', '=', address.channel)
        .where('recipient', '=', address.recipient)
        .where('purpose', '=', address.purpose)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
    },
    async reserveTry(id, maxTries) {
      const result = await db
        .updateTable('verification_codes')
        .set({ tries: sql<number>`tries + 1` })
        .where('id', '=', id)
        .where('tries', '<', maxTries)
        .where('consumed_at', 'is', null)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async refundTry(id) {
      await db
        .updateTable('verification_codes')
        .set({ tries: sql<number>`tries - 1` })
        .where('id', '=', id)
        .where('tries', '>', 0)
        .execute()
    },
    async consume(id, at) {
      const result = await db
        .updateTable('verification_codes')
        .set({ consumed_at: at })
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async deleteExpiredBefore(cutoff) {
      const result = await db
        .deleteFrom('verification_codes')
        .where('expires_at', '<', cutoff)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
