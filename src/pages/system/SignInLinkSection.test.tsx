import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { SignInLinkSection, signInLinkOf } from './SignInLinkSection'

describe('sign-in link (createTicket → getTokenByTicket)', () => {
  it('points at the login page with the ticket in its query', () => {
    expect(signInLinkOf('a b/c', { origin: 'https://twin.example', pathname: '/' })).toBe(
      'https://twin.example/#/login?ticket=a%20b%2Fc',
    )
  })

  it('makes a ticket and shows the link to copy', async () => {
    const create = vi.fn(async () => ({ ticket: 't-123', expires_at: '2026-11-27T08:00:00.000Z' }))
    renderWithI18n(<SignInLinkSection create={create} />)
    await userEvent.click(screen.getByRole('button', { name: 'Make a sign-in link' }))
    const field = (await screen.findByRole('textbox', { name: 'Sign-in link' })) as HTMLInputElement
    expect(field.value).toMatch(/#\/login\?ticket=t-123$/)
    expect(create).toHaveBeenCalledTimes(1)
  })
})
