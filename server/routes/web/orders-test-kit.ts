import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { DownloadState, OfflinePackage } from '../../../contract/offline-package'
import type { PayDatum, Recharge, ShoppingListDatum } from '../../../contract/orders'
import { timestampOf } from '../../modules/time/clock'
import { callApi, type TestApp } from '../../testing/test-app'

/**
 * Helpers for tests that need money to move the way a user moves it: orders, recharges an admin
 * confirms, payments. Test-only (no test runs from this file itself).
 */

/** Calls an `/orderManage/` route with a JSON body. */
export function orderCall<Datum>(
  app: FastifyInstance,
  route: string,
  token: string,
  json: unknown = {},
) {
  return callApi<Datum>(app, { url: `/web/orderManage/${route}`, token, json })
}

/** Orders watermark removal (and the free support option) on a project: `addOrder`'s answer. */
export async function orderWatermarkRemoval(
  app: FastifyInstance,
  token: string,
  projectId: string,
) {
  const list = (
    await orderCall<ShoppingListDatum>(app, 'getShoppingList', token, { project_id: projectId })
  ).envelope.datum
  const idOf = (itemId: string) => list.lines.find((line) => line.item_id === itemId)!.id
  return orderCall<{ orderId: string; total: number }>(app, 'addOrder', token, {
    project_id: projectId,
    ids: [idOf('watermark-removal'), idOf('support-community')],
  })
}

/** Asks to recharge `amount` points and has the admin confirm the code. */
export async function rechargeConfirmed(
  app: FastifyInstance,
  token: string,
  adminToken: string,
  amount: number,
) {
  const asked = await orderCall<Recharge>(app, 'recharge', token, { amount })
  const confirmed = await orderCall(app, 'confirmRecharge', adminToken, {
    code: asked.envelope.datum.code,
  })
  if (confirmed.envelope.code !== '0') {
    throw new Error(`recharge not confirmed: ${confirmed.envelope.message}`)
  }
}

/**
 * Makes a project paid the way its owner would: an order, a recharge of its total the admin
 * confirms, and the payment from the balance. Fails the test unless the payment goes through.
 */
export async function payForProject(
  app: FastifyInstance,
  payment: { token: string; adminToken: string; projectId: string },
): Promise<PayDatum> {
  const ordered = await orderWatermarkRemoval(app, payment.token, payment.projectId)
  if (ordered.envelope.code !== '0') throw new Error(`order failed: ${ordered.envelope.message}`)
  const { orderId, total } = ordered.envelope.datum
  await rechargeConfirmed(app, payment.token, payment.adminToken, total)
  const paid = await orderCall<PayDatum>(app, 'pay', payment.token, { order_id: orderId })
  if (paid.envelope.code !== '0') throw new Error(`payment failed: ${paid.envelope.message}`)
  return paid.envelope.datum
}

/**
 * What a process killed mid-build leaves in the database: an offline package row still
 * `building`, created `afterMs` after the test clock's now (so it is the project's newest).
 * Returns its id; the test puts whatever files the crash left beside it.
 */
export async function insertCutPackageBuild(
  testApp: TestApp,
  projectId: string,
  { variant, afterMs }: { variant: 'trial' | 'full'; afterMs: number },
): Promise<string> {
  const id = randomUUID()
  await testApp.app.deps.database.db
    .insertInto('offline_packages')
    .values({
      id,
      project_id: projectId,
      user_id: null,
      state: 'building',
      variant,
      is_watermarked: variant === 'trial' ? 1 : 0,
      size_bytes: null,
      sha256: null,
      entry_count: null,
      error_message_id: null,
      created_at: timestampOf(testApp.clock.nowMs() + afterMs),
      finished_at: null,
    })
    .execute()
  return id
}

/** Builds the project's offline package through the routes and waits for it: ready or the test fails. */
export async function buildPackageToEnd(
  app: FastifyInstance,
  token: string,
  projectId: string,
): Promise<OfflinePackage> {
  const started = await callApi<OfflinePackage>(app, {
    url: '/web/bimBiz/buildSbkFile',
    token,
    json: { project_id: projectId },
  })
  expect(started.envelope.code, started.envelope.message).toBe('0')
  await app.deps.services.offlinePackages.settle()
  const state = await callApi<DownloadState>(app, {
    url: '/web/bimBiz/checkSbkDownloadState',
    token,
    json: { project_id: projectId },
  })
  const built = state.envelope.datum.package!
  expect(built.state, built.error_message_id ?? '').toBe('ready')
  return built
}
