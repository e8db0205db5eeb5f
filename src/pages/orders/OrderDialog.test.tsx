import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ShoppingLine, ShoppingListDatum } from '../../../contract/orders'
import { ConfirmHost } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { OrderDialog } from './OrderDialog'

const text = (en: string) => ({ ko: en, zh: en, en })
function line(
  itemId: string,
  type: ShoppingLine['type'],
  price: number,
  extra: Partial<ShoppingLine> = {},
): ShoppingLine {
  return {
    id: `line-${itemId}`,
    item_id: itemId,
    type,
    name: itemId,
    names: text(itemId),
    count: 1,
    unit: 'project',
    amount: price === -9 ? null : price === -1 ? 0 : price,
    price,
    price_des: text(''),
    price_des_state: '0',
    paid_num: 0,
    unpaid: 1,
    is_check: false,
    is_orderable: price !== -9,
    metered_bytes: null,
    ...extra,
  }
}

const shoppingList: ShoppingListDatum = {
  project_id: 'p1',
  unpaid_order_id: null,
  is_paid: false,
  metered_since: null,
  lines: [
    line('Upload traffic', '1', 2, { unit: 'MB', unpaid: 3, amount: 6, is_check: true }),
    line('Watermark removal', '4', 500),
    line('Community support', '5', -1, { is_check: true }),
    line('Standard support', '5', 2000, { unit: 'year' }),
    line('Enterprise support', '5', -9),
    line('Development trial', '6', -1),
  ],
}

/** The in-memory server of the dialog's two calls; records the addOrder bodies. */
function stubOrderServer() {
  const orders: unknown[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const answer = (datum: unknown) =>
        new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
          headers: { 'content-type': 'application/json' },
        })
      if (path === '/web/orderManage/getShoppingList') return answer(shoppingList)
      if (path === '/web/orderManage/addOrder') {
        orders.push(JSON.parse(String(init?.body)))
        return answer({ orderId: 'o1', order_no: 'TS1', total: 1 })
      }
      throw new Error(`no stub for ${path}`)
    }),
  )
  return orders
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('OrderDialog', () => {
  it('totals the choice on every change, locks all but the trial in trial mode, and orders', async () => {
    const orders = stubOrderServer()
    const user = userEvent.setup()
    const onClose = vi.fn()
    renderWithI18n(
      <>
        <OrderDialog projectId="p1" projectName="Tower" onClose={onClose} />
        <ConfirmHost />
      </>,
    )
    const dialog = await screen.findByRole('dialog', { name: 'Order for Tower' })
    const total = () => within(dialog).getByText('Total').parentElement?.textContent
    await waitFor(() => expect(total()).toContain('6'))
    expect(
      (within(dialog).getByRole('radio', { name: 'Community support' }) as HTMLInputElement)
        .checked,
    ).toBe(true)
    expect(
      (within(dialog).getByRole('radio', { name: 'Enterprise support' }) as HTMLInputElement)
        .disabled,
    ).toBe(true)

    await user.click(within(dialog).getByRole('checkbox', { name: 'Watermark removal' }))
    expect(total()).toContain('506')
    await user.click(within(dialog).getByRole('radio', { name: 'Standard support' }))
    expect(total()).toContain('2,506')

    await user.click(within(dialog).getByRole('checkbox', { name: 'Development trial' }))
    expect(
      (within(dialog).getByRole('checkbox', { name: 'Upload traffic' }) as HTMLInputElement)
        .disabled,
    ).toBe(true)
    expect(
      (within(dialog).getByRole('radio', { name: 'Standard support' }) as HTMLInputElement)
        .disabled,
    ).toBe(true)
    expect(within(dialog).queryByRole('button', { name: 'Order' })).toBeNull()
    expect(within(dialog).getByRole('button', { name: 'Direct download' })).toBeTruthy()
    expect(total()).toMatch(/Total\s*0/)

    await user.click(within(dialog).getByRole('checkbox', { name: 'Development trial' }))
    expect(total()).toContain('2,506')
    await user.click(within(dialog).getByRole('button', { name: 'Order' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(orders).toEqual([
      {
        project_id: 'p1',
        ids: ['line-Upload traffic', 'line-Watermark removal', 'line-Standard support'],
      },
    ])
    expect(
      await screen.findByText('Order TS1 was created. Go to the order centre to pay it?'),
    ).toBeTruthy()
  })

  it('names the years of support in the form their number takes', async () => {
    stubOrderServer()
    const user = userEvent.setup()
    renderWithI18n(<OrderDialog projectId="p1" projectName="Tower" onClose={() => {}} />)
    const dialog = await screen.findByRole('dialog', { name: 'Order for Tower' })
    await user.click(await within(dialog).findByRole('radio', { name: 'Standard support' }))
    const row = within(dialog).getByRole('radio', { name: 'Standard support' }).closest('tr')
    const quantityCell = () => row?.querySelectorAll('td')[0]?.textContent ?? ''
    expect(quantityCell()).toMatch(/\syear$/)
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Years of Standard support' }),
      '2',
    )
    expect(quantityCell()).toMatch(/\syears$/)
  })
})
