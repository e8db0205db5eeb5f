import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ManagedUser } from '../../api/types'
import { ConfirmHost } from '../../ui'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { UsersPage } from './UsersPage'

const kim = {
  id: 'u2',
  name: 'kim',
  nickname: null,
  tel: '01012345678',
  email: null,
  role: 'editor',
  role_id: 'r-editor',
  role_name: 'editor',
  disabled: false,
} as unknown as ManagedUser

/** A server with one account; `disableUser` flips it. Records each call's path and body. */
function stubServer() {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  let account = { ...kim }
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const sent = String(init?.body ?? '')
      const body = (
        sent.startsWith('{') ? JSON.parse(sent) : Object.fromEntries(new URLSearchParams(sent))
      ) as Record<string, unknown>
      calls.push({ path, body })
      let datum: unknown = null
      if (path === '/web/user/selectUser') datum = { total: 1, list: [account] }
      if (path === '/web/role/findAll') datum = []
      if (path === '/web/user/disableUser') {
        account = { ...account, disabled: String(body.disabled) === 'true' }
        datum = account
      }
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('UsersPage: disabling an account (admin)', () => {
  it('asks first, disables the account and shows it disabled; enabling needs no question', async () => {
    const calls = stubServer()
    renderWithI18n(
      <>
        <UsersPage />
        <ConfirmHost />
      </>,
    )
    expect((await screen.findByTestId('user-state')).textContent).toBe('Active')
    await userEvent.click(screen.getByRole('button', { name: 'Disable kim' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog.textContent).toContain('cannot sign in until the account is enabled again')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }))
    await waitFor(() => expect(screen.getByTestId('user-state').textContent).toBe('Disabled'))
    expect(calls.find((call) => call.path === '/web/user/disableUser')?.body).toMatchObject({
      id: 'u2',
    })

    await userEvent.click(screen.getByRole('button', { name: 'Enable kim' }))
    await waitFor(() => expect(screen.getByTestId('user-state').textContent).toBe('Active'))
    expect(calls.filter((call) => call.path === '/web/user/disableUser')).toHaveLength(2)
  })
})
