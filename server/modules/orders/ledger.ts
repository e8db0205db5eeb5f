import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { AppError } from '../../http/app-error'
import type { Database, DatabaseDialect, DatabaseHandle } from '../../plugins/db'

/**
 * The append-only, double-entry ledger of points (issue 20 item 1, decisions.md "Money").
 * A movement moves a positive amount from one account to another: one movement row and two
 * entry rows (−amount, +amount) that sum to zero, and both cached balances, all inside the
 * caller's transaction. Nothing here updates or deletes an entry (the database refuses it:
 * migration 0012's triggers). A user's balance never goes negative: the debit is a guarded
 * update (`balance >= amount`) and the table has a check. The system accounts are the other
 * side: `funding` goes negative by what was recharged, `revenue` grows by what was paid.
 *
 * Locking (PostgreSQL, READ COMMITTED): callers lock the document row first (the order or the
 * recharge, `for update`), then the user's account ({@link lockUserAccount}); the system
 * account is updated last. Every path takes locks in that order, so no two transactions wait
 * on each other in a cycle. SQLite runs one write transaction at a time on the app's single
 * connection, and the same statements hold there.
 */

/** The system's accounts: payments go to revenue, recharges come from funding. */
export const systemAccountIds = {
  revenue: 'system:revenue',
  funding: 'system:funding',
} as const

/** The ledger account id of a user. */
export function userAccountId(userId: string): string {
  return `user:${userId}`
}

/** One movement: `amount` points from one account to another, for an order or a recharge. */
export interface LedgerMovement {
  kind: 'payment' | 'recharge'
  referenceId: string
  fromAccountId: string
  toAccountId: string
  amount: number
  createdBy: string | null
}

/** Creates the account when missing (a race between two creators is harmless). */
export async function ensureAccount(
  transaction: Database,
  account: { id: string; kind: 'user' | 'revenue' | 'funding'; userId: string | null },
  timestamp: string,
): Promise<void> {
  await transaction
    .insertInto('ledger_accounts')
    .values({
      id: account.id,
      kind: account.kind,
      user_id: account.userId,
      balance: 0,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute()
}

/**
 * Creates (when missing) and locks a user's account for the rest of the transaction; resolves
 * to its balance as of the lock.
 */
export async function lockUserAccount(
  transaction: Database,
  dialect: DatabaseDialect,
  userId: string,
  timestamp: string,
): Promise<number> {
  const id = userAccountId(userId)
  await ensureAccount(transaction, { id, kind: 'user', userId }, timestamp)
  let query = transaction.selectFrom('ledger_accounts').select('balance').where('id', '=', id)
  if (dialect === 'postgres') query = query.forUpdate()
  const row = await query.executeTakeFirstOrThrow()
  return Number(row.balance)
}

/** A user's balance (0 before their first movement), without locking. */
export async function balanceOf(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('id', '=', userAccountId(userId))
    .executeTakeFirst()
  return row === undefined ? 0 : Number(row.balance)
}

/**
 * Records one movement inside the caller's transaction: the movement, its two entries and
 * both balances. A user account without the points refuses it (`paymentRequired`), and a
 * second movement of the same kind for the same reference fails on the unique constraint, so
 * a bug elsewhere still cannot charge an order twice.
 */
export async function recordMovement(
  transaction: Database,
  movement: LedgerMovement,
  timestamp: string,
): Promise<void> {
  const { amount } = movement
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new Error(`a ledger movement needs a positive whole amount, not ${amount}`)
  }
  for (const id of Object.values(systemAccountIds)) {
    const kind = id === systemAccountIds.revenue ? 'revenue' : 'funding'
    await ensureAccount(transaction, { id, kind, userId: null }, timestamp)
  }
  const movementId = randomUUID()
  await transaction
    .insertInto('ledger_movements')
    .values({
      id: movementId,
      kind: movement.kind,
      reference_id: movement.referenceId,
      created_by: movement.createdBy,
      created_at: timestamp,
    })
    .execute()
  await transaction
    .insertInto('ledger_entries')
    .values([
      {
        id: randomUUID(),
        movement_id: movementId,
        account_id: movement.fromAccountId,
        amount: -amount,
        created_at: timestamp,
      },
      {
        id: randomUUID(),
        movement_id: movementId,
        account_id: movement.toAccountId,
        amount,
        created_at: timestamp,
      },
    ])
    .execute()
  const isUserDebit = movement.fromAccountId.startsWith('user:')
  let debit = transaction
    .updateTable('ledger_accounts')
    .set({ balance: sql`balance - ${amount}`, updated_at: timestamp })
    .where('id', '=', movement.fromAccountId)
  if (isUserDebit) debit = debit.where('balance', '>=', amount)
  const debited = await debit.executeTakeFirst()
  if (debited.numUpdatedRows !== 1n) {
    throw new AppError('paymentRequired', 'order.balanceTooLow', {
      balance: 0,
      total: amount,
    })
  }
  const credited = await transaction
    .updateTable('ledger_accounts')
    .set({ balance: sql`balance + ${amount}`, updated_at: timestamp })
    .where('id', '=', movement.toAccountId)
    .executeTakeFirst()
  if (credited.numUpdatedRows !== 1n) {
    throw new Error(`ledger account ${movement.toAccountId} does not exist`)
  }
}

/** PostgreSQL's "try again" failures: serialization failure and deadlock. */
const retryableCodes = new Set(['40001', '40P01'])

/**
 * Runs `work` in one transaction, again (up to `attempts` times) when PostgreSQL reports a
 * serialization failure or a deadlock, which say the work did nothing and may be retried.
 */
export async function inTransaction<Result>(
  database: DatabaseHandle,
  work: (transaction: Database) => Promise<Result>,
  attempts = 5,
): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(work)
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code
      if (attempt >= attempts || typeof code !== 'string' || !retryableCodes.has(code)) throw error
    }
  }
}

/** What {@link verifyLedger} found. */
export interface LedgerReport {
  accounts: number
  movements: number
  entries: number
  /** Sum of every entry: 0 when nothing was created or lost. */
  totalSum: number
  /** Points users hold (the sum of user balances). */
  userPoints: number
  /** Each problem in one line; empty when the ledger is consistent. */
  problems: string[]
}

/**
 * Checks the ledger: every movement has exactly two entries that sum to zero, all entries sum
 * to zero, every cached balance equals the sum of its account's entries, no user balance is
 * negative, and each paid order has exactly one payment movement of its total.
 */
export async function verifyLedger(db: Database): Promise<LedgerReport> {
  const problems: string[] = []
  const counts = await db
    .selectFrom('ledger_entries')
    .select((builder) => [
      builder.fn.countAll().as('entries'),
      builder.fn.coalesce(builder.fn.sum('amount'), sql`0`).as('total'),
    ])
    .executeTakeFirstOrThrow()
  const movementCount = await db
    .selectFrom('ledger_movements')
    .select((builder) => builder.fn.countAll().as('count'))
    .executeTakeFirstOrThrow()
  const totalSum = Number(counts.total)
  if (totalSum !== 0) problems.push(`all entries sum to ${totalSum}, not 0`)

  const unbalanced = await db
    .selectFrom('ledger_movements as movement')
    .leftJoin('ledger_entries as entry', 'entry.movement_id', 'movement.id')
    .select((builder) => [
      'movement.id',
      builder.fn.count('entry.id').as('entries'),
      builder.fn.coalesce(builder.fn.sum('entry.amount'), sql`0`).as('total'),
    ])
    .groupBy('movement.id')
    .having((builder) =>
      builder.or([
        builder(builder.fn.count('entry.id'), '<>', 2),
        builder(builder.fn.coalesce(builder.fn.sum('entry.amount'), sql`0`), '<>', 0),
      ]),
    )
    .execute()
  for (const row of unbalanced) {
    problems.push(
      `movement ${row.id}: ${Number(row.entries)} entries summing to ${Number(row.total)}`,
    )
  }

  const accounts = await db
    .selectFrom('ledger_accounts as account')
    .leftJoin('ledger_entries as entry', 'entry.account_id', 'account.id')
    .select((builder) => [
      'account.id',
      'account.kind',
      'account.balance',
      builder.fn.coalesce(builder.fn.sum('entry.amount'), sql`0`).as('total'),
    ])
    .groupBy(['account.id', 'account.kind', 'account.balance'])
    .execute()
  let userPoints = 0
  for (const account of accounts) {
    const balance = Number(account.balance)
    const total = Number(account.total)
    if (balance !== total) {
      problems.push(`account ${account.id}: cached balance ${balance}, entries sum to ${total}`)
    }
    if (account.kind === 'user') {
      userPoints += balance
      if (balance < 0) problems.push(`account ${account.id}: negative balance ${balance}`)
    }
  }

  const payments = await db
    .selectFrom('orders as ordered')
    .leftJoin('ledger_movements as movement', (join) =>
      join.onRef('movement.reference_id', '=', 'ordered.id').on('movement.kind', '=', 'payment'),
    )
    .leftJoin('ledger_entries as entry', (join) =>
      join.onRef('entry.movement_id', '=', 'movement.id').on('entry.amount', '>', 0),
    )
    .select((builder) => [
      'ordered.id',
      'ordered.state',
      'ordered.total',
      builder.fn.count('movement.id').as('movements'),
      builder.fn.coalesce(builder.fn.sum('entry.amount'), sql`0`).as('charged'),
    ])
    .groupBy(['ordered.id', 'ordered.state', 'ordered.total'])
    .execute()
  for (const order of payments) {
    const expected = order.state === 'paid' ? Number(order.total) : 0
    const movements = Number(order.movements)
    if (movements !== (order.state === 'paid' ? 1 : 0) || Number(order.charged) !== expected) {
      problems.push(
        `order ${order.id} (${order.state}): ${movements} payments charging ${Number(order.charged)}`,
      )
    }
  }

  return {
    accounts: accounts.length,
    movements: Number(movementCount.count),
    entries: Number(counts.entries),
    totalSum,
    userPoints,
    problems,
  }
}
