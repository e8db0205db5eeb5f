import { describe, expect, it } from 'vitest'
import type { CaseDetail } from '../../api/cases'
import type { Project } from '../../api/project'
import { projectOfCase } from './case-project'

/** The seeded house case: its project carries the catalogue ids of its seeded texts. */
const house = {
  id: 'house',
  name: 'House (SBM building)',
  name_key: 'case.house.name',
  description: 'A one-floor house model converted to SBM, with its building structure.',
  description_key: 'case.house.description',
  prewiewpath_thumb: '/web/files/thumbs/house.png',
} as Project

const detailOf = (title: string, description: string): CaseDetail =>
  ({ title, description, cover: null, cover_uuid: null, project: house }) as unknown as CaseDetail

describe('a case as the gallery shows it', () => {
  it('keeps the seeded texts’ ids while the case shows them, and drops them once an admin retitles it', () => {
    const seeded = projectOfCase(detailOf(house.name, house.description))
    expect(seeded).toMatchObject({
      name_key: 'case.house.name',
      description_key: 'case.house.description',
    })
    const retitled = projectOfCase(detailOf('Our model house', house.description))
    expect(retitled.name).toBe('Our model house')
    expect(retitled).not.toHaveProperty('name_key')
    expect(retitled.description_key).toBe('case.house.description')
  })
})
