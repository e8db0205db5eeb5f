import { describe, expect, it } from 'vitest'
import type { ShoppingLine } from '../../../contract/orders'
import {
  chooseSupport,
  initialSelection,
  isLineLocked,
  orderBodyOf,
  setSupportYears,
  toggleLine,
  toggleTrial,
  totalOf,
} from './order-selection'

const text = { ko: '', zh: '', en: '' }
function line(
  id: string,
  type: ShoppingLine['type'],
  price: number,
  extra: Partial<ShoppingLine> = {},
): ShoppingLine {
  return {
    id,
    item_id: id,
    type,
    name: id,
    names: text,
    count: 1,
    unit: 'project',
    amount: price === -9 ? null : price === -1 ? 0 : price,
    price,
    price_des: text,
    price_des_state: '0',
    paid_num: 0,
    unpaid: 1,
    is_check: false,
    is_orderable: price !== -9,
    metered_bytes: null,
    ...extra,
  }
}

const lines = [
  line('upload', '1', 2, { amount: 6, unpaid: 3, is_check: true, unit: 'MB' }),
  line('watermark', '4', 500),
  line('community', '5', -1, { is_check: true }),
  line('standard', '5', 2000),
  line('enterprise', '5', -9),
  line('trial', '6', -1),
]
const byId = (id: string) => lines.find((candidate) => candidate.id === id)!

describe('the order dialog choice', () => {
  it('opens with the checked lines and the first support option, and totals them', () => {
    const selection = initialSelection(lines)
    expect([...selection.checkedIds]).toEqual(['upload'])
    expect(selection.supportId).toBe('community')
    expect(totalOf(lines, selection)).toBe(6)
  })

  it('recomputes the total on each toggle and radio change', () => {
    let selection = toggleLine(initialSelection(lines), byId('watermark'))
    expect(totalOf(lines, selection)).toBe(506)
    selection = chooseSupport(selection, byId('standard'))
    expect(totalOf(lines, selection)).toBe(2506)
    selection = setSupportYears(selection, 3)
    expect(totalOf(lines, selection)).toBe(6506)
    selection = toggleLine(selection, byId('upload'))
    expect(totalOf(lines, selection)).toBe(6500)
    expect(orderBodyOf('p1', lines, selection)).toEqual({
      project_id: 'p1',
      ids: ['watermark', 'standard'],
      counts: { standard: 3 },
    })
  })

  it('never chooses a contact-us option', () => {
    const selection = chooseSupport(initialSelection(lines), byId('enterprise'))
    expect(selection.supportId).toBe('community')
    expect(isLineLocked(byId('enterprise'), selection)).toBe(true)
  })

  it('locks every other choice in trial mode and restores them after', () => {
    const chosen = toggleLine(initialSelection(lines), byId('watermark'))
    const trial = toggleTrial(chosen)
    expect(lines.filter((entry) => isLineLocked(entry, trial)).map((entry) => entry.id)).toEqual([
      'upload',
      'watermark',
      'community',
      'standard',
      'enterprise',
    ])
    expect(toggleLine(trial, byId('upload'))).toBe(trial)
    expect(totalOf(lines, trial)).toBe(0)
    const left = toggleTrial(trial)
    expect(totalOf(lines, left)).toBe(506)
  })
})
