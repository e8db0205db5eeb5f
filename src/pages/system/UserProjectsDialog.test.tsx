import { screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { Project, ProjectPage } from '../../api/project'
import type { ManagedUser } from '../../api/types'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { UserProjectsDialog } from './UserProjectsDialog'

const user = { id: 'u7', name: 'kim' } as ManagedUser
const project = (id: string, name: string, kind: 'city' | 'building') =>
  ({
    id,
    name,
    kind,
    detailedaddress: 'Seoul',
    updated_at: '2026-11-20T10:00:00.000Z',
  }) as Project

describe("UserProjectsDialog (admin: an account's projects, findProjectAllByUser)", () => {
  it("lists the user's projects by asking for that user's id", async () => {
    const page: ProjectPage = {
      list: [project('p1', 'Harbour', 'city'), project('p2', 'Office', 'building')],
      total: 60,
      pageNo: 1,
      pageSize: 50,
    }
    const load = vi.fn(async () => page)
    renderWithI18n(<UserProjectsDialog user={user} onClose={() => undefined} load={load} />)
    const table = await screen.findByTestId('user-projects')
    expect(load).toHaveBeenCalledWith('u7', { pageSize: 50 }, expect.any(AbortSignal))
    expect(screen.getByText('Projects of kim')).toBeTruthy()
    const rows = [...table.querySelectorAll('tbody tr')].map((row) => row.textContent)
    expect(rows[0]).toContain('HarbourCitySeoul')
    expect(rows[1]).toContain('OfficeSpaceSeoul')
    expect(screen.getByText(/The 50 most recently changed of 60 projects are shown/)).toBeTruthy()
  })

  it('says when the user has none', async () => {
    const load = vi.fn(async () => ({ list: [], total: 0, pageNo: 1, pageSize: 50 }))
    renderWithI18n(<UserProjectsDialog user={user} onClose={() => undefined} load={load} />)
    expect(await screen.findByText('This user has no projects.')).toBeTruthy()
  })
})
