import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { Project, ProjectListQuery, ProjectPage } from '../../api/project'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { ProjectListSection, projectListPageSize } from './ProjectListSection'

function project(index: number): Project {
  return {
    id: `p-${index}`,
    kind: 'city',
    name: `Site ${index}`,
    area_id: null,
    area_name: null,
    detailedaddress: `Street ${index}`,
    use_shadow_editor_render: false,
    prewiewpath: null,
    prewiewpath_uuid: null,
    prewiewpath_thumb: null,
    description: '',
    gis_width: 600,
    gis_height: 800,
    tile_radius: 0.5,
    title_level: 15,
    tile_coordinates: null,
    project_center: null,
    shell_json_path: null,
    owner_id: 'u',
    owner_name: 'demo',
    is_paid: false,
    is_case: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    // the caller's own project, as the server says
    permissions: { canRead: true, canEdit: true, canDelete: true, canShare: true, canCopy: true },
  }
}

/** A server of `total` projects that pages like findProjectAll does. */
function pagedServer(total: number) {
  const asked: ProjectListQuery[] = []
  const load = async (query: ProjectListQuery): Promise<ProjectPage> => {
    asked.push(query)
    const pageNo = query.pageNo ?? 1
    const size = query.pageSize ?? 20
    const all = Array.from({ length: total }, (_, index) => project(index + 1))
    return { list: all.slice((pageNo - 1) * size, pageNo * size), total, pageNo, pageSize: size }
  }
  return { load, asked }
}

const noActions = { onEnter: () => undefined, onInfo: () => undefined }

describe('project list of one kind', () => {
  it('shows the total, the first page and pages through the rest on the server', async () => {
    const server = pagedServer(projectListPageSize + 3)
    const user = userEvent.setup()
    renderWithI18n(
      <ProjectListSection
        kind="city"
        title="City projects"
        actions={noActions}
        revision={0}
        load={server.load}
      />,
    )
    await waitFor(() =>
      expect(screen.getAllByTestId('project-card')).toHaveLength(projectListPageSize),
    )
    expect(screen.getByTestId('project-count-city').textContent).toBe(
      `Total: ${projectListPageSize + 3}`,
    )
    expect(server.asked[0]).toEqual({ kind: 'city', pageNo: 1, pageSize: projectListPageSize })
    await user.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(screen.getAllByTestId('project-card')).toHaveLength(3))
    expect(screen.getByText('Page 2 of 2')).toBeTruthy()
  })

  it('offers Create in the empty state and only where creating is allowed', async () => {
    const created: string[] = []
    const { rerender } = renderWithI18n(
      <ProjectListSection
        kind="building"
        title="Space projects"
        actions={noActions}
        revision={0}
        load={pagedServer(0).load}
        onCreate={() => created.push('building')}
      />,
    )
    await screen.findByText('No projects yet')
    const buttons = screen.getAllByRole('button', { name: 'Create' })
    expect(buttons).toHaveLength(2)
    await userEvent.setup().click(buttons[1]!)
    expect(created).toEqual(['building'])
    rerender(
      <ProjectListSection
        kind="building"
        title="Space projects"
        actions={noActions}
        revision={0}
        load={pagedServer(0).load}
      />,
    )
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull()
  })

  it('shows a load failure with Retry, and the actions the page allows per card', async () => {
    let shouldFail = true
    const server = pagedServer(1)
    const entered: string[] = []
    const user = userEvent.setup()
    renderWithI18n(
      <ProjectListSection
        kind="city"
        title="City projects"
        revision={0}
        actions={{
          onEnter: (chosen) => entered.push(chosen.id),
          onInfo: () => undefined,
          onDelete: () => undefined,
        }}
        load={async (query) => {
          if (shouldFail) throw new Error('offline')
          return server.load(query)
        }}
      />,
    )
    await screen.findByRole('alert')
    shouldFail = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    await screen.findByTestId('project-card')
    expect(screen.getByRole('button', { name: 'Delete Site 1' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Edit Site 1' })).toBeNull()
    await user.click(screen.getAllByRole('button', { name: 'Enter Site 1' })[1]!)
    expect(entered).toEqual(['p-1'])
  })

  it('offers no action the caller may not use on a project, whatever the page passes', async () => {
    const readOnly = {
      canRead: true,
      canEdit: false,
      canDelete: false,
      canShare: false,
      canCopy: false,
    }
    renderWithI18n(
      <ProjectListSection
        kind="city"
        title="Cases"
        revision={0}
        actions={{
          onEnter: () => undefined,
          onInfo: () => undefined,
          onEdit: () => undefined,
          onCopy: () => undefined,
          onDelete: () => undefined,
        }}
        load={async () => ({
          list: [{ ...project(1), is_case: true, permissions: readOnly }],
          total: 1,
          pageNo: 1,
          pageSize: projectListPageSize,
        })}
      />,
    )
    await screen.findByTestId('project-card')
    expect(screen.getAllByRole('button', { name: 'Enter Site 1' })).toHaveLength(2)
    for (const action of ['Edit', 'Copy', 'Delete']) {
      expect(screen.queryByRole('button', { name: `${action} Site 1` })).toBeNull()
    }
  })

  it('loads again when the page bumps its revision', async () => {
    const server = pagedServer(2)
    const { rerender } = renderWithI18n(
      <ProjectListSection
        kind="city"
        title="City"
        actions={noActions}
        revision={0}
        load={server.load}
      />,
    )
    await waitFor(() => expect(server.asked).toHaveLength(1))
    rerender(
      <ProjectListSection
        kind="city"
        title="City"
        actions={noActions}
        revision={1}
        load={server.load}
      />,
    )
    await waitFor(() => expect(server.asked).toHaveLength(2))
  })

  it('searches by name or address on the server and says when nothing matches', async () => {
    const server = pagedServer(3)
    const searched: Array<ProjectListQuery & { keyword: string }> = []
    const search = async (query: ProjectListQuery & { keyword: string }) => {
      searched.push(query)
      const list = query.keyword === 'Street 2' ? [project(2)] : []
      return { list, total: list.length, pageNo: 1, pageSize: projectListPageSize }
    }
    const user = userEvent.setup()
    renderWithI18n(
      <ProjectListSection
        kind="city"
        title="City"
        actions={noActions}
        revision={0}
        load={server.load}
        search={search}
      />,
    )
    expect(await screen.findByText('Site 3')).toBeTruthy()
    await user.type(
      screen.getByRole('searchbox', { name: 'Search by name or address' }),
      'Street 2',
    )
    await user.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(screen.queryByText('Site 3')).toBeNull())
    expect(screen.getByText('Site 2')).toBeTruthy()
    expect(searched.at(-1)).toMatchObject({ kind: 'city', keyword: 'Street 2', pageNo: 1 })
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or address' }))
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or address' }), 'nowhere')
    await user.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('No project matches “nowhere”')).toBeTruthy()
  })
})
