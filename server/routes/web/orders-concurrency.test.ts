import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountDatum } from '../../../contract/orders'
import { systemAccountIds, verifyLedger } from '../../modules/orders/ledger'
import { timestampOf } from '../../modules/time/clock'
import { createTestApp, signIn, type TestApp, testAdmin } from '../../testing/test-app'
import {
  orderCall as call,
  orderWatermarkRemoval,
  rechargeConfirmed as rechargeConfirmedBy,
} from './orders-test-kit'
import { signInNewUser } from './project-test-kit'

/**
 * R6 (issue 20): many concurrent pays against a balance that covers exactly the orders. Runs
 * on SQLite, and on PostgreSQL when DATABASE_URL names one (CI runs the server suite twice).
 */

const orderCount = 100
const paysPerOrder = 10
const watermarkPrice = 500

describe('R6: concurrent payments', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let payer: string
  let admin: string
  let projectIds: string[]

  /** Orders watermark removal (and the free support option) on a project. */
  const orderOn = (projectId: string) => orderWatermarkRemoval(app, payer, projectId)
  const rechargeConfirmed = (amount: number) => rechargeConfirmedBy(app, payer, admin, amount)
  const balance = async () =>
    (await call<AccountDatum>(app, 'getAccountAmount', payer)).envelope.datum.balance

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    const name = `r6-payer-${randomUUID().slice(0, 6)}`
    payer = await signInNewUser(app, name)
    admin = await signIn(app, testAdmin)
    const user = await app.deps.repositories.users.findByName(name)
    const timestamp = timestampOf(testApp.clock.nowMs())
    // projects straight into the table: the project API is not what this test is about
    projectIds = Array.from({ length: orderCount }, () => randomUUID())
    await app.deps.database.db
      .insertInto('projects')
      .values(
        projectIds.map((id, index) => ({
          id,
          kind: 'building' as const,
          name: `R6 project ${index}`,
          area_id: null,
          area_name: null,
          detailedaddress: 'Test street',
          prewiewpath_uuid: null,
          description: '',
          tile_coordinates: null,
          project_center_lng: null,
          project_center_lat: null,
          shell_json_path: null,
          owner_id: user!.id,
          created_at: timestamp,
          updated_at: timestamp,
        })),
      )
      .execute()
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('lets one of many racing orders of a project through', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => orderOn(projectIds[0]!)))
    const created = answers.filter((answer) => answer.envelope.code === '0')
    expect(created).toHaveLength(1)
    for (const refused of answers.filter((answer) => answer.envelope.code !== '0')) {
      expect(refused.envelope.messageId).toBe('order.unpaidOrderExists')
    }
  })

  it(`${orderCount * paysPerOrder} pays of ${orderCount} orders: exactly ${orderCount} charge, once each`, async () => {
    const first = await call<{ unpaid_order: { id: string } }>(app, 'getOrderState', payer, {
      project_id: projectIds[0],
    })
    const orderIds = [first.envelope.datum.unpaid_order.id]
    // the orders of the other projects, made 20 at a time (setting up, not what is tested)
    for (let start = 1; start < orderCount; start += 20) {
      const batch = await Promise.all(projectIds.slice(start, start + 20).map(orderOn))
      for (const ordered of batch) {
        expect(ordered.envelope.datum.total).toBe(watermarkPrice)
        orderIds.push(ordered.envelope.datum.orderId)
      }
    }
    await rechargeConfirmed(orderCount * watermarkPrice)
    expect(await balance()).toBe(orderCount * watermarkPrice)

    // every order paid ten times at once, interleaved; half the retries carry one shared key
    const pays = Array.from({ length: orderCount * paysPerOrder }, (_, index) => {
      const orderId = orderIds[index % orderCount]!
      const round = Math.floor(index / orderCount)
      return call(app, 'pay', payer, {
        order_id: orderId,
        ...(round % 2 === 0 ? {} : { idempotency_key: `k-${orderId}` }),
      })
    })
    const answers = await Promise.all(pays)
    const fresh = answers.filter(
      (answer) =>
        answer.envelope.code === '0' &&
        (answer.envelope.datum as { is_replay: boolean }).is_replay === false,
    )
    expect(fresh).toHaveLength(orderCount)
    const others = answers.filter((answer) => !fresh.includes(answer))
    for (const answer of others) {
      // a replay of the same key, or refused as paid: never a 500, never a second charge
      const isReplay =
        answer.envelope.code === '0' && (answer.envelope.datum as { is_replay: boolean }).is_replay
      expect(isReplay || answer.envelope.messageId === 'order.alreadyPaid').toBe(true)
    }
    expect(
      new Set(fresh.map((answer) => (answer.envelope.datum as { order_id: string }).order_id)).size,
    ).toBe(orderCount)

    expect(await balance()).toBe(0)
    const ledger = await verifyLedger(app.deps.database.db)
    expect(ledger.problems).toEqual([])
    expect(ledger.totalSum).toBe(0)
    expect(ledger.userPoints).toBe(0)
    // one recharge and one payment per order
    expect(ledger.movements).toBe(1 + orderCount)
    const revenue = await app.deps.database.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('id', '=', systemAccountIds.revenue)
      .executeTakeFirstOrThrow()
    expect(Number(revenue.balance)).toBe(orderCount * watermarkPrice)
    const paidProjects = await app.deps.database.db
      .selectFrom('projects')
      .select((builder) => builder.fn.countAll<number | string>().as('count'))
      .where('id', 'in', projectIds)
      .where('is_paid', '=', 1)
      .executeTakeFirstOrThrow()
    expect(Number(paidProjects.count)).toBe(orderCount)
  })

  it('refuses a pay the balance no longer covers, changing nothing', async () => {
    const extra = randomUUID()
    const owner = await app.deps.database.db
      .selectFrom('projects')
      .select('owner_id')
      .where('id', '=', projectIds[0]!)
      .executeTakeFirstOrThrow()
    const timestamp = timestampOf(testApp.clock.nowMs())
    await app.deps.database.db
      .insertInto('projects')
      .values({
        id: extra,
        kind: 'city',
        name: 'R6 extra',
        area_id: null,
        area_name: null,
        detailedaddress: 'Test street',
        prewiewpath_uuid: null,
        description: '',
        tile_coordinates: null,
        project_center_lng: null,
        project_center_lat: null,
        shell_json_path: null,
        owner_id: owner.owner_id,
        created_at: timestamp,
        updated_at: timestamp,
      })
      .execute()
    const ordered = await orderOn(extra)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(app, 'pay', payer, { order_id: ordered.envelope.datum.orderId }),
      ),
    )
    expect(answers.every((answer) => answer.envelope.messageId === 'order.balanceTooLow')).toBe(
      true,
    )
    expect(await balance()).toBe(0)
    expect((await verifyLedger(app.deps.database.db)).problems).toEqual([])
  })
})
