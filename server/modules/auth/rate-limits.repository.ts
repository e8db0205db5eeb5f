import { type Selectable, sql } from 'kysely'
import type { SignInLockoutsTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'

/** A `sign_in_lockouts` row. */
export type SignInLockoutRow = Selectable<SignInLockoutsTable>

/** SQL for `rate_limit_events` (sliding windows) and `sign_in_lockouts`. */
export interface RateLimitsRepository {
  addEvent(event: { id: string; bucket: string; created_at: string }): Promise<void>
  removeEvent(id: string): Promise<void>
  /** Events of the bucket after `since` (a window ending now excludes its start). */
  countSince(bucket: string, since: string): Promise<number>
  /** The time of the bucket's oldest event after `since`, if any. */
  oldestSince(bucket: string, since: string): Promise<string | undefined>
  /** The time of the bucket's newest event, if any. */
  newest(bucket: string): Promise<string | undefined>
  /** Deletes events older than the cutoff; resolves to how many. */
  deleteEventsBefore(cutoff: string): Promise<number>

  findLockout(accountKey: string): Promise<SignInLockoutRow | undefined>
  /**
   * Counts one more failure (or attempt in progress) of an account name in one statement, so
   * parallel attempts each see a distinct count. A lock that has ended is cleared and the count
   * starts again at 1. Resolves to the new count and the lock still running, if any.
   */
  addFailure(accountKey: string, at: string): Promise<{ count: number; lockedUntil: string | null }>
  /**
   * Counts one attempt on a row if its count is still `expectedCount` (undefined: the row does
   * not exist yet), setting `locked_until` to `nextAllowedAt`; resolves to whether this call
   * counted it. Compare-and-set, so of parallel callers who read the same count one wins.
   */
  claimAttempt(
    accountKey: string,
    expectedCount: number | undefined,
    at: string,
    nextAllowedAt: string | null,
  ): Promise<boolean>
  /** Forgets every row whose key starts with `prefix`. */
  clearLockoutsWithPrefix(prefix: string): Promise<void>
  /** Locks the name until `until`; its count stays until the lock ends. */
  lock(accountKey: string, until: string): Promise<void>
  /** Forgets the name's failures and lock (after a success or a password reset). */
  clearLockout(accountKey: string): Promise<void>
  /** Deletes unlocked rows whose last failure is older than the cutoff; resolves to how many. */
  deleteLockoutsBefore(cutoff: string, now: string): Promise<number>
}

/** The rate-limits repository on a database. */
export function createRateLimitsRepository(db: Database): RateLimitsRepository {
  return {
    async addEvent(event) {
      await db.insertInto('rate_limit_events').values(event).execute()
    },
    async removeEvent(id) {
      await db.deleteFrom('rate_limit_events').where('id', '=', id).execute()
    },
    async countSince(bucket, since) {
      const row = await db
        .selectFrom('rate_limit_events')
        .select((builder) => builder.fn.countAll().as('count'))
        .where('bucket', '=', bucket)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
    async oldestSince(bucket, since) {
      const row = await db
        .selectFrom('rate_limit_events')
        .select('created_at')
        .where('bucket', '=', bucket)
        .where('created_at', '>', since)
        .orderBy('created_at', 'asc')
        .limit(1)
        .executeTakeFirst()
      return row?.created_at
    },
    async newest(bucket) {
      const row = await db
        .selectFrom('rate_limit_events')
        .select('created_at')
        .where('bucket', '=', bucket)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row?.created_at
    },
    async deleteEventsBefore(cutoff) {
      const result = await db
        .deleteFrom('rate_limit_events')
        .where('created_at', '<', cutoff)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    findLockout(accountKey) {
      return db
        .selectFrom('sign_in_lockouts')
        .selectAll()
        .where('account_key', '=', accountKey)
        .executeTakeFirst()
    },
    async addFailure(accountKey, at) {
      const lockEnded = sql<boolean>`sign_in_lockouts.locked_until is not null and sign_in_lockouts.locked_until <= ${at}`
      const row = await db
        .insertInto('sign_in_lockouts')
        .values({
          account_key: accountKey,
          failure_count: 1,
          last_failure_at: at,
          locked_until: null,
        })
        .onConflict((conflict) =>
          conflict.column('account_key').doUpdateSet({
            failure_count: sql<number>`case when ${lockEnded} then 1 else sign_in_lockouts.failure_count + 1 end`,
            locked_until: sql<
              string | null
            >`case when ${lockEnded} then null else sign_in_lockouts.locked_until end`,
            last_failure_at: at,
          }),
        )
        .returning(['failure_count', 'locked_until'])
        .executeTakeFirstOrThrow()
      return { count: Number(row.failure_count), lockedUntil: row.locked_until }
    },
    async claimAttempt(accountKey, expectedCount, at, nextAllowedAt) {
      if (expectedCount === undefined) {
        const inserted = await db
          .insertInto('sign_in_lockouts')
          .values({
            account_key: accountKey,
            failure_count: 1,
            last_failure_at: at,
            locked_until: nextAllowedAt,
          })
          .onConflict((conflict) => conflict.column('account_key').doNothing())
          .returning('account_key')
          .executeTakeFirst()
        return inserted !== undefined
      }
      const result = await db
        .updateTable('sign_in_lockouts')
        .set({
          failure_count: expectedCount + 1,
          last_failure_at: at,
          locked_until: nextAllowedAt,
        })
        .where('account_key', '=', accountKey)
        .where('failure_count', '=', expectedCount)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },
    async clearLockoutsWithPrefix(prefix) {
      await db
        .deleteFrom('sign_in_lockouts')
        .where(sql<string>`substr(account_key, 1, ${prefix.length})`, '=', prefix)
        .execute()
    },
    async lock(accountKey, until) {
      await db
        .updateTable('sign_in_lockouts')
        .set({ locked_until: until })
        .where('account_key', '=', accountKey)
        .execute()
    },
    async clearLockout(accountKey) {
      await db.deleteFrom('sign_in_lockouts').where('account_key', '=', accountKey).execute()
    },
    async deleteLockoutsBefore(cutoff, now) {
      const result = await db
        .deleteFrom('sign_in_lockouts')
        .where('last_failure_at', '<', cutoff)
        .where((where) =>
          where.or([where('locked_until', 'is', null), where('locked_until', '<', now)]),
        )
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
