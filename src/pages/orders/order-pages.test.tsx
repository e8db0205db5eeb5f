import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AccountDatum, OrderDetail, Recharge } from '../../../contract/orders'
import { ConfirmHost } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { BalancePage } from './BalancePage'
import { OrderDetailsPage } from './OrderDetailsPage'

const text = (en: string) => ({ ko: en, zh: en, en })

/** An in-memory /orderManage server; records each call's path and body. */
function stubServer(answers: Record<string, (body: Record<string, unknown>) => unknown>) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname.replace('/web/orderManage/', '')
      const raw = String(init?.body ?? '')
      const body = raw.startsWith('{')
        ? (JSON.parse(raw) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(raw))
      calls.push({ path, body })
      const answer = answers[path]
      if (!answer) throw new Error(`no stub for ${path}`)
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum: answer(body) }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('order pages', () => {
  it('shows an order and pays it once confirmed, with an idempotency key', async () => {
    let state: OrderDetail['state'] = 'unpaid'
    const order = (): OrderDetail => ({
      id: 'o1',
      order_no: 'TS20261126000000ABCD',
      project_id: 'p1',
      project_name: 'Tower',
      user_id: 'u1',
      state,
      total: 501,
      created_at: '2026-11-26T00:00:00.000Z',
      paid_at: state === 'paid' ? '2026-11-26T00:01:00.000Z' : null,
      cancelled_at: null,
      metered_until: '2026-11-26T00:00:00.000Z',
      lines: [
        {
          line_id: 'l1',
          item_id: 'upload-traffic',
          type: '1',
          name: 'Upload traffic',
          names: text('Upload traffic'),
          unit: 'MB',
          count: 1,
          price: 1,
          amount: 1,
        },
        {
          line_id: 'l2',
          item_id: 'watermark-removal',
          type: '4',
          name: 'Watermark removal',
          names: text('Watermark removal'),
          unit: 'project',
          count: 1,
          price: 500,
          amount: 500,
        },
      ],
    })
    const account = (): AccountDatum => ({
      balance: state === 'paid' ? 499 : 1000,
      unit: 'TC',
      pending_recharges: 0,
    })
    const calls = stubServer({
      getOrderListById: order,
      getAccountAmount: account,
      pay: () => {
        state = 'paid'
        return { order_id: 'o1', state: 'paid', total: 501, balance: 499, is_replay: false }
      },
    })
    const user = userEvent.setup()
    renderWithI18n(
      <>
        <OrderDetailsPage params={{}} search="orderId=o1" />
        <ConfirmHost />
      </>,
    )
    expect(await screen.findByText('Order TS20261126000000ABCD')).toBeTruthy()
    expect(screen.getByText('Watermark removal')).toBeTruthy()
    expect(screen.getByTestId('order-state').textContent).toBe('Unpaid')
    await user.click(screen.getByRole('button', { name: 'Pay' }))
    await user.click(await screen.findByRole('button', { name: 'OK' }))
    await waitFor(() => expect(screen.getByTestId('order-state').textContent).toBe('Paid'))
    const pay = calls.find((call) => call.path === 'pay')
    expect(pay?.body).toMatchObject({ order_id: 'o1' })
    expect(String(pay?.body.idempotency_key)).toMatch(/^[\w-]{20,}$/)
    expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull()
  })

  it('asks for a recharge and shows the code to quote', async () => {
    const pending: Recharge = {
      id: 'r1',
      code: 'RC-ABCDE-FGHJK',
      user_id: 'u1',
      user_name: 'kim',
      method: 'online',
      amount: 3000,
      state: 'pending',
      payer_name: '',
      bank_reference: '',
      created_at: '2026-11-26T00:00:00.000Z',
      confirmed_at: null,
      cancelled_at: null,
    }
    let recharges: Recharge[] = []
    const calls = stubServer({
      getAccountAmount: () => ({ balance: 0, unit: 'TC', pending_recharges: recharges.length }),
      getRechargeAll: () => ({ list: recharges, total: recharges.length, pageNo: 1, pageSize: 20 }),
      recharge: () => {
        recharges = [pending]
        return pending
      },
    })
    const user = userEvent.setup()
    renderWithI18n(<BalancePage />)
    expect((await screen.findByTestId('balance')).textContent).toContain('0')
    await user.type(screen.getByLabelText('Points to recharge'), '2.5')
    await user.click(screen.getAllByRole('button', { name: 'Recharge' })[0]!)
    expect(screen.getByText('Enter a whole number of points from 1 to 10,000,000.')).toBeTruthy()
    expect(calls.some((call) => call.path === 'recharge')).toBe(false)

    await user.clear(screen.getByLabelText('Points to recharge'))
    await user.type(screen.getByLabelText('Points to recharge'), '3000')
    await user.click(screen.getAllByRole('button', { name: 'Recharge' })[0]!)
    expect((await screen.findByRole('status')).textContent).toContain('RC-ABCDE-FGHJK')
    expect(calls.find((call) => call.path === 'recharge')?.body).toMatchObject({ amount: '3000' })
    expect(await screen.findByText('Waiting for confirmation')).toBeTruthy()
  })
})
