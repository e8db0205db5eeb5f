import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { CaseDetail, CaseMenu } from '../../api/cases'
import type { Project } from '../../api/project'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { projectOfCase } from './case-project'
import { type CaseGallery, ProjectCasePage } from './ProjectCasePage'

const project = (id: string, name: string): Project => ({
  id,
  kind: 'building',
  name,
  area_id: null,
  area_name: null,
  detailedaddress: 'Seoul',
  use_shadow_editor_render: false,
  prewiewpath: `/web/files/${id}.png`,
  prewiewpath_uuid: id,
  prewiewpath_thumb: `/web/files/thumbnails/${id}.png`,
  description: `${name} as its owner described it`,
  gis_width: 600,
  gis_height: 800,
  tile_radius: 0,
  title_level: 0,
  tile_coordinates: null,
  project_center: null,
  shell_json_path: null,
  owner_id: 'owner',
  owner_name: 'owner',
  is_paid: false,
  is_case: true,
  created_at: '2026-11-27T00:00:00.000Z',
  updated_at: '2026-11-27T00:00:00.000Z',
  permissions: { canRead: true, canEdit: false, canDelete: false, canShare: false, canCopy: false },
})

const menu: CaseMenu = {
  id: 'offices',
  name: 'Offices',
  sort_order: 0,
  case_count: 1,
  created_at: '',
  updated_at: '',
}

const detail = (id: string, title: string, menuId: string | null, order: number): CaseDetail => ({
  id: `case-${id}`,
  project_id: id,
  menu_id: menuId,
  title,
  description: `${title}, as the gallery describes it`,
  cover: `/web/files/${id}.png`,
  cover_uuid: null,
  sort_order: order,
  project: project(id, `Project ${id}`),
  created_at: '',
  updated_at: '',
})

describe('project case gallery', () => {
  it('shows the curated cases by category, in order, with the titles admins gave them', async () => {
    const gallery: CaseGallery = {
      menus: [menu],
      details: [
        detail('tower', 'Office tower', 'offices', 0),
        detail('house', 'Model house', null, 0),
        detail('dragon', 'Dragon tiles', null, 1),
      ],
    }
    renderWithI18n(<ProjectCasePage load={async () => gallery} />)
    const offices = await screen.findByRole('region', { name: 'Offices' })
    expect(
      within(offices)
        .getAllByTestId('project-card')
        .map((card) => card.textContent),
    ).toEqual([expect.stringContaining('Office tower')])
    expect(screen.getByRole('heading', { name: 'Other cases' })).toBeTruthy()
    const names = screen
      .getAllByTestId('project-card')
      .map((card) => card.getAttribute('data-project-id'))
    expect(names).toEqual(['tower', 'house', 'dragon'])
    // the curation is for admins only
    expect(screen.queryByRole('region', { name: 'Curate the cases' })).toBeNull()
  })

  it('reads a seeded case in the user’s language until an admin retitles it', () => {
    const seeded = detail('house', 'Project house', null, 0)
    seeded.project = { ...seeded.project, name_key: 'case.house.name' }
    expect(projectOfCase(seeded)).toMatchObject({
      name: 'Project house',
      name_key: 'case.house.name',
    })
    const retitled = { ...seeded, title: 'Our model house' }
    expect(projectOfCase(retitled).name).toBe('Our model house')
    expect(projectOfCase(retitled).name_key).toBeUndefined()
  })
})
