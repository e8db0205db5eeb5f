import { screen } from '@testing-library/react'
import { afterAll, describe, expect, it } from 'vitest'
import type { Project } from '../../api/project'
import { activateLanguage } from '../../i18n/i18n'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { ProjectCard } from './ProjectCard'

/** The seeded city case as the server answers it: English text plus its catalogue ids. */
const dragonCase: Project = {
  id: 'case-1',
  kind: 'city',
  name: 'Dragon tileset (3D Tiles)',
  name_key: 'case.dragon.name',
  area_id: null,
  area_name: null,
  detailedaddress: 'Exton, Pennsylvania, United States',
  detailedaddress_key: 'case.dragon.address',
  use_shadow_editor_render: false,
  prewiewpath: null,
  prewiewpath_uuid: null,
  prewiewpath_thumb: null,
  description: 'A georeferenced 3D Tiles 1.0 tileset with two levels of detail.',
  description_key: 'case.dragon.description',
  gis_width: 600,
  gis_height: 800,
  tile_radius: 0.5,
  title_level: 15,
  tile_coordinates: null,
  project_center: null,
  shell_json_path: null,
  owner_id: 'admin',
  owner_name: 'admin',
  is_paid: false,
  is_case: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  permissions: { canRead: true, canEdit: false, canDelete: false, canShare: false, canCopy: true },
}

const actions = { onEnter: () => undefined, onInfo: () => undefined }

describe('a project card', () => {
  afterAll(() => activateLanguage('en'))

  it('shows a seeded case in the reader’s language, and a renamed one as typed', async () => {
    for (const [language, name, address] of [
      ['ko', '드래곤 타일셋 (3D Tiles)', '미국 펜실베이니아주 엑스턴'],
      ['zh', '龙模型瓦片集（3D Tiles）', '美国宾夕法尼亚州埃克斯顿'],
      ['en', 'Dragon tileset (3D Tiles)', 'Exton, Pennsylvania, United States'],
    ] as const) {
      await activateLanguage(language)
      const view = renderWithI18n(<ProjectCard project={dragonCase} actions={actions} />)
      expect(screen.getByRole('heading', { name })).toBeTruthy()
      expect(screen.getByText(address)).toBeTruthy()
      view.unmount()
    }
    await activateLanguage('ko')
    const { name_key: _dropped, ...renamed } = { ...dragonCase, name: 'Our dragon' }
    renderWithI18n(<ProjectCard project={renamed} actions={actions} />)
    expect(screen.getByRole('heading', { name: 'Our dragon' })).toBeTruthy()
  })
})
