import {
  type AccountDatum,
  type AddOrderBody,
  type OrderDetail,
  type OrderPage,
  type OrderState,
  orderRoutes,
  type PayDatum,
  type Recharge,
  type ShoppingListDatum,
  type UsageHistory,
} from '../../contract/orders'
import { api } from './index'

export type {
  AccountDatum,
  OrderDetail,
  OrderPage,
  OrderState,
  OrderSummary,
  PayDatum,
  Recharge,
  ShoppingLine,
  ShoppingListDatum,
  UsageDay,
  UsageHistory,
} from '../../contract/orders'

/** `POST /web/orderManage/getShoppingList`: a project's order lines, metered now. */
export async function getShoppingList(projectId: string): Promise<ShoppingListDatum> {
  return (await api.call(orderRoutes.getShoppingList, { project_id: projectId })).datum
}

/**
 * `POST /web/orderManage/addOrder`: orders the chosen lines; the new order's id and total.
 * Sent as JSON: the ids are a list and the counts an object keyed by line id.
 */
export async function addOrder(body: AddOrderBody) {
  return (await api.call(orderRoutes.addOrder, body, { encoding: 'json' })).datum
}

/**
 * `POST /web/orderManage/pay`: pays an order from the balance. The key makes a retry (a lost
 * answer, a second click) answer the first payment instead of failing.
 */
export async function payOrder(orderId: string, idempotencyKey: string): Promise<PayDatum> {
  return (await api.call(orderRoutes.pay, { order_id: orderId, idempotency_key: idempotencyKey }))
    .datum
}

/** `POST /web/orderManage/deleteOrder`: deletes (cancels) an unpaid order. */
export async function deleteOrder(orderId: string) {
  return (await api.call(orderRoutes.deleteOrder, { order_id: orderId })).datum
}

/** `POST /web/orderManage/getHistoryOrderAll`: a page of the user's orders, newest first. */
export async function getAllOrders(query: {
  pageNo: number
  pageSize: number
  state?: OrderState
}): Promise<OrderPage> {
  return (await api.call(orderRoutes.getHistoryOrderAll, query)).datum
}

/** `POST /web/orderManage/getOrderListById`: one order with its lines. */
export async function getOrder(orderId: string): Promise<OrderDetail> {
  return (await api.call(orderRoutes.getOrderListById, { order_id: orderId })).datum
}

/** `POST /web/orderManage/getAccountAmount`: the user's balance in points. */
export async function getAccount(): Promise<AccountDatum> {
  return (await api.call(orderRoutes.getAccountAmount)).datum
}

/** `POST /web/orderManage/recharge`: asks for points; a pending recharge with its code. */
export async function requestRecharge(amount: number, idempotencyKey: string): Promise<Recharge> {
  return (await api.call(orderRoutes.recharge, { amount, idempotency_key: idempotencyKey })).datum
}

/** `POST /web/orderManage/bankTransfer`: records a bank transfer the user made. */
export async function recordBankTransfer(input: {
  amount: number
  payer_name: string
  bank_reference: string
  idempotency_key: string
}): Promise<Recharge> {
  return (await api.call(orderRoutes.bankTransfer, input)).datum
}

/** `POST /web/orderManage/getRechargeAll`: a page of recharges (an admin may ask for all). */
export async function getRecharges(query: {
  pageNo: number
  pageSize: number
  state?: Recharge['state']
  everyone?: boolean
}) {
  return (await api.call(orderRoutes.getRechargeAll, query)).datum
}

/** `POST /web/orderManage/cancelRecharge`: cancels a pending recharge. */
export async function cancelRecharge(rechargeId: string): Promise<Recharge> {
  return (await api.call(orderRoutes.cancelRecharge, { recharge_id: rechargeId })).datum
}

/** `POST /web/orderManage/confirmRecharge` (admin): credits a pending recharge by its code. */
export async function confirmRecharge(code: string) {
  return (await api.call(orderRoutes.confirmRecharge, { code })).datum
}

/** A fresh idempotency key for one user action (kept across its retries). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID()
}

/** `POST /web/orderManage/getUsageHistory`: a project's usage per day (the usage chart). */
export async function getUsageHistory(projectId: string, days = 30): Promise<UsageHistory> {
  return (await api.call(orderRoutes.getUsageHistory, { project_id: projectId, days })).datum
}
