import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithI18n } from './testing/render-with-i18n'
import { Tooltip } from './Tooltip'

describe('Tooltip', () => {
  it('shows its hint when the trigger gets keyboard focus and hides it on Escape', async () => {
    renderWithI18n(
      <Tooltip content="Contact us for a price">
        <button type="button">Price</button>
      </Tooltip>,
    )
    expect(screen.queryByRole('tooltip')).toBeNull()
    await userEvent.tab()
    expect((await screen.findByRole('tooltip')).textContent).toContain('Contact us for a price')
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('tooltip')).toBeNull()
  })
})
