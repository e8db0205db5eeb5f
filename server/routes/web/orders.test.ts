import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatServerMessage } from '../../../contract/messages'
import type {
  AccountDatum,
  OrderDetail,
  OrderPage,
  PayDatum,
  PriceItem,
  Recharge,
  ShoppingLine,
  ShoppingListDatum,
} from '../../../contract/orders'
import type { Project } from '../../../contract/project'
import { verifyLedger } from '../../modules/orders/ledger'
import { callApi, createTestApp, signIn, type TestApp, testAdmin } from '../../testing/test-app'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'

const gmlSample = new URL(
  '../../../../shared/data/indoorgml/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml',
  import.meta.url,
)

const unpaidOrderText =
  'You cannot generate a new order due to an uncompleted order! Please go to the order center to pay or delete the order!'

/** Calls an `/orderManage/` route with a JSON body. */
function orderCall<Datum>(
  app: FastifyInstance,
  route: string,
  token: string | undefined,
  json: unknown = {},
  headers: Record<string, string> = {},
) {
  // the test clock stands still: a second between orders orders the history pages
  if (route === 'addOrder') advanceClock?.(1000)
  return callApi<Datum>(app, {
    url: `/web/orderManage/${route}`,
    ...(token === undefined ? {} : { token }),
    json,
    headers,
  })
}

let advanceClock: ((durationMs: number) => void) | undefined

const lineOf = (list: ShoppingListDatum, itemId: string): ShoppingLine => {
  const line = list.lines.find((candidate) => candidate.item_id === itemId)
  if (!line) throw new Error(`no line ${itemId}`)
  return line
}

describe('orders, points and recharges', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let owner: string
  let stranger: string
  let guest: string
  let admin: string
  let building: Project
  let strangersProject: Project

  const shoppingList = async (token: string, projectId: string) => {
    const answer = await orderCall<ShoppingListDatum>(app, 'getShoppingList', token, {
      project_id: projectId,
    })
    expect(answer.envelope.code).toBe('0')
    return answer.envelope.datum
  }
  const balance = async (token: string) =>
    (await orderCall<AccountDatum>(app, 'getAccountAmount', token)).envelope.datum.balance
  const orderCount = async (token: string) =>
    (await orderCall<OrderPage>(app, 'getHistoryOrderAll', token)).envelope.datum.total

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    advanceClock = (durationMs) => testApp.clock.advanceMs(durationMs)
    const suffix = randomBytes(3).toString('hex')
    owner = await signInNewUser(app, `order-owner-${suffix}`)
    stranger = await signInNewUser(app, `order-stranger-${suffix}`)
    guest = await signInNewUser(app, `order-guest-${suffix}`, 'guest')
    admin = await signIn(app, testAdmin)
    building = await createProject(app, owner, { kind: 'building', name: 'Paid tower' })
    strangersProject = await createProject(app, stranger, { name: 'Other city' })
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('lists the project lines with the §3 fields, metering the GML upload in whole MB', async () => {
    const before = await shoppingList(owner, building.id)
    expect(lineOf(before, 'upload-traffic')).toMatchObject({
      type: '1',
      unit: 'MB',
      count: 0,
      unpaid: 0,
      amount: 0,
      is_check: false,
    })
    const upload = await postMultipart(app, '/web/upload/uploadGml', owner, [
      { name: 'project_id', value: building.id },
      {
        name: 'file',
        value: await readFile(gmlSample),
        fileName: 'fjk.gml',
        contentType: 'application/gml+xml',
      },
    ])
    expect(upload.envelope.code).toBe('0')

    const list = await shoppingList(owner, building.id)
    expect(list).toMatchObject({ project_id: building.id, is_paid: false, unpaid_order_id: null })
    // 344,773 bytes: any part of a MB is billed as one
    expect(lineOf(list, 'upload-traffic')).toMatchObject({
      count: 1,
      unpaid: 1,
      paid_num: 0,
      price: 1,
      amount: 1,
      metered_bytes: 344_773,
      is_check: true,
      is_orderable: true,
      price_des_state: '1',
    })
    expect(lineOf(list, 'watermark-removal')).toMatchObject({ type: '4', amount: 500 })
    // service support is a radio group: the first option is chosen
    const support = list.lines.filter((line) => line.type === '5')
    expect(support.map((line) => [line.item_id, line.is_check, line.amount])).toEqual([
      ['support-community', true, 0],
      ['support-standard', false, 2000],
      ['support-enterprise', false, null],
    ])
    expect(lineOf(list, 'support-enterprise')).toMatchObject({ price: -9, is_orderable: false })
    expect(lineOf(list, 'development-trial')).toMatchObject({ type: '6', price: -1, amount: 0 })
    expect(lineOf(list, 'upload-traffic').names.ko).toBe('업로드 트래픽')
    // line ids are the project's own and stable
    expect((await shoppingList(owner, building.id)).lines.map((line) => line.id)).toEqual(
      list.lines.map((line) => line.id),
    )
  })

  it('refuses every call to anonymous callers, guests and other users', async () => {
    const list = await shoppingList(owner, building.id)
    const anonymous = await orderCall(app, 'getShoppingList', undefined, {
      project_id: building.id,
    })
    expect(anonymous.envelope.code).toBe('2011')
    const asGuest = await orderCall(app, 'getAccountAmount', guest)
    expect(asGuest.statusCode).toBe(403)
    for (const [route, body] of [
      ['getShoppingList', { project_id: building.id }],
      ['getOrderState', { project_id: building.id }],
      ['getHistoryOrderWithProject', { project_id: building.id }],
      ['addOrder', { project_id: building.id, ids: [lineOf(list, 'watermark-removal').id] }],
    ] as const) {
      const answer = await orderCall(app, route, stranger, body)
      expect([route, answer.statusCode, answer.envelope.messageId]).toEqual([
        route,
        403,
        'project.foreign',
      ])
    }
    for (const route of ['confirmRecharge', 'updatePrice'] as const) {
      const answer = await orderCall(app, route, owner, { code: 'RC-X', id: 'upload-traffic' })
      expect(answer.statusCode).toBe(403)
    }
    const everyone = await orderCall(app, 'getHistoryOrderAll', owner, { everyone: true })
    expect(everyone.envelope.messageId).toBe('order.everyoneAdminOnly')
    const missing = await orderCall(app, 'getShoppingList', owner, { project_id: 'no-such' })
    expect(missing.statusCode).toBe(404)
  })

  it('checks every §4 rule of a choice on the server, leaving orders and balance alone', async () => {
    const list = await shoppingList(owner, building.id)
    const foreignList = await shoppingList(stranger, strangersProject.id)
    const id = (itemId: string) => lineOf(list, itemId).id
    const community = id('support-community')
    const cases: Array<[unknown, string]> = [
      [{ project_id: building.id, ids: [] }, 'order.noLines'],
      [{ project_id: building.id, ids: [community, community] }, 'order.duplicateLine'],
      [
        { project_id: building.id, ids: [lineOf(foreignList, 'watermark-removal').id, community] },
        'order.lineNotInProject',
      ],
      [
        { project_id: building.id, ids: [id('development-trial'), community] },
        'order.trialIsExclusive',
      ],
      [{ project_id: building.id, ids: [id('development-trial')] }, 'order.trialNotOrdered'],
      [{ project_id: building.id, ids: [id('support-enterprise')] }, 'order.contactUs'],
      [
        { project_id: building.id, ids: [community, id('support-standard')] },
        'order.oneSupportOption',
      ],
      [{ project_id: building.id, ids: [id('watermark-removal')] }, 'order.oneSupportOption'],
      [{ project_id: building.id, ids: [community] }, 'order.nothingToPay'],
      [
        {
          project_id: building.id,
          ids: [community, id('upload-traffic')],
          counts: { [id('upload-traffic')]: 5 },
        },
        'order.countNotAdjustable',
      ],
      [
        { project_id: building.id, ids: [id('support-standard')], counts: { [community]: 2 } },
        'order.lineNotInProject',
      ],
    ]
    for (const [body, messageId] of cases) {
      const answer = await orderCall(app, 'addOrder', owner, body)
      expect([messageId, answer.statusCode, answer.envelope.messageId]).toEqual([
        messageId,
        400,
        messageId,
      ])
    }
    for (const count of [-1, 0, 1.5, 11, '2.5', 'two']) {
      const answer = await orderCall(app, 'addOrder', owner, {
        project_id: building.id,
        ids: [id('support-standard')],
        counts: { [id('support-standard')]: count },
      })
      expect([count, answer.statusCode, answer.envelope.code]).toEqual([count, 400, '1000'])
    }
    // a form post sends one id as a bare value and several as repeated keys
    const formPost = await callApi(app, {
      url: '/web/orderManage/addOrder',
      token: owner,
      form: `project_id=${building.id}&ids=${community}`,
    })
    expect(formPost.envelope.messageId).toBe('order.nothingToPay')
    const formPair = await callApi(app, {
      url: '/web/orderManage/addOrder',
      token: owner,
      form: `project_id=${building.id}&ids=${community}&ids=${id('support-standard')}`,
    })
    expect(formPair.envelope.messageId).toBe('order.oneSupportOption')
    expect(await orderCount(owner)).toBe(0)
    expect(await balance(owner)).toBe(0)
  })

  it('orders, blocks a second order with the §8 message, and deletes an unpaid order', async () => {
    const list = await shoppingList(owner, building.id)
    const ids = [lineOf(list, 'upload-traffic').id, lineOf(list, 'support-standard').id]
    const ordered = await orderCall<{ orderId: string; total: number }>(app, 'addOrder', owner, {
      project_id: building.id,
      ids,
      counts: { [ids[1]!]: 2 },
    })
    expect(ordered.envelope).toMatchObject({ code: '0', datum: { total: 1 + 2 * 2000 } })
    const orderId = ordered.envelope.datum.orderId

    const second = await orderCall(app, 'addOrder', owner, { project_id: building.id, ids })
    expect(second.statusCode).toBe(409)
    expect(second.envelope.message).toBe(unpaidOrderText)
    expect(formatServerMessage('order.unpaidOrderExists')).toBe(unpaidOrderText)
    expect((await shoppingList(owner, building.id)).unpaid_order_id).toBe(orderId)

    const detail = await orderCall<OrderDetail>(app, 'getOrderListById', owner, {
      order_id: orderId,
    })
    expect(detail.envelope.datum).toMatchObject({ state: 'unpaid', total: 4001 })
    expect(
      detail.envelope.datum.lines.map((line) => [line.item_id, line.count, line.amount]),
    ).toEqual([
      ['upload-traffic', 1, 1],
      ['support-standard', 2, 4000],
    ])
    const foreignDetail = await orderCall(app, 'getOrderListById', stranger, { order_id: orderId })
    expect(foreignDetail.envelope.messageId).toBe('order.foreign')
    const adminDetail = await orderCall(app, 'getOrderListById', admin, { order_id: orderId })
    expect(adminDetail.envelope.code).toBe('0')
    for (const route of ['pay', 'deleteOrder'] as const) {
      const answer = await orderCall(app, route, stranger, { order_id: orderId })
      expect([route, answer.envelope.messageId]).toEqual([route, 'order.foreign'])
    }

    const deleted = await orderCall(app, 'deleteOrder', owner, { order_id: orderId })
    expect(deleted.envelope.datum).toMatchObject({ state: 'cancelled' })
    const again = await orderCall(app, 'deleteOrder', owner, { order_id: orderId })
    expect(again.envelope.messageId).toBe('order.notUnpaid')
    const payDeleted = await orderCall(app, 'pay', owner, { order_id: orderId })
    expect(payDeleted.envelope.messageId).toBe('order.cancelled')
  })

  it('recharges through a pending code an admin confirms once', async () => {
    for (const amount of [-5, 0, 1.5, '10.5', 'ten', 20_000_000]) {
      const answer = await orderCall(app, 'recharge', owner, { amount })
      expect([amount, answer.statusCode]).toEqual([amount, 400])
    }
    const asked = await orderCall<Recharge>(
      app,
      'recharge',
      owner,
      { amount: 3000 },
      {
        'idempotency-key': 'top-up-1',
      },
    )
    expect(asked.envelope.datum).toMatchObject({ state: 'pending', amount: 3000, method: 'online' })
    expect(asked.envelope.datum.code).toMatch(/^RC-[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    const retried = await orderCall<Recharge>(app, 'recharge', owner, {
      amount: 3000,
      idempotency_key: 'top-up-1',
    })
    expect(retried.envelope.datum.id).toBe(asked.envelope.datum.id)
    const reused = await orderCall(app, 'recharge', owner, {
      amount: 10,
      idempotency_key: 'top-up-1',
    })
    expect(reused.envelope.messageId).toBe('recharge.keyReused')
    expect(await balance(owner)).toBe(0)

    const guessed = await orderCall(app, 'confirmRecharge', admin, { code: 'RC-AAAAA-AAAAA' })
    expect(guessed.statusCode).toBe(404)
    const foreign = await orderCall(app, 'getRechargeCode', stranger, {
      recharge_id: asked.envelope.datum.id,
    })
    expect(foreign.envelope.messageId).toBe('recharge.foreign')

    const confirmed = await orderCall<Recharge & { balance: number }>(
      app,
      'confirmRecharge',
      admin,
      { code: asked.envelope.datum.code.toLowerCase() },
    )
    expect(confirmed.envelope.datum).toMatchObject({ state: 'confirmed', balance: 3000 })
    const twice = await orderCall(app, 'confirmRecharge', admin, {
      code: asked.envelope.datum.code,
    })
    expect(twice.envelope.messageId).toBe('recharge.alreadyConfirmed')
    expect(await balance(owner)).toBe(3000)

    const transfer = await orderCall<Recharge>(app, 'bankTransfer', owner, {
      amount: 700,
      payer_name: 'Kim Minji',
      bank_reference: 'KB-2026-1126',
    })
    expect(transfer.envelope.datum).toMatchObject({ method: 'bank', payer_name: 'Kim Minji' })
    const cancelled = await orderCall(app, 'cancelRecharge', owner, {
      recharge_id: transfer.envelope.datum.id,
    })
    expect(cancelled.envelope.datum).toMatchObject({ state: 'cancelled' })
    const lateConfirm = await orderCall(app, 'confirmRecharge', admin, {
      code: transfer.envelope.datum.code,
    })
    expect(lateConfirm.envelope.messageId).toBe('recharge.cancelled')
    const history = await orderCall<{ total: number }>(app, 'getRechargeAll', owner)
    expect(history.envelope.datum.total).toBe(2)
    const pending = await orderCall<{ total: number }>(app, 'getRechargeAll', admin, {
      everyone: true,
      state: 'pending',
    })
    expect(pending.envelope.datum.total).toBe(0)
    expect(await balance(owner)).toBe(3000)
  })

  it('pays from the balance once, makes the project paid, and meters anew from there', async () => {
    const list = await shoppingList(owner, building.id)
    const ids = [lineOf(list, 'upload-traffic').id, lineOf(list, 'watermark-removal').id]
    const tooDear = await orderCall<{ orderId: string }>(app, 'addOrder', owner, {
      project_id: building.id,
      ids: [...ids, lineOf(list, 'support-standard').id],
      counts: { [lineOf(list, 'support-standard').id]: 2 },
    })
    const refused = await orderCall(app, 'pay', owner, { order_id: tooDear.envelope.datum.orderId })
    expect(refused.statusCode).toBe(402)
    expect(refused.envelope.messageId).toBe('order.balanceTooLow')
    expect(refused.envelope.params).toEqual({ balance: 3000, total: 4501 })
    expect(await balance(owner)).toBe(3000)
    await orderCall(app, 'deleteOrder', owner, { order_id: tooDear.envelope.datum.orderId })

    const ordered = await orderCall<{ orderId: string }>(app, 'addOrder', owner, {
      project_id: building.id,
      ids: [...ids, lineOf(list, 'support-community').id],
    })
    const orderId = ordered.envelope.datum.orderId
    const paid = await orderCall<PayDatum>(app, 'pay', owner, {
      order_id: orderId,
      idempotency_key: 'pay-1',
    })
    expect(paid.envelope.datum).toEqual({
      order_id: orderId,
      state: 'paid',
      total: 501,
      balance: 2499,
      is_replay: false,
    })
    const replay = await orderCall<PayDatum>(
      app,
      'pay',
      owner,
      { order_id: orderId },
      {
        'idempotency-key': 'pay-1',
      },
    )
    expect(replay.envelope.datum).toMatchObject({ is_replay: true, balance: 2499 })
    const second = await orderCall(app, 'pay', owner, { order_id: orderId })
    expect(second.envelope.messageId).toBe('order.alreadyPaid')
    expect(await balance(owner)).toBe(2499)

    const state = await orderCall<{ is_paid: boolean; unpaid_order: unknown }>(
      app,
      'getOrderState',
      owner,
      { project_id: building.id },
    )
    expect(state.envelope.datum).toMatchObject({ is_paid: true, unpaid_order: null })
    const project = await callApi<Project>(app, {
      url: '/web/project/findProjectOne',
      token: owner,
      json: { id: building.id },
    })
    expect(project.envelope.datum.is_paid).toBe(true)

    const after = await shoppingList(owner, building.id)
    expect(lineOf(after, 'upload-traffic')).toMatchObject({ paid_num: 1, unpaid: 0, amount: 0 })
    expect(lineOf(after, 'watermark-removal')).toMatchObject({ is_orderable: false, amount: 0 })
    expect(after.metered_since).not.toBeNull()
    const page = await orderCall<OrderPage>(app, 'getHistoryOrderWithProject', owner, {
      project_id: building.id,
      pageSize: 2,
    })
    expect(page.envelope.datum.total).toBe(3)
    expect(page.envelope.datum.list.map((order) => order.state)).toEqual(['paid', 'cancelled'])
    const bad = await orderCall(app, 'getHistoryOrderAll', owner, { pageSize: 500 })
    expect(bad.statusCode).toBe(400)

    const ledger = await verifyLedger(app.deps.database.db)
    expect(ledger).toMatchObject({ problems: [], totalSum: 0, userPoints: 2499, movements: 2 })
  })

  it('lets an admin change a price, never to a value that is no price', async () => {
    for (const price of [-2, -10, 1.5]) {
      const answer = await orderCall(app, 'updatePrice', admin, { id: 'watermark-removal', price })
      expect([price, answer.statusCode]).toEqual([price, 400])
    }
    const missing = await orderCall(app, 'updatePrice', admin, { id: 'no-such', price: 1 })
    expect(missing.statusCode).toBe(404)
    const changed = await orderCall(app, 'updatePrice', admin, {
      id: 'support-standard',
      price: 1500,
    })
    expect(changed.envelope.datum).toMatchObject({ price: 1500 })
    const list = await shoppingList(stranger, strangersProject.id)
    expect(lineOf(list, 'support-standard').amount).toBe(1500)
    // the price list an editor reads shows the change; guests and anonymous callers read none
    const prices = await orderCall<PriceItem[]>(app, 'getPriceList', owner)
    expect(prices.envelope.code, prices.envelope.message).toBe('0')
    expect(prices.envelope.datum.find((item) => item.id === 'support-standard')).toMatchObject({
      price: 1500,
      type: '5',
    })
    expect(prices.envelope.datum.map((item) => item.id)).toEqual(
      expect.arrayContaining(['upload-traffic', 'watermark-removal', 'development-trial']),
    )
    expect((await orderCall(app, 'getPriceList', guest)).statusCode).toBe(403)
    expect((await orderCall(app, 'getPriceList', undefined)).envelope.code).toBe('2011')
  })

  it('lets a project with lines and orders be deleted, keeping its order history', async () => {
    const doomed = await createProject(app, owner, { name: 'Short-lived' })
    const list = await shoppingList(owner, doomed.id)
    const ordered = await orderCall<{ orderId: string }>(app, 'addOrder', owner, {
      project_id: doomed.id,
      ids: [lineOf(list, 'watermark-removal').id, lineOf(list, 'support-community').id],
    })
    expect(ordered.envelope.code).toBe('0')
    const deleted = await callApi(app, {
      url: '/web/project/deleteProject',
      token: owner,
      json: { id: doomed.id },
    })
    expect(deleted.envelope.code).toBe('0')
    const detail = await orderCall<OrderDetail>(app, 'getOrderListById', owner, {
      order_id: ordered.envelope.datum.orderId,
    })
    expect(detail.envelope.datum).toMatchObject({ project_name: 'Short-lived', state: 'unpaid' })
    const gone = await orderCall(app, 'getShoppingList', owner, { project_id: doomed.id })
    expect(gone.statusCode).toBe(404)
  })

  it('answers the download gate: unpaid order first, then whether the project is paid', async () => {
    const { orders } = app.deps.services
    await expect(orders.requireDownloadAllowed(building.id)).resolves.toBeUndefined()
    await expect(orders.requireDownloadAllowed(strangersProject.id)).rejects.toMatchObject({
      kind: 'paymentRequired',
      messageId: 'error.paymentRequired',
    })
    const list = await shoppingList(stranger, strangersProject.id)
    await orderCall(app, 'addOrder', stranger, {
      project_id: strangersProject.id,
      ids: [lineOf(list, 'watermark-removal').id, lineOf(list, 'support-community').id],
    })
    await expect(orders.requireDownloadAllowed(strangersProject.id)).rejects.toMatchObject({
      messageId: 'order.unpaidBlocksDownload',
      message: 'You have an order not paid...',
    })
    for (const route of ['getRechargeHistoryById', 'cancelRecharge'] as const) {
      const mine = await orderCall<{ list: Recharge[] }>(app, 'getRechargeAll', owner)
      const answer = await orderCall(app, route, stranger, {
        recharge_id: mine.envelope.datum.list[0]!.id,
      })
      expect([route, answer.statusCode, answer.envelope.messageId]).toEqual([
        route,
        403,
        'recharge.foreign',
      ])
    }
  })

  it('keeps the ledger append-only in the database itself', async () => {
    const { db } = app.deps.database
    await expect(db.updateTable('ledger_entries').set({ amount: 1 }).execute()).rejects.toThrow(
      /append-only/,
    )
    await expect(db.deleteFrom('ledger_movements').execute()).rejects.toThrow(/append-only/)
    await expect(
      db.updateTable('ledger_accounts').set({ balance: -1 }).where('kind', '=', 'user').execute(),
    ).rejects.toThrow()
  })

  it('finds a cached balance that disagrees with the entries (npm run ledger:verify)', async () => {
    const verifyCommand = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'tools/ledger-verify.ts'], {
        env: { ...process.env, DATA_DIR: testApp.config.dataDir },
        encoding: 'utf8',
      })
    const isSqlite = app.deps.database.dialect === 'sqlite'
    const { db } = app.deps.database
    expect((await verifyLedger(db)).problems).toEqual([])
    await db
      .updateTable('ledger_accounts')
      .set({ balance: sql`balance + 1` })
      .where('kind', '=', 'user')
      .execute()
    const report = await verifyLedger(db)
    expect(report.problems).toEqual([
      expect.stringMatching(/cached balance 2500, entries sum to 2499/),
    ])
    // the command reads the same SQLite file (one run: starting tsx takes seconds)
    if (isSqlite) {
      const broken = verifyCommand()
      expect(broken.status).toBe(1)
      expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false })
    }
  })
})
