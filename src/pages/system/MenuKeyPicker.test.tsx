import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { leftMenuItemKeys } from '../../components/shell/left-menu'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { MenuKeyPicker } from './MenuKeyPicker'

/** The picker with its own state, reporting each change like a form would keep it. */
function PickerHarness({ initial, changes }: { initial: string[]; changes: string[][] }) {
  const [keys, setKeys] = useState(initial)
  return (
    <MenuKeyPicker
      value={keys}
      onValueChange={(next) => {
        changes.push(next)
        setKeys(next)
      }}
    />
  )
}

/** A string name matches the whole accessible name, so "Space" finds only that item. */
const checkbox = (name: string) => screen.getByRole<HTMLInputElement>('checkbox', { name })

describe('MenuKeyPicker', () => {
  it('ticks the items of the keys given, and a group only when all of it is chosen', () => {
    renderWithI18n(
      <PickerHarness
        initial={['system.person', 'system.security', 'projectManage.city']}
        changes={[]}
      />,
    )
    expect(checkbox('Personal info').checked).toBe(true)
    expect(checkbox('User management').checked).toBe(false)
    expect(checkbox('City').checked).toBe(true)
    // System settings is partly chosen: not ticked, shown as mixed.
    expect(checkbox('System settings').checked).toBe(false)
    expect(checkbox('System settings').indeterminate).toBe(true)
    expect(checkbox('Template manage').indeterminate).toBe(false)
  })

  it('a group checkbox ticks or clears the whole group, keeping the menu order', async () => {
    const changes: string[][] = []
    renderWithI18n(<PickerHarness initial={['system.person']} changes={changes} />)
    const user = userEvent.setup()

    await user.click(checkbox('Order manage'))
    expect(changes.at(-1)).toEqual([
      'system.person',
      'orderManage.personal',
      'orderManage.myOrder',
      'orderManage.balance',
    ])
    expect(checkbox('My balance').checked).toBe(true)

    await user.click(checkbox('Order manage'))
    expect(changes.at(-1)).toEqual(['system.person'])

    await user.click(checkbox('Personal info'))
    expect(changes.at(-1)).toEqual([])
  })

  it('keeps keys this console does not know, so saving never drops another version’s items', async () => {
    const changes: string[][] = []
    renderWithI18n(<PickerHarness initial={['future.page', 'system.person']} changes={changes} />)
    await userEvent.setup().click(checkbox('Space'))
    expect(changes.at(-1)).toEqual(['projectManage.space', 'system.person', 'future.page'])
    expect(leftMenuItemKeys).not.toContain('future.page')
  })
})
