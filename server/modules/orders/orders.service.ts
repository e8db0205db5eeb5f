import { randomBytes, randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import {
  type AddOrderBody,
  type LocalizedText,
  type OrderDetail,
  type OrderLineType,
  type OrderPage,
  type OrderState,
  type OrderSummary,
  type OrderUnit,
  type PayDatum,
  priceContactUs,
  priceFree,
  type ShoppingLine,
  type ShoppingListDatum,
  type UsageHistory,
} from '../../../contract/orders'
import { AppError, fieldError } from '../../http/app-error'
import type { OrdersTable } from '../../migrations/0012-orders'
import { type Database, type DatabaseHandle, isUniqueViolation } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { type Clock, timestampOf } from '../time/clock'
import {
  balanceOf,
  inTransaction,
  lockUserAccount,
  recordMovement,
  systemAccountIds,
  userAccountId,
} from './ledger'
import { billedMegabytes, measureProjectUsage } from './metering'
import { listPriceItems } from './price-items'
import { dailyProjectUsage } from './usage-history'

type OrderRow = Selectable<OrdersTable>

/** Orders of a project's lines, paid from the user's balance (SPEC §4, §7 `/orderManage`). */
export interface OrdersService {
  shoppingList(user: AuthUser, projectId: string): Promise<ShoppingListDatum>
  addOrder(
    user: AuthUser,
    input: { project_id: string; ids: string[]; counts?: Record<string, number> | undefined },
  ): Promise<{ orderId: string; order_no: string; total: number }>
  pay(user: AuthUser, orderId: string, idempotencyKey: string | undefined): Promise<PayDatum>
  deleteOrder(user: AuthUser, orderId: string): Promise<OrderSummary>
  orderState(
    user: AuthUser,
    projectId: string,
  ): Promise<{ project_id: string; is_paid: boolean; unpaid_order: OrderSummary | null }>
  projectOrders(
    user: AuthUser,
    input: { project_id: string; pageNo: number; pageSize: number },
  ): Promise<OrderPage>
  allOrders(
    user: AuthUser,
    input: {
      pageNo: number
      pageSize: number
      state?: OrderState | undefined
      everyone?: boolean | undefined
    },
  ): Promise<OrderPage>
  orderDetail(user: AuthUser, orderId: string): Promise<OrderDetail>
  /** The project's usage per day over the last `days` days, today included. */
  usageHistory(user: AuthUser, projectId: string, days: number): Promise<UsageHistory>
  /**
   * Whether a project may download its offline package: refused with the §8 message while an
   * order is unpaid, and as payment required while the project is not paid.
   */
  requireDownloadAllowed(projectId: string): Promise<void>
}

/** Addresses a line type's meaning in code. */
const lineTypes = {
  upload: '1',
  update: '2',
  configuration: '3',
  watermark: '4',
  support: '5',
  trial: '6',
} as const satisfies Record<string, OrderLineType>

const meteredTypes = new Set<string>([lineTypes.upload, lineTypes.update, lineTypes.configuration])

/** Base32 without look-alikes (Crockford), for order numbers and recharge codes. */
const codeAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** `length` random characters of {@link codeAlphabet}. */
export function randomCode(length: number): string {
  const bytes = randomBytes(length)
  let text = ''
  for (const byte of bytes) text += codeAlphabet[byte & 31]
  return text
}

/** A readable order number: the UTC date and time and 4 random characters. */
function orderNumberAt(timestamp: string): string {
  return `TS${timestamp.slice(0, 19).replace(/\D/g, '')}${randomCode(4)}`
}

/** What a computed line needs beyond the contract's fields. */
interface ComputedLine extends ShoppingLine {
  /** The price item's sort order (the service support radio lists options in it). */
  sortOrder: number
}

function summaryOf(row: OrderRow): OrderSummary {
  return {
    id: row.id,
    order_no: row.order_no,
    project_id: row.project_id,
    project_name: row.project_name,
    user_id: row.user_id,
    state: row.state,
    total: Number(row.total),
    created_at: row.created_at,
    paid_at: row.paid_at,
    cancelled_at: row.cancelled_at,
  }
}

/** Builds the orders service. SQL for `orders`, `order_lines` and `shopping_lines` lives here. */
export function createOrdersService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}): OrdersService {
  const { database, clock, access } = dependencies
  const { db, dialect } = database
  const now = () => timestampOf(clock.nowMs())

  const findOrder = (handle: Database, orderId: string, forUpdate = false) => {
    let query = handle.selectFrom('orders').selectAll().where('id', '=', orderId)
    if (forUpdate && dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  /** The order if the user may see it (its orderer, or an admin). */
  const readableOrder = async (user: AuthUser, orderId: string) => {
    const row = await findOrder(db, orderId)
    if (!row) throw new AppError('notFound', 'order.notFound')
    if (row.user_id !== user.id && user.role !== 'admin') {
      throw new AppError('forbidden', 'order.foreign')
    }
    return row
  }

  const unpaidOrderOf = (handle: Database, projectId: string) =>
    handle
      .selectFrom('orders')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('state', '=', 'unpaid')
      .executeTakeFirst()

  /** The project's line id for each active price item (made on first sight, then stable). */
  const lineIdsOf = async (handle: Database, projectId: string, itemIds: string[]) => {
    const read = async () => {
      const rows = await handle
        .selectFrom('shopping_lines')
        .select(['id', 'item_id'])
        .where('project_id', '=', projectId)
        .execute()
      return new Map(rows.map((row) => [row.item_id, row.id]))
    }
    const known = await read()
    const missing = itemIds.filter((itemId) => !known.has(itemId))
    if (missing.length === 0) return known
    // one write for all missing lines (each write outside a transaction is a synced commit)
    const timestamp = now()
    await handle
      .insertInto('shopping_lines')
      .values(
        missing.map((itemId) => ({
          id: randomUUID(),
          project_id: projectId,
          item_id: itemId,
          created_at: timestamp,
        })),
      )
      .onConflict((conflict) => conflict.columns(['project_id', 'item_id']).doNothing())
      .execute()
    return read()
  }

  /** Computes the project's lines as of `until` (SPEC §3 fields; see contract/orders.ts). */
  const computeLines = async (
    handle: Database,
    projectId: string,
    until: string,
  ): Promise<{ lines: ComputedLine[]; meteredSince: string | null }> => {
    const items = (await listPriceItems(handle)).filter((item) => item.is_active)
    const lineIds = await lineIdsOf(
      handle,
      projectId,
      items.map((item) => item.id),
    )
    const lastPaid = await handle
      .selectFrom('orders')
      .select((builder) => builder.fn.max('metered_until').as('until'))
      .where('project_id', '=', projectId)
      .where('state', '=', 'paid')
      .executeTakeFirst()
    const meteredSince = lastPaid?.until ?? null
    const usage = await measureProjectUsage(handle, projectId, { since: meteredSince, until })
    const paidRows = await handle
      .selectFrom('order_lines')
      .innerJoin('orders', 'orders.id', 'order_lines.order_id')
      .select((builder) => ['order_lines.item_id', builder.fn.sum('order_lines.count').as('count')])
      .where('orders.project_id', '=', projectId)
      .where('orders.state', '=', 'paid')
      .groupBy('order_lines.item_id')
      .execute()
    const paidCounts = new Map(paidRows.map((row) => [row.item_id, Number(row.count)]))
    let isFirstSupport = true
    const lines = items.map((item): ComputedLine => {
      const paidNum = paidCounts.get(item.id) ?? 0
      let unpaid = 1
      let meteredBytes: number | null = null
      if (item.type === lineTypes.upload) {
        meteredBytes = usage.uploadBytes
        unpaid = billedMegabytes(usage.uploadBytes)
      } else if (item.type === lineTypes.update) {
        meteredBytes = usage.updateBytes
        unpaid = billedMegabytes(usage.updateBytes)
      } else if (item.type === lineTypes.configuration) {
        unpaid = usage.configurationOperations
      } else if (item.type === lineTypes.watermark) {
        unpaid = paidNum > 0 ? 0 : 1
      }
      const isMetered = meteredTypes.has(item.type)
      const isOrderable =
        item.price !== priceContactUs && !(item.type === lineTypes.watermark && paidNum > 0)
      let isCheck = false
      if (item.type === lineTypes.support && isOrderable && isFirstSupport) {
        isCheck = true
        isFirstSupport = false
      } else if (isMetered) {
        isCheck = unpaid > 0 && isOrderable
      }
      return {
        id: lineIds.get(item.id)!,
        item_id: item.id,
        type: item.type,
        name: item.names.en,
        names: item.names,
        count: isMetered ? paidNum + unpaid : 1,
        unit: item.unit,
        amount: amountOf(item.price, unpaid),
        price: item.price,
        price_des: item.price_des,
        price_des_state: item.price_des_state,
        paid_num: paidNum,
        unpaid,
        is_check: isCheck,
        is_orderable: isOrderable,
        metered_bytes: meteredBytes,
        sortOrder: item.sort_order,
      }
    })
    return { lines, meteredSince }
  }

  /** Checks a choice of lines against SPEC §4; resolves to the lines to order with counts. */
  const chooseLines = (
    lines: ComputedLine[],
    input: { ids: string[]; counts?: Record<string, number> | undefined },
  ) => {
    if (input.ids.length === 0) throw fieldError('validation', 'ids', 'order.noLines')
    if (new Set(input.ids).size !== input.ids.length) {
      throw fieldError('validation', 'ids', 'order.duplicateLine')
    }
    const byId = new Map(lines.map((line) => [line.id, line]))
    const chosen = input.ids.map((id) => {
      const line = byId.get(id)
      if (!line) throw fieldError('validation', 'ids', 'order.lineNotInProject')
      return line
    })
    if (chosen.some((line) => line.type === lineTypes.trial)) {
      // the trial locks every other choice and is downloaded, not ordered (SPEC §4)
      throw fieldError(
        'validation',
        'ids',
        chosen.length > 1 ? 'order.trialIsExclusive' : 'order.trialNotOrdered',
      )
    }
    for (const line of chosen) {
      if (line.price === priceContactUs) throw fieldError('validation', 'ids', 'order.contactUs')
      if (!line.is_orderable) throw fieldError('validation', 'ids', 'order.alreadyOwned')
    }
    const hasSupportOptions = lines.some(
      (line) => line.type === lineTypes.support && line.is_orderable,
    )
    const supportChosen = chosen.filter((line) => line.type === lineTypes.support).length
    if (supportChosen > 1 || (hasSupportOptions && supportChosen === 0)) {
      throw fieldError('validation', 'ids', 'order.oneSupportOption')
    }
    const counts = input.counts ?? {}
    for (const id of Object.keys(counts)) {
      const line = chosen.find((candidate) => candidate.id === id)
      if (!line) throw fieldError('validation', 'counts', 'order.lineNotInProject')
      if (line.type !== lineTypes.support) {
        throw fieldError('validation', 'counts', 'order.countNotAdjustable')
      }
    }
    const ordered = chosen.map((line) => {
      const count = line.type === lineTypes.support ? (counts[line.id] ?? 1) : line.unpaid
      return { line, count, amount: amountOf(line.price, count) ?? 0 }
    })
    const total = ordered.reduce((sum, entry) => sum + entry.amount, 0)
    if (total <= 0) throw fieldError('validation', 'ids', 'order.nothingToPay')
    return { ordered, total }
  }

  const pageOf = async (
    filter: (query: ReturnType<typeof baseOrders>) => ReturnType<typeof baseOrders>,
    page: { pageNo: number; pageSize: number },
  ): Promise<OrderPage> => {
    const totalRow = await filter(baseOrders())
      .select((builder) => builder.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow()
    const rows = await filter(baseOrders())
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.pageNo - 1) * page.pageSize)
      .execute()
    return {
      list: rows.map(summaryOf),
      total: Number(totalRow.count),
      pageNo: page.pageNo,
      pageSize: page.pageSize,
    }
  }
  const baseOrders = () => db.selectFrom('orders')

  return {
    async shoppingList(user, projectId) {
      const project = await access.requireEditable(user, projectId)
      const { lines, meteredSince } = await computeLines(db, projectId, now())
      const unpaid = await unpaidOrderOf(db, projectId)
      return {
        project_id: projectId,
        lines: lines.map(({ sortOrder: _sortOrder, ...line }) => line),
        unpaid_order_id: unpaid?.id ?? null,
        is_paid: project.is_paid === 1,
        metered_since: meteredSince,
      }
    },

    async addOrder(user, input) {
      const project = await access.requireEditable(user, input.project_id)
      try {
        return await inTransaction(database, async (transaction) => {
          // ordered against the project's delete and against a second order of the project
          await access.lockEditable(transaction, user, input.project_id)
          if (await unpaidOrderOf(transaction, input.project_id)) {
            throw new AppError('conflict', 'order.unpaidOrderExists')
          }
          const meteredUntil = now()
          const { lines } = await computeLines(transaction, input.project_id, meteredUntil)
          const { ordered, total } = chooseLines(lines, input)
          const id = randomUUID()
          const orderNo = orderNumberAt(meteredUntil)
          await transaction
            .insertInto('orders')
            .values({
              id,
              order_no: orderNo,
              project_id: input.project_id,
              project_name: project.name,
              user_id: user.id,
              state: 'unpaid',
              total,
              metered_until: meteredUntil,
              pay_key: null,
              created_at: meteredUntil,
              paid_at: null,
              cancelled_at: null,
            })
            .execute()
          await transaction
            .insertInto('order_lines')
            .values(
              ordered.map(({ line, count, amount }, index) => ({
                order_id: id,
                line_no: index + 1,
                line_id: line.id,
                item_id: line.item_id,
                type: line.type,
                names_json: JSON.stringify(line.names),
                unit: line.unit,
                count,
                price: line.price,
                amount,
              })),
            )
            .execute()
          return { orderId: id, order_no: orderNo, total }
        })
      } catch (error) {
        // two orders racing past the check above: the unique index keeps one
        if (isUniqueViolation(error)) throw new AppError('conflict', 'order.unpaidOrderExists')
        throw error
      }
    },

    async pay(user, orderId, idempotencyKey) {
      try {
        return await inTransaction(database, async (transaction) => {
          // the order row first, then the account (ledger.ts: one lock order everywhere)
          const order = await findOrder(transaction, orderId, true)
          if (!order) throw new AppError('notFound', 'order.notFound')
          if (order.user_id !== user.id) throw new AppError('forbidden', 'order.foreign')
          const total = Number(order.total)
          if (order.state === 'paid') {
            if (idempotencyKey !== undefined && order.pay_key === idempotencyKey) {
              return {
                order_id: order.id,
                state: 'paid' as const,
                total,
                balance: await balanceOf(transaction, user.id),
                is_replay: true,
              }
            }
            throw new AppError('conflict', 'order.alreadyPaid')
          }
          if (order.state === 'cancelled') throw new AppError('conflict', 'order.cancelled')
          const timestamp = now()
          const balance = await lockUserAccount(transaction, dialect, user.id, timestamp)
          if (balance < total) {
            throw new AppError('paymentRequired', 'order.balanceTooLow', { balance, total })
          }
          await recordMovement(
            transaction,
            {
              kind: 'payment',
              referenceId: order.id,
              fromAccountId: userAccountId(user.id),
              toAccountId: systemAccountIds.revenue,
              amount: total,
              createdBy: user.id,
            },
            timestamp,
          )
          const updated = await transaction
            .updateTable('orders')
            .set({ state: 'paid', paid_at: timestamp, pay_key: idempotencyKey ?? null })
            .where('id', '=', order.id)
            .where('state', '=', 'unpaid')
            .executeTakeFirst()
          if (updated.numUpdatedRows !== 1n) throw new AppError('conflict', 'order.alreadyPaid')
          // paying makes the project paid (VIP, SPEC §6); a deleted project keeps its history
          await transaction
            .updateTable('projects')
            .set({ is_paid: 1 })
            .where('id', '=', order.project_id)
            .execute()
          return {
            order_id: order.id,
            state: 'paid' as const,
            total,
            balance: balance - total,
            is_replay: false,
          }
        })
      } catch (error) {
        // the key already paid another of the user's orders
        if (isUniqueViolation(error)) throw new AppError('conflict', 'order.payKeyReused')
        throw error
      }
    },

    async deleteOrder(user, orderId) {
      return inTransaction(database, async (transaction) => {
        const order = await findOrder(transaction, orderId, true)
        if (!order) throw new AppError('notFound', 'order.notFound')
        if (order.user_id !== user.id && user.role !== 'admin') {
          throw new AppError('forbidden', 'order.foreign')
        }
        if (order.state !== 'unpaid') throw new AppError('conflict', 'order.notUnpaid')
        const timestamp = now()
        await transaction
          .updateTable('orders')
          .set({ state: 'cancelled', cancelled_at: timestamp })
          .where('id', '=', orderId)
          .execute()
        return summaryOf({ ...order, state: 'cancelled', cancelled_at: timestamp })
      })
    },

    async orderState(user, projectId) {
      const project = await access.requireEditable(user, projectId)
      const unpaid = await unpaidOrderOf(db, projectId)
      return {
        project_id: projectId,
        is_paid: project.is_paid === 1,
        unpaid_order: unpaid ? summaryOf(unpaid) : null,
      }
    },

    async projectOrders(user, input) {
      await access.requireEditable(user, input.project_id)
      return pageOf((query) => query.where('project_id', '=', input.project_id), input)
    },

    async allOrders(user, input) {
      const isEveryone = input.everyone === true && user.role === 'admin'
      if (input.everyone === true && !isEveryone) {
        throw new AppError('forbidden', 'order.everyoneAdminOnly')
      }
      return pageOf((query) => {
        let filtered = isEveryone ? query : query.where('user_id', '=', user.id)
        if (input.state !== undefined) filtered = filtered.where('state', '=', input.state)
        return filtered
      }, input)
    },

    async orderDetail(user, orderId) {
      const order = await readableOrder(user, orderId)
      const lines = await db
        .selectFrom('order_lines')
        .selectAll()
        .where('order_id', '=', orderId)
        .orderBy('line_no')
        .execute()
      return {
        ...summaryOf(order),
        metered_until: order.metered_until,
        lines: lines.map((line) => {
          const names = JSON.parse(line.names_json) as LocalizedText
          return {
            line_id: line.line_id,
            item_id: line.item_id,
            type: line.type as OrderLineType,
            name: names.en,
            names,
            unit: line.unit as OrderUnit,
            count: Number(line.count),
            price: Number(line.price),
            amount: Number(line.amount),
          }
        }),
      }
    },

    async usageHistory(user, projectId, days) {
      await access.requireEditable(user, projectId)
      const untilMs = clock.nowMs()
      const lastPaid = await db
        .selectFrom('orders')
        .select((builder) => builder.fn.max('metered_until').as('until'))
        .where('project_id', '=', projectId)
        .where('state', '=', 'paid')
        .executeTakeFirst()
      const history = await dailyProjectUsage(db, projectId, {
        from: timestampOf(untilMs - (days - 1) * 86_400_000).slice(0, 10),
        until: timestampOf(untilMs),
      })
      return {
        project_id: projectId,
        metered_since: lastPaid?.until ?? null,
        days: history.map((day) => ({
          day: day.day,
          upload_bytes: day.uploadBytes,
          update_bytes: day.updateBytes,
          configuration_operations: day.configurationOperations,
        })),
      }
    },

    async requireDownloadAllowed(projectId) {
      if (await unpaidOrderOf(db, projectId)) {
        throw new AppError('paymentRequired', 'order.unpaidBlocksDownload')
      }
      const project = await db
        .selectFrom('projects')
        .select('is_paid')
        .where('id', '=', projectId)
        .executeTakeFirst()
      if (!project) throw new AppError('notFound', 'project.notFound')
      if (project.is_paid !== 1) throw new AppError('paymentRequired', 'error.paymentRequired')
    },
  }
}

/** Points a line costs for `count` units: 0 when free, null when priced on request. */
function amountOf(price: number, count: number): number | null {
  if (price === priceContactUs) return null
  if (price === priceFree) return 0
  return price * count
}

export type { AddOrderBody }
