import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { CaseCuration } from './CaseCuration'

const projectNamed = (id: string, name: string) => ({ id, name, kind: 'building' })

/**
 * A server with more projects than one page holds: the first page (by name) lacks "Zeta
 * tower"; a keyword finds it. Records each call's path and form body.
 */
function stubServer() {
  const calls: Array<{ path: string; body: URLSearchParams }> = []
  const firstPage = Array.from({ length: 100 }, (_, index) =>
    projectNamed(`p-${index}`, `Alpha ${String(index).padStart(3, '0')}`),
  )
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const body = new URLSearchParams(String(init.body ?? ''))
      calls.push({ path, body })
      const keyword = body.get('keyword')
      const datum =
        path === '/web/project/findProjectAll'
          ? {
              list: keyword === 'zeta' ? [projectNamed('z-1', 'Zeta tower')] : firstPage,
              total: 101,
              pageNo: 1,
              pageSize: 100,
            }
          : { id: 'case-1' }
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

describe('case curation (admins)', () => {
  it('finds a project beyond the first page by its name and adds it to the gallery', async () => {
    const calls = stubServer()
    const onChanged = vi.fn()
    renderWithI18n(<CaseCuration gallery={{ menus: [], details: [] }} onChanged={onChanged} />)
    await userEvent.type(screen.getByRole('searchbox', { name: 'Find a project' }), 'zeta')
    await waitFor(() =>
      expect(calls.some((call) => call.body.get('keyword') === 'zeta')).toBe(true),
    )
    await userEvent.click(screen.getByRole('combobox', { name: 'Project' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Zeta tower' }))
    await userEvent.click(screen.getByRole('button', { name: 'Add to the gallery' }))
    await waitFor(() => expect(onChanged).toHaveBeenCalled())
    const added = calls.find((call) => call.path === '/web/case/addCaseDetail')
    expect(added?.body.get('project_id')).toBe('z-1')
  })
})
