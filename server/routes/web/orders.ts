import type { FastifyInstance, FastifyRequest } from 'fastify'
import { orderLimits, orderRoutes } from '../../../contract/orders'
import type { ServerServices } from '../../deps'
import { fieldError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'

const idempotencyKeyPattern = /^[\w.:-]+$/

/**
 * The idempotency key of a pay or recharge: the body's `idempotency_key`, else the
 * `Idempotency-Key` header (checked like the body's field).
 */
function idempotencyKeyOf(request: FastifyRequest, fromBody: string | undefined) {
  if (fromBody !== undefined) return fromBody
  const header = request.headers['idempotency-key']
  if (header === undefined) return undefined
  const key = Array.isArray(header) ? header[0] : header
  if (
    key === undefined ||
    key.length === 0 ||
    key.length > orderLimits.idempotencyKeyMaxLength ||
    !idempotencyKeyPattern.test(key)
  ) {
    throw fieldError('validation', 'Idempotency-Key', 'validation.invalidFormat')
  }
  return key
}

/** Orders, points and recharges (issue 20, SPEC §7 `/orderManage`). */
export function registerOrderRoutes(
  app: FastifyInstance,
  {
    orders,
    recharges,
    prices,
    paymentProviders,
  }: Pick<ServerServices, 'orders' | 'recharges' | 'prices' | 'paymentProviders'>,
): void {
  defineRoute(app, orderRoutes.getShoppingList, {
    handler: ({ body, user }) => orders.shoppingList(user, body.project_id),
  })
  defineRoute(app, orderRoutes.addOrder, {
    handler: ({ body, user }) => orders.addOrder(user, body),
  })
  defineRoute(app, orderRoutes.getOrderState, {
    handler: ({ body, user }) => orders.orderState(user, body.project_id),
  })
  defineRoute(app, orderRoutes.pay, {
    handler: ({ body, user, request }) =>
      orders.pay(user, body.order_id, idempotencyKeyOf(request, body.idempotency_key)),
  })
  defineRoute(app, orderRoutes.deleteOrder, {
    handler: ({ body, user }) => orders.deleteOrder(user, body.order_id),
  })
  defineRoute(app, orderRoutes.getHistoryOrderWithProject, {
    handler: ({ body, user }) => orders.projectOrders(user, body),
  })
  defineRoute(app, orderRoutes.getHistoryOrderAll, {
    handler: ({ body, user }) => orders.allOrders(user, body),
  })
  defineRoute(app, orderRoutes.getOrderListById, {
    handler: ({ body, user }) => orders.orderDetail(user, body.order_id),
  })
  defineRoute(app, orderRoutes.getAccountAmount, {
    handler: ({ user }) => recharges.account(user),
  })
  defineRoute(app, orderRoutes.recharge, {
    handler: ({ body, user, request }) =>
      recharges.request(user, {
        method: 'online',
        amount: body.amount,
        idempotencyKey: idempotencyKeyOf(request, body.idempotency_key),
      }),
  })
  defineRoute(app, orderRoutes.bankTransfer, {
    handler: ({ body, user, request }) =>
      recharges.request(user, {
        method: 'bank',
        amount: body.amount,
        payerName: body.payer_name,
        bankReference: body.bank_reference,
        idempotencyKey: idempotencyKeyOf(request, body.idempotency_key),
      }),
  })
  defineRoute(app, orderRoutes.getRechargeCode, {
    handler: ({ body, user }) => recharges.find(user, body.recharge_id),
  })
  defineRoute(app, orderRoutes.getRechargeHistoryById, {
    handler: ({ body, user }) => recharges.find(user, body.recharge_id),
  })
  defineRoute(app, orderRoutes.getRechargeAll, {
    handler: ({ body, user }) => recharges.list(user, body),
  })
  defineRoute(app, orderRoutes.cancelRecharge, {
    handler: ({ body, user }) => recharges.cancel(user, body.recharge_id),
  })
  defineRoute(app, orderRoutes.confirmRecharge, {
    handler: ({ body, user }) => recharges.confirm(user, body.code),
  })
  defineRoute(app, orderRoutes.getUsageHistory, {
    handler: ({ body, user }) => orders.usageHistory(user, body.project_id, body.days ?? 30),
  })
  defineRoute(app, orderRoutes.paymentCallback, {
    handler: async ({ body, request }) => {
      const provider = paymentProviders.get(body.provider)
      if (!provider) throw fieldError('validation', 'provider', 'payment.unknownProvider')
      const notice = provider.verify({ body, headers: request.headers })
      const confirmed = await recharges.confirmFromProvider(provider.name, notice)
      return { recharge_id: confirmed.id, state: confirmed.state, is_replay: confirmed.is_replay }
    },
  })
  defineRoute(app, orderRoutes.getPriceList, {
    handler: () => prices.list(),
  })
  defineRoute(app, orderRoutes.updatePrice, {
    handler: ({ body }) => prices.update(body),
  })
}
