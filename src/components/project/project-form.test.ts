import { describe, expect, it } from 'vitest'
import type { Project } from '../../api/project'
import { applyMapPick, initialFormValues, projectFormProblem } from './project-form'

const saved: Project = {
  id: 'p1',
  kind: 'building',
  name: 'Tower',
  area_id: '420102',
  area_name: '湖北省 / 武汉市 / 江岸区',
  detailedaddress: 'Wuhan',
  use_shadow_editor_render: false,
  prewiewpath: '/web/files/u.png',
  prewiewpath_uuid: 'u',
  prewiewpath_thumb: '/web/files/thumbs/u.png',
  description: 'Floors',
  gis_width: 600,
  gis_height: 800,
  tile_radius: 0.5,
  title_level: 15,
  tile_coordinates: null,
  project_center: { lng: 114.3, lat: 30.6 },
  shell_json_path: null,
  owner_id: 'o',
  owner_name: 'demo',
  is_paid: false,
  is_case: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
}

describe('project form rules', () => {
  it('asks for every required field before the location', () => {
    const empty = initialFormValues('city', null)
    expect(projectFormProblem(empty)).toBe('incomplete')
    const filled = {
      ...empty,
      name: 'Harbour',
      detailedaddress: 'Typed by hand',
      description: 'x',
      coverFile: new File(['x'], 'c.png', { type: 'image/png' }),
    }
    expect(projectFormProblem({ ...filled, name: '   ' })).toBe('incomplete')
    expect(projectFormProblem({ ...filled, coverFile: null })).toBe('incomplete')
    expect(projectFormProblem(filled)).toBe('noLocation')
    const picked = applyMapPick(filled, { location: { lat: 1, lng: 2 }, address: 'Picked place' })
    expect(picked.detailedaddress).toBe('Picked place')
    expect(projectFormProblem(picked)).toBeNull()
  })

  it('starts an edit from the saved project, its cover counting as given', () => {
    const values = initialFormValues('city', saved)
    expect(values).toMatchObject({
      kind: 'building',
      name: 'Tower',
      coverUuid: 'u',
      location: { lat: 30.6, lng: 114.3 },
      areaId: '420102',
    })
    expect(projectFormProblem(values)).toBeNull()
  })
})
