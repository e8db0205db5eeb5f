import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import { coinUnit, orderLimits, type Recharge } from '../../../contract/orders'
import { AppError } from '../../http/app-error'
import type { RechargesTable } from '../../migrations/0012-orders'
import { type Database, type DatabaseHandle, isUniqueViolation } from '../../plugins/db'
import type { AuthUser } from '../accounts/users.service'
import type { RateLimiter } from '../auth/rate-limiter'
import { type Clock, timestampOf } from '../time/clock'
import {
  balanceOf,
  inTransaction,
  lockUserAccount,
  recordMovement,
  systemAccountIds,
  userAccountId,
} from './ledger'
import { randomCode } from './orders.service'
import type { PaymentNotice } from './payment-providers'

type RechargeRow = Selectable<RechargesTable> & { user_name: string | null }

/** What a user asks to recharge: online (a code to quote) or a bank transfer they made. */
export interface RechargeRequest {
  method: 'online' | 'bank'
  amount: number
  payerName?: string | undefined
  bankReference?: string | undefined
  idempotencyKey?: string | undefined
}

/**
 * Recharges and bank transfers (issue 20 item 4): a request is a pending recharge with a code;
 * the points reach the balance only when an admin confirms the code (a payment provider's
 * signed callback would confirm through the same `confirm`). Confirming credits the ledger
 * once: the movement's (kind, reference) is unique.
 */
export interface RechargesService {
  request(user: AuthUser, input: RechargeRequest): Promise<Recharge>
  find(user: AuthUser, rechargeId: string): Promise<Recharge>
  cancel(user: AuthUser, rechargeId: string): Promise<Recharge>
  /**
   * An admin confirms a code. Unknown codes count against the admin: after
   * {@link rechargeCodeGuessLimit} of them in its window every confirmation waits
   * (`recharge.tooManyGuesses`), so codes cannot be found by trying.
   */
  confirm(admin: AuthUser, code: string): Promise<Recharge & { balance: number }>
  /**
   * A provider's verified notice confirms its recharge, once: a repeated notice (providers
   * retry callbacks) answers the confirmed recharge without crediting again.
   */
  confirmFromProvider(
    provider: string,
    notice: PaymentNotice,
  ): Promise<Recharge & { balance: number; is_replay: boolean }>
  list(
    user: AuthUser,
    input: {
      pageNo: number
      pageSize: number
      state?: Recharge['state'] | undefined
      everyone?: boolean | undefined
    },
  ): Promise<{ list: Recharge[]; total: number; pageNo: number; pageSize: number }>
  account(
    user: AuthUser,
  ): Promise<{ balance: number; unit: typeof coinUnit; pending_recharges: number }>
}

/** Unknown codes one confirmer may try per window before confirmations wait. */
export const rechargeCodeGuessLimit = { attempts: 10, windowMs: 15 * 60_000 } as const

/** A code as users type it: upper case, without spaces. */
function normalizedCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase()
}

function rechargeOf(row: RechargeRow): Recharge {
  return {
    id: row.id,
    code: row.code,
    user_id: row.user_id,
    user_name: row.user_name ?? '',
    method: row.method,
    amount: Number(row.amount),
    state: row.state,
    payer_name: row.payer_name,
    bank_reference: row.bank_reference,
    created_at: row.created_at,
    confirmed_at: row.confirmed_at,
    cancelled_at: row.cancelled_at,
  }
}

/** Builds the recharges service. SQL for `recharges` lives here. */
export function createRechargesService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  limiter: RateLimiter
}): RechargesService {
  const { database, clock, limiter } = dependencies
  const { db, dialect } = database
  const now = () => timestampOf(clock.nowMs())

  const withUserName = (handle: Database) =>
    handle
      .selectFrom('recharges')
      .leftJoin('users', 'users.id', 'recharges.user_id')
      .selectAll('recharges')
      .select('users.name as user_name')

  const findRow = async (handle: Database, id: string) =>
    withUserName(handle).where('recharges.id', '=', id).executeTakeFirst()

  const readable = async (user: AuthUser, id: string) => {
    const row = await findRow(db, id)
    if (!row) throw new AppError('notFound', 'recharge.notFound')
    if (row.user_id !== user.id && user.role !== 'admin') {
      throw new AppError('forbidden', 'recharge.foreign')
    }
    return row
  }

  const replayOf = async (user: AuthUser, input: RechargeRequest) => {
    if (input.idempotencyKey === undefined) return undefined
    const row = await withUserName(db)
      .where('recharges.user_id', '=', user.id)
      .where('recharges.idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirst()
    if (!row) return undefined
    if (row.method !== input.method || Number(row.amount) !== input.amount) {
      throw new AppError('conflict', 'recharge.keyReused')
    }
    return rechargeOf(row)
  }

  /**
   * Credits a pending recharge found by its code, in one transaction with its ledger movement
   * (one per recharge: the movement's reference is unique). `expectedAmount` (a provider's
   * notice) must match the recharge.
   */
  const confirmByCode = (
    code: string,
    by: { confirmedBy?: string; expectedAmount?: number; providerReference?: string },
  ): Promise<Recharge & { balance: number }> =>
    inTransaction(database, async (transaction) => {
      let query = transaction
        .selectFrom('recharges')
        .selectAll()
        .where('code', '=', normalizedCode(code))
      if (dialect === 'postgres') query = query.forUpdate()
      const row = await query.executeTakeFirst()
      if (!row) throw new AppError('notFound', 'recharge.notFound')
      if (row.state === 'confirmed') throw new AppError('conflict', 'recharge.alreadyConfirmed')
      if (row.state === 'cancelled') throw new AppError('conflict', 'recharge.cancelled')
      const amount = Number(row.amount)
      if (by.expectedAmount !== undefined && by.expectedAmount !== amount) {
        throw new AppError('conflict', 'payment.amountMismatch')
      }
      const timestamp = now()
      const balance = await lockUserAccount(transaction, dialect, row.user_id, timestamp)
      const confirmedBy = by.confirmedBy ?? null
      await recordMovement(
        transaction,
        {
          kind: 'recharge',
          referenceId: row.id,
          fromAccountId: systemAccountIds.funding,
          toAccountId: userAccountId(row.user_id),
          amount,
          createdBy: confirmedBy,
        },
        timestamp,
      )
      await transaction
        .updateTable('recharges')
        .set({
          state: 'confirmed',
          confirmed_at: timestamp,
          confirmed_by: confirmedBy,
          // a provider's payment id, for reconciliation with its statements
          ...(by.providerReference === undefined ? {} : { bank_reference: by.providerReference }),
        })
        .where('id', '=', row.id)
        .execute()
      return {
        ...rechargeOf((await findRow(transaction, row.id))!),
        balance: balance + amount,
      }
    })

  return {
    async request(user, input) {
      const replay = await replayOf(user, input)
      if (replay) return replay
      try {
        return await inTransaction(database, async (transaction) => {
          const pending = await transaction
            .selectFrom('recharges')
            .select((builder) => builder.fn.countAll<number | string>().as('count'))
            .where('user_id', '=', user.id)
            .where('state', '=', 'pending')
            .executeTakeFirstOrThrow()
          if (Number(pending.count) >= orderLimits.maxPendingRecharges) {
            throw new AppError('conflict', 'recharge.tooManyPending', {
              count: Number(pending.count),
            })
          }
          const id = randomUUID()
          await transaction
            .insertInto('recharges')
            .values({
              id,
              code: `RC-${randomCode(5)}-${randomCode(5)}`,
              user_id: user.id,
              method: input.method,
              amount: input.amount,
              state: 'pending',
              payer_name: input.payerName ?? '',
              bank_reference: input.bankReference ?? '',
              idempotency_key: input.idempotencyKey ?? null,
              created_at: now(),
              confirmed_at: null,
              confirmed_by: null,
              cancelled_at: null,
            })
            .execute()
          return rechargeOf((await findRow(transaction, id))!)
        })
      } catch (error) {
        // the same key sent twice at once: the first one's recharge is the answer
        if (isUniqueViolation(error)) {
          const replayed = await replayOf(user, input)
          if (replayed) return replayed
        }
        throw error
      }
    },

    async find(user, rechargeId) {
      return rechargeOf(await readable(user, rechargeId))
    },

    async cancel(user, rechargeId) {
      await readable(user, rechargeId)
      return inTransaction(database, async (transaction) => {
        let query = transaction.selectFrom('recharges').select('state').where('id', '=', rechargeId)
        if (dialect === 'postgres') query = query.forUpdate()
        const row = await query.executeTakeFirstOrThrow()
        if (row.state !== 'pending') throw new AppError('conflict', 'recharge.notPending')
        await transaction
          .updateTable('recharges')
          .set({ state: 'cancelled', cancelled_at: now() })
          .where('id', '=', rechargeId)
          .execute()
        return rechargeOf((await findRow(transaction, rechargeId))!)
      })
    },

    async confirm(admin, code) {
      const bucket = `recharge-code:${admin.id}`
      const { attempts, windowMs } = rechargeCodeGuessLimit
      // over the budget: refused before the code is even looked at (a right guess included)
      if ((await limiter.countSince(bucket, clock.nowMs() - windowMs)) >= attempts) {
        await limiter.take(bucket, attempts, windowMs, 'recharge.tooManyGuesses')
      }
      try {
        return await confirmByCode(code, { confirmedBy: admin.id })
      } catch (error) {
        if (error instanceof AppError && error.messageId === 'recharge.notFound') {
          await limiter.take(bucket, attempts, windowMs, 'recharge.tooManyGuesses')
        }
        throw error
      }
    },

    async confirmFromProvider(provider, notice) {
      try {
        const confirmed = await confirmByCode(notice.code, {
          expectedAmount: notice.amount,
          providerReference: `${provider}:${notice.reference}`,
        })
        return { ...confirmed, is_replay: false }
      } catch (error) {
        if (!(error instanceof AppError && error.messageId === 'recharge.alreadyConfirmed')) {
          throw error
        }
        // the provider sent it again: the first confirmation is the answer
        const row = await withUserName(db)
          .where('recharges.code', '=', normalizedCode(notice.code))
          .executeTakeFirstOrThrow()
        return { ...rechargeOf(row), balance: await balanceOf(db, row.user_id), is_replay: true }
      }
    },

    async list(user, input) {
      const isEveryone = input.everyone === true && user.role === 'admin'
      if (input.everyone === true && !isEveryone) {
        throw new AppError('forbidden', 'order.everyoneAdminOnly')
      }
      const filtered = <Query extends ReturnType<typeof withUserName>>(query: Query): Query => {
        let result = query
        if (!isEveryone) result = result.where('recharges.user_id', '=', user.id) as Query
        if (input.state !== undefined) {
          result = result.where('recharges.state', '=', input.state) as Query
        }
        return result
      }
      const rows = await filtered(withUserName(db))
        .orderBy('recharges.created_at', 'desc')
        .orderBy('recharges.id', 'desc')
        .limit(input.pageSize)
        .offset((input.pageNo - 1) * input.pageSize)
        .execute()
      let countQuery = db
        .selectFrom('recharges')
        .select((builder) => builder.fn.countAll<number | string>().as('count'))
      if (!isEveryone) countQuery = countQuery.where('user_id', '=', user.id)
      if (input.state !== undefined) countQuery = countQuery.where('state', '=', input.state)
      const total = await countQuery.executeTakeFirstOrThrow()
      return {
        list: rows.map(rechargeOf),
        total: Number(total.count),
        pageNo: input.pageNo,
        pageSize: input.pageSize,
      }
    },

    async account(user) {
      const pending = await db
        .selectFrom('recharges')
        .select((builder) => builder.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', user.id)
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow()
      return {
        balance: await balanceOf(db, user.id),
        unit: coinUnit,
        pending_recharges: Number(pending.count),
      }
    },
  }
}
