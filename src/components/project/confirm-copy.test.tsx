import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Project } from '../../api/project'
import { activateLanguage } from '../../i18n/i18n'
import { ConfirmHost } from '../../ui/confirm/ConfirmHost'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { copyProjectWithConfirmation } from './confirm-copy'

/** The seeded building case as the server answers it: English text plus its catalogue ids. */
const houseCase = {
  id: 'case-2',
  kind: 'building',
  name: 'House (SBM building)',
  name_key: 'case.house.name',
  description: 'A one-floor house model converted to SBM, with its building structure.',
  description_key: 'case.house.description',
  detailedaddress: 'Seoul, South Korea',
  detailedaddress_key: 'case.house.address',
} as Project

describe('copying a project', () => {
  afterAll(() => activateLanguage('en'))

  it('names a seeded case and its copy in the user’s language', async () => {
    await activateLanguage('ko')
    renderWithI18n(<ConfirmHost />)
    const copy = vi.fn(
      async (_id: string, name?: string) => ({ ...houseCase, name: name ?? '' }) as Project,
    )
    let answer: Promise<Project | null> = Promise.resolve(null)
    act(() => {
      answer = copyProjectWithConfirmation(houseCase, 'ko', copy)
    })
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog.textContent).toContain('“주택 (SBM 건물)”')
    expect(dialog.textContent).toContain('“주택 (SBM 건물) (사본)”')
    expect(dialog.textContent).not.toContain('House')
    await userEvent.click(screen.getByRole('button', { name: '복사' }))
    await answer
    expect(copy).toHaveBeenCalledWith('case-2', '주택 (SBM 건물) (사본)')
  })
})
