import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { formBoolean, formInteger, formList } from './form-fields'
import { webRoute } from './route'

/**
 * Points, orders and recharges (issue 20, SPEC §1, §3 "Order/shopping line", §4 "Payment" and
 * "Order dialog", §7 `/orderManage/*`, decisions.md "Money"). Points are whole numbers; the
 * console shows them in the product coin unit ({@link coinUnit}). Every movement of points is
 * a double-entry movement of the server's append-only ledger.
 */

/** The product coin unit: what a balance and a price are counted in. */
export const coinUnit = 'TC'

/** SPEC §3 line types: '1' upload, '2' update, '3' configuration traffic, '4' watermark removal, '5' service support, '6' development trial. */
export const orderLineTypes = ['1', '2', '3', '4', '5', '6'] as const
export type OrderLineType = (typeof orderLineTypes)[number]

/** SPEC §9 price sentinels: −1 free, −9 contact us (not orderable). */
export const priceFree = -1
export const priceContactUs = -9

/** Units a line is counted in; the console names them in the user's language. */
export const orderUnits = ['MB', 'operation', 'project', 'year'] as const
export type OrderUnit = (typeof orderUnits)[number]

/** Names and descriptions per language (ko, zh, en), as an admin writes them. */
export const localizedTextSchema = z.object({
  ko: z.string().max(200),
  zh: z.string().max(200),
  en: z.string().max(200),
})
export type LocalizedText = z.infer<typeof localizedTextSchema>

/** Limits of the money calls. */
export const orderLimits = {
  /** Largest recharge or bank transfer, in points. */
  maxRechargePoints: 10_000_000,
  /** Recharges waiting for an admin that one user may have at once. */
  maxPendingRecharges: 10,
  /** Years of service support in one order. */
  maxSupportYears: 10,
  /** Largest admin price, in points per unit. */
  maxPrice: 10_000_000,
  pageSizeMax: 100,
  idempotencyKeyMaxLength: 100,
} as const

/**
 * SPEC §3 "Order/shopping line", computed for one project. Metered lines (types 1-3) count
 * what was stored since the project's last paid order: `count` is everything metered so far,
 * `paid_num` what earlier paid orders covered, `unpaid` what an order now would charge;
 * `amount` = `unpaid` × `price` (0 for a free line, null for "contact us").
 */
export const shoppingLineSchema = z.object({
  /** This project's line id (what `addOrder` takes). */
  id: recordIdSchema,
  /** The price item the line is priced by (admin data). */
  item_id: z.string(),
  type: z.enum(orderLineTypes),
  /** The English name; `names` has every language. */
  name: z.string(),
  names: localizedTextSchema,
  count: z.number().int(),
  unit: z.enum(orderUnits),
  /** Points to pay for this line now; null when priced on request (−9). */
  amount: z.number().int().nullable(),
  /** Points per unit, or −1 (free) / −9 (contact us). */
  price: z.number().int(),
  price_des: localizedTextSchema,
  /** '1' shows `price_des` as a tooltip. */
  price_des_state: z.enum(['0', '1']),
  paid_num: z.number().int(),
  unpaid: z.number().int(),
  /** Chosen when the dialog opens. */
  is_check: z.boolean(),
  /** False for −9 lines and for a one-off line already paid. */
  is_orderable: z.boolean(),
  /** Bytes behind a traffic line (types 1 and 2), else null. */
  metered_bytes: z.number().int().nullable(),
})
export type ShoppingLine = z.infer<typeof shoppingLineSchema>

/** `getShoppingList` answer: the project's lines, and its unpaid order if one blocks ordering. */
export const shoppingListDatumSchema = z.object({
  project_id: recordIdSchema,
  lines: z.array(shoppingLineSchema),
  unpaid_order_id: recordIdSchema.nullable(),
  is_paid: z.boolean(),
  /** Since when the metered lines count (the last paid order's cut-off), or null. */
  metered_since: timestampSchema.nullable(),
})
export type ShoppingListDatum = z.infer<typeof shoppingListDatumSchema>

export const orderStates = ['unpaid', 'paid', 'cancelled'] as const
export type OrderState = (typeof orderStates)[number]

/** A line as it was ordered (the price and counts at ordering time). */
export const orderLineSchema = z.object({
  line_id: recordIdSchema,
  item_id: z.string(),
  type: z.enum(orderLineTypes),
  name: z.string(),
  names: localizedTextSchema,
  unit: z.enum(orderUnits),
  count: z.number().int(),
  price: z.number().int(),
  amount: z.number().int(),
})
export type OrderLine = z.infer<typeof orderLineSchema>

/** An order in a history list. */
export const orderSummarySchema = z.object({
  id: recordIdSchema,
  order_no: z.string(),
  project_id: recordIdSchema,
  project_name: z.string(),
  user_id: recordIdSchema,
  state: z.enum(orderStates),
  total: z.number().int(),
  created_at: timestampSchema,
  paid_at: timestampSchema.nullable(),
  cancelled_at: timestampSchema.nullable(),
})
export type OrderSummary = z.infer<typeof orderSummarySchema>

/** `getOrderListById` answer: the order and its lines. */
export const orderDetailSchema = orderSummarySchema.extend({
  lines: z.array(orderLineSchema),
  metered_until: timestampSchema,
})
export type OrderDetail = z.infer<typeof orderDetailSchema>

const pageFields = {
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: orderLimits.pageSizeMax }).default(20),
}

/** A page of orders. */
export const orderPageSchema = z.object({
  list: z.array(orderSummarySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
export type OrderPage = z.infer<typeof orderPageSchema>

const idempotencyKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(orderLimits.idempotencyKeyMaxLength)
  .regex(/^[\w.:-]+$/)

/** A body naming one project. */
export const orderProjectBodySchema = z.object({ project_id: recordIdSchema })

/**
 * `addOrder`: the chosen line ids of one project (SPEC: "an array of selected line ids"), and
 * optionally the years of the chosen service support (`counts[lineId]`, 1-10; other lines'
 * counts are metered, not chosen).
 */
export const addOrderBodySchema = z.object({
  project_id: recordIdSchema,
  ids: formList(recordIdSchema).pipe(z.array(z.string()).max(50)),
  counts: z
    .record(recordIdSchema, formInteger({ min: 1, max: orderLimits.maxSupportYears }))
    .optional(),
})
export type AddOrderBody = z.input<typeof addOrderBodySchema>

/** `addOrder` answer: the new order's id (SPEC: "datum is the orderId") and its total. */
export const addOrderDatumSchema = z.object({
  orderId: recordIdSchema,
  order_no: z.string(),
  total: z.number().int(),
})

/** A body naming one order. */
export const orderIdBodySchema = z.object({ order_id: recordIdSchema })

/**
 * `pay`: pays an unpaid order from the balance. `idempotency_key` (or the `Idempotency-Key`
 * header) makes a retried request answer the first one's result instead of failing.
 */
export const payBodySchema = z.object({
  order_id: recordIdSchema,
  idempotency_key: idempotencyKeySchema.optional(),
})
export type PayBody = z.input<typeof payBodySchema>

/** `pay` answer. */
export const payDatumSchema = z.object({
  order_id: recordIdSchema,
  state: z.literal('paid'),
  total: z.number().int(),
  balance: z.number().int(),
  /** True when this answer repeats an earlier payment with the same key. */
  is_replay: z.boolean(),
})
export type PayDatum = z.infer<typeof payDatumSchema>

/** `getOrderState` answer: whether the project is paid and whether an order waits. */
export const orderStateDatumSchema = z.object({
  project_id: recordIdSchema,
  is_paid: z.boolean(),
  unpaid_order: orderSummarySchema.nullable(),
})

/** `getHistoryOrderWithProject` body. */
export const projectOrdersBodySchema = z.object({ project_id: recordIdSchema, ...pageFields })
/** `getHistoryOrderAll` body: the caller's orders (an admin may ask for everyone's). */
export const allOrdersBodySchema = z.object({
  ...pageFields,
  state: z.enum(orderStates).optional(),
  everyone: formBoolean().optional(),
})

/** The caller's balance. */
export const accountDatumSchema = z.object({
  balance: z.number().int(),
  unit: z.literal(coinUnit),
  pending_recharges: z.number().int(),
})
export type AccountDatum = z.infer<typeof accountDatumSchema>

export const rechargeMethods = ['online', 'bank'] as const
export const rechargeStates = ['pending', 'confirmed', 'cancelled'] as const

/** A recharge or bank transfer: pending until an admin confirms it by its code. */
export const rechargeSchema = z.object({
  id: recordIdSchema,
  /** The code the user quotes (on the transfer, to support). */
  code: z.string(),
  user_id: recordIdSchema,
  user_name: z.string(),
  method: z.enum(rechargeMethods),
  amount: z.number().int(),
  state: z.enum(rechargeStates),
  payer_name: z.string(),
  bank_reference: z.string(),
  created_at: timestampSchema,
  confirmed_at: timestampSchema.nullable(),
  cancelled_at: timestampSchema.nullable(),
})
export type Recharge = z.infer<typeof rechargeSchema>

const pointsSchema = formInteger({ min: 1, max: orderLimits.maxRechargePoints })

/** `recharge`: asks for points; answers a pending recharge with its code. */
export const rechargeBodySchema = z.object({
  amount: pointsSchema,
  idempotency_key: idempotencyKeySchema.optional(),
})
/** `bankTransfer`: records a transfer the user made (who paid, the bank's reference). */
export const bankTransferBodySchema = z.object({
  amount: pointsSchema,
  payer_name: z.string().trim().min(1).max(100),
  bank_reference: z.string().trim().max(100).default(''),
  idempotency_key: idempotencyKeySchema.optional(),
})
/** A body naming one recharge. */
export const rechargeIdBodySchema = z.object({ recharge_id: recordIdSchema })
/** `getRechargeAll` body: the caller's recharges (an admin may ask for everyone's). */
export const rechargeListBodySchema = z.object({
  ...pageFields,
  state: z.enum(rechargeStates).optional(),
  everyone: formBoolean().optional(),
})
/** A page of recharges. */
export const rechargePageSchema = z.object({
  list: z.array(rechargeSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
/** `confirmRecharge` (admin): the code the user quoted. */
export const confirmRechargeBodySchema = z.object({
  code: z.string().trim().min(1).max(40),
})
/** `confirmRecharge` answer. */
export const confirmRechargeDatumSchema = rechargeSchema.extend({ balance: z.number().int() })

/** A price item (admin data the lines are priced by). */
export const priceItemSchema = z.object({
  id: z.string(),
  type: z.enum(orderLineTypes),
  names: localizedTextSchema,
  unit: z.enum(orderUnits),
  price: z.number().int(),
  price_des: localizedTextSchema,
  price_des_state: z.enum(['0', '1']),
  sort_order: z.number().int(),
  is_active: z.boolean(),
  updated_at: timestampSchema,
})
export type PriceItem = z.infer<typeof priceItemSchema>

/** `updatePrice` (admin): a new price (≥ 0, or −1 free, −9 contact us) and texts. */
export const updatePriceBodySchema = z.object({
  id: z.string().min(1).max(64),
  price: formInteger({ min: priceContactUs, max: orderLimits.maxPrice })
    .refine((value) => value >= 0 || value === priceFree || value === priceContactUs, {
      message: 'validation.invalid',
    })
    .optional(),
  names: localizedTextSchema.optional(),
  price_des: localizedTextSchema.optional(),
  price_des_state: z.enum(['0', '1']).optional(),
  is_active: formBoolean().optional(),
})

/** A payment provider's callback: which provider, and what it says was paid (signed). */
export const paymentCallbackBodySchema = z.object({
  provider: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[a-z0-9-]+$/),
  code: z.string().trim().min(1).max(32),
  amount: pointsSchema,
  reference: z.string().trim().min(1).max(128),
})

/** What the provider is answered: the recharge's state, never the payer's balance. */
export const paymentCallbackDatumSchema = z.object({
  recharge_id: recordIdSchema,
  state: z.enum(rechargeStates),
  is_replay: z.boolean(),
})

/** `getUsageHistory`: a project's usage per day over the last `days` days. */
export const usageHistoryBodySchema = z.object({
  project_id: recordIdSchema,
  days: formInteger({ min: 1, max: 366 }).optional(),
})

/** One UTC day of usage: bytes uploaded, bytes that replaced earlier files, configuration changes. */
export const usageDaySchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  upload_bytes: z.number().int().nonnegative(),
  /** Update traffic: bytes of files that replaced a record's earlier file. */
  update_bytes: z.number().int().nonnegative(),
  configuration_operations: z.number().int().nonnegative(),
})
export type UsageDay = z.infer<typeof usageDaySchema>

export const usageHistoryDatumSchema = z.object({
  project_id: recordIdSchema,
  /** The end of the last paid order's metering (what later orders bill from), or null. */
  metered_since: timestampSchema.nullable(),
  days: z.array(usageDaySchema),
})
export type UsageHistory = z.infer<typeof usageHistoryDatumSchema>

const moneyTags = ['orderManage']

/** The /web/orderManage/ routes (the route table: contract/route.ts, contract/routes.ts). */
export const orderRoutes = {
  getShoppingList: webRoute({
    method: 'POST',
    path: '/web/orderManage/getShoppingList',
    auth: 'editor',
    summary: "A project's order lines, metered since its last paid order",
    tags: moneyTags,
    body: orderProjectBodySchema,
    datum: shoppingListDatumSchema,
  }),
  addOrder: webRoute({
    method: 'POST',
    path: '/web/orderManage/addOrder',
    auth: 'editor',
    summary: 'Order the chosen lines of a project (refused while an order is unpaid)',
    description:
      'Service support is one option (a radio group); the development trial is never ordered ' +
      '(it is downloaded directly); −9 lines are priced on request. Counts are metered again ' +
      'when the order is made.',
    tags: moneyTags,
    body: addOrderBodySchema,
    datum: addOrderDatumSchema,
  }),
  getOrderState: webRoute({
    method: 'POST',
    path: '/web/orderManage/getOrderState',
    auth: 'editor',
    summary: 'Whether a project is paid and whether one of its orders waits for payment',
    tags: moneyTags,
    body: orderProjectBodySchema,
    datum: orderStateDatumSchema,
  }),
  pay: webRoute({
    method: 'POST',
    path: '/web/orderManage/pay',
    auth: 'editor',
    summary: 'Pay an unpaid order from the balance; the project becomes paid (VIP)',
    description: 'Idempotent with `idempotency_key` or the `Idempotency-Key` header.',
    tags: moneyTags,
    body: payBodySchema,
    datum: payDatumSchema,
  }),
  deleteOrder: webRoute({
    method: 'POST',
    path: '/web/orderManage/deleteOrder',
    auth: 'editor',
    summary: 'Delete (cancel) an unpaid order; it stays in the history as deleted',
    tags: moneyTags,
    body: orderIdBodySchema,
    datum: orderSummarySchema,
  }),
  getHistoryOrderWithProject: webRoute({
    method: 'POST',
    path: '/web/orderManage/getHistoryOrderWithProject',
    auth: 'editor',
    summary: "A page of a project's orders, newest first",
    tags: moneyTags,
    body: projectOrdersBodySchema,
    datum: orderPageSchema,
  }),
  getHistoryOrderAll: webRoute({
    method: 'POST',
    path: '/web/orderManage/getHistoryOrderAll',
    auth: 'editor',
    summary: "A page of the caller's orders, newest first",
    tags: moneyTags,
    body: allOrdersBodySchema,
    datum: orderPageSchema,
  }),
  getOrderListById: webRoute({
    method: 'POST',
    path: '/web/orderManage/getOrderListById',
    auth: 'editor',
    summary: 'One order with its lines',
    tags: moneyTags,
    body: orderIdBodySchema,
    datum: orderDetailSchema,
  }),
  getAccountAmount: webRoute({
    method: 'POST',
    path: '/web/orderManage/getAccountAmount',
    auth: 'editor',
    summary: "The caller's balance in points",
    tags: moneyTags,
    datum: accountDatumSchema,
  }),
  recharge: webRoute({
    method: 'POST',
    path: '/web/orderManage/recharge',
    auth: 'editor',
    summary: 'Ask for points: a pending recharge with a code, confirmed by an admin',
    description: 'Idempotent with `idempotency_key` or the `Idempotency-Key` header.',
    tags: moneyTags,
    body: rechargeBodySchema,
    datum: rechargeSchema,
  }),
  bankTransfer: webRoute({
    method: 'POST',
    path: '/web/orderManage/bankTransfer',
    auth: 'editor',
    summary: 'Record a bank transfer: pending until an admin confirms it by its code',
    tags: moneyTags,
    body: bankTransferBodySchema,
    datum: rechargeSchema,
  }),
  getRechargeCode: webRoute({
    method: 'POST',
    path: '/web/orderManage/getRechargeCode',
    auth: 'editor',
    summary: "A recharge's code and state",
    tags: moneyTags,
    body: rechargeIdBodySchema,
    datum: rechargeSchema,
  }),
  getRechargeHistoryById: webRoute({
    method: 'POST',
    path: '/web/orderManage/getRechargeHistoryById',
    auth: 'editor',
    summary: 'One recharge',
    tags: moneyTags,
    body: rechargeIdBodySchema,
    datum: rechargeSchema,
  }),
  getRechargeAll: webRoute({
    method: 'POST',
    path: '/web/orderManage/getRechargeAll',
    auth: 'editor',
    summary: "A page of the caller's recharges, newest first",
    tags: moneyTags,
    body: rechargeListBodySchema,
    datum: rechargePageSchema,
  }),
  cancelRecharge: webRoute({
    method: 'POST',
    path: '/web/orderManage/cancelRecharge',
    auth: 'editor',
    summary: 'Cancel a pending recharge',
    tags: moneyTags,
    body: rechargeIdBodySchema,
    datum: rechargeSchema,
  }),
  confirmRecharge: webRoute({
    method: 'POST',
    path: '/web/orderManage/confirmRecharge',
    auth: 'admin',
    summary: 'Confirm a pending recharge by its code: the points reach the balance',
    tags: moneyTags,
    body: confirmRechargeBodySchema,
    datum: confirmRechargeDatumSchema,
  }),
  getUsageHistory: webRoute({
    method: 'POST',
    path: '/web/orderManage/getUsageHistory',
    auth: 'editor',
    summary: "A project's metered usage per day (the usage chart)",
    tags: moneyTags,
    body: usageHistoryBodySchema,
    datum: usageHistoryDatumSchema,
  }),
  paymentCallback: webRoute({
    method: 'POST',
    path: '/web/orderManage/paymentCallback',
    auth: 'public',
    summary: "A payment provider's signed notice that a recharge was paid",
    description:
      'Confirms the recharge named by `code` when the provider verifies the signature (the ' +
      '`local` provider: hex HMAC-SHA256 of `code`, `amount` and `reference`, one per line, in ' +
      'the `X-Payment-Signature` header, with the key in DATA_DIR/keys/payment-local.key). ' +
      'A repeated notice answers `is_replay` and credits nothing.',
    tags: moneyTags,
    body: paymentCallbackBodySchema,
    datum: paymentCallbackDatumSchema,
  }),
  getPriceList: webRoute({
    method: 'POST',
    path: '/web/orderManage/getPriceList',
    auth: 'editor',
    summary: 'The price items lines are priced by',
    tags: moneyTags,
    datum: z.array(priceItemSchema),
  }),
  updatePrice: webRoute({
    method: 'POST',
    path: '/web/orderManage/updatePrice',
    auth: 'admin',
    summary: 'Change a price item (price, texts, offered or not)',
    tags: moneyTags,
    body: updatePriceBodySchema,
    datum: priceItemSchema,
  }),
}
