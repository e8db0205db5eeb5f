import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AccountDatum, Recharge } from '../../../contract/orders'
import { verifyLedger } from '../../modules/orders/ledger'
import {
  localPaymentKeyFile,
  localSignatureHeader,
  signLocalPayment,
} from '../../modules/orders/payment-providers'
import { rechargeCodeGuessLimit } from '../../modules/orders/recharges.service'
import { callApi, createTestApp, signIn, type TestApp, testAdmin } from '../../testing/test-app'
import { signInNewUser } from './project-test-kit'

/**
 * What stands between a recharge code and points (issue 20 "Bad input"): guessing codes is
 * rate-limited, and a payment provider's callback confirms only with the provider's signature,
 * once, for the recharge's amount.
 */
describe('recharge guards', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let payer: string
  let admin: string
  let key: Buffer

  const call = <Datum>(route: string, token: string | undefined, json: unknown, headers = {}) =>
    callApi<Datum>(app, {
      url: `/web/orderManage/${route}`,
      ...(token === undefined ? {} : { token }),
      json,
      headers,
    })
  const balance = async () =>
    (await call<AccountDatum>('getAccountAmount', payer, {})).envelope.datum.balance
  const askRecharge = async (amount: number) => {
    const asked = await call<Recharge>('recharge', payer, { amount })
    expect(asked.envelope.code, asked.envelope.message).toBe('0')
    return asked.envelope.datum
  }
  const wrongCode = () => `RC-${randomBytes(5).toString('hex').slice(0, 5).toUpperCase()}-ZZZZZ`

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    payer = await signInNewUser(app, `guard-payer-${randomBytes(3).toString('hex')}`)
    admin = await signIn(app, testAdmin)
    key = await readFile(localPaymentKeyFile(testApp.config.dataDir))
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('stops confirmations by code after too many unknown codes, the right one included', async () => {
    const recharge = await askRecharge(300)
    for (let attempt = 0; attempt < rechargeCodeGuessLimit.attempts; attempt++) {
      const miss = await call('confirmRecharge', admin, { code: wrongCode() })
      expect(miss.statusCode).toBe(404)
      expect(miss.envelope.messageId).toBe('recharge.notFound')
    }
    const limited = await call('confirmRecharge', admin, { code: wrongCode() })
    expect(limited.statusCode).toBe(429)
    expect(limited.envelope.messageId).toBe('recharge.tooManyGuesses')
    const rightButLimited = await call('confirmRecharge', admin, { code: recharge.code })
    expect(rightButLimited.statusCode).toBe(429)
    expect(await balance()).toBe(0)

    // once the window has passed, the right code confirms
    testApp.clock.advanceMs(rechargeCodeGuessLimit.windowMs + 1_000)
    const confirmed = await call<Recharge>('confirmRecharge', admin, { code: recharge.code })
    expect(confirmed.envelope.code, confirmed.envelope.message).toBe('0')
    expect(await balance()).toBe(300)
  })

  it('confirms a recharge from a signed provider callback once, and refuses forgeries', async () => {
    const before = await balance()
    const recharge = await askRecharge(700)
    const notice = { code: recharge.code, amount: 700, reference: 'pay-0001' }
    const signed = { [localSignatureHeader]: signLocalPayment(key, notice) }

    // no signature, a wrong one, and a right one over other fields: nothing confirmed
    for (const headers of [
      {},
      { [localSignatureHeader]: 'f'.repeat(64) },
      { [localSignatureHeader]: 'not hex' },
    ]) {
      const forged = await call(
        'paymentCallback',
        undefined,
        { provider: 'local', ...notice },
        headers,
      )
      expect(forged.statusCode).toBe(403)
      expect(forged.envelope.messageId).toBe('payment.badSignature')
    }
    const raised = await call(
      'paymentCallback',
      undefined,
      { provider: 'local', ...notice, amount: 7_000 },
      signed,
    )
    expect(raised.statusCode).toBe(403)
    // signed by the provider, but for another amount than the recharge's
    const otherAmount = { ...notice, amount: 70 }
    const mismatch = await call(
      'paymentCallback',
      undefined,
      { provider: 'local', ...otherAmount },
      { [localSignatureHeader]: signLocalPayment(key, otherAmount) },
    )
    expect(mismatch.statusCode).toBe(409)
    expect(mismatch.envelope.messageId).toBe('payment.amountMismatch')
    const unknown = await call(
      'paymentCallback',
      undefined,
      { provider: 'acme', ...notice },
      signed,
    )
    expect(unknown.statusCode).toBe(400)
    expect(await balance()).toBe(before)

    const paid = await call<{ recharge_id: string; state: string; is_replay: boolean }>(
      'paymentCallback',
      undefined,
      { provider: 'local', ...notice },
      signed,
    )
    expect(paid.envelope.code, paid.envelope.message).toBe('0')
    expect(paid.envelope.datum).toEqual({
      recharge_id: recharge.id,
      state: 'confirmed',
      is_replay: false,
    })
    expect(await balance()).toBe(before + 700)
    // providers retry: the same notice again credits nothing
    const again = await call<{ is_replay: boolean }>(
      'paymentCallback',
      undefined,
      { provider: 'local', ...notice },
      signed,
    )
    expect(again.envelope.datum.is_replay).toBe(true)
    expect(await balance()).toBe(before + 700)
    const stored = await call<Recharge>('getRechargeCode', payer, { recharge_id: recharge.id })
    expect(stored.envelope.datum).toMatchObject({
      state: 'confirmed',
      bank_reference: 'local:pay-0001',
    })
    expect((await verifyLedger(app.deps.database.db)).problems).toEqual([])
  })
})
