import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Role } from '../../api/types'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { RolesPage } from './RolesPage'

const role = (id: string, name: string, description: string): Role => ({
  id,
  name,
  description,
  access_level: 'editor',
  menu_keys: [],
  is_builtin: false,
  created_at: '',
  updated_at: '',
})

/** Answers findAll, search and findOne as the server would; records each call's path and body. */
function stubServer() {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  const roles = [role('r1', 'Surveyor', 'Walks the site'), role('r2', 'Auditor', 'Reads reports')]
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const sent = init?.body
      const body =
        sent instanceof URLSearchParams
          ? Object.fromEntries(sent)
          : typeof sent === 'string' && sent.startsWith('{')
            ? (JSON.parse(sent) as Record<string, unknown>)
            : Object.fromEntries(new URLSearchParams(String(sent ?? '')))
      calls.push({ path, body })
      let datum: unknown = null
      if (path === '/web/role/findAll') datum = roles
      if (path === '/web/role/search') {
        const keyword = String(body.keyword).toLowerCase()
        const list = roles.filter((one) => one.name.toLowerCase().includes(keyword))
        datum = { total: list.length, list }
      }
      // the role changed on the server since the list was loaded
      if (path === '/web/role/findOne') datum = { ...roles[1], description: 'Reads every report' }
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

describe('RolesPage: role search and the edit form from findOne', () => {
  it('searches roles by keyword and edits the role as the server has it now', async () => {
    const calls = stubServer()
    renderWithI18n(<RolesPage />)
    expect(await screen.findByText('Surveyor')).toBeTruthy()
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search by name or description' }),
      'audit',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(screen.queryByText('Surveyor')).toBeNull())
    expect(calls.find((call) => call.path === '/web/role/search')?.body.keyword).toBe('audit')
    expect(screen.getByText('Auditor')).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: 'Edit Auditor' }))
    const dialog = await screen.findByRole('dialog')
    expect(calls.find((call) => call.path === '/web/role/findOne')?.body.id).toBe('r2')
    const description = within(dialog).getByRole('textbox', { name: /Description/ })
    expect((description as HTMLTextAreaElement).value).toBe('Reads every report')
  })
})
