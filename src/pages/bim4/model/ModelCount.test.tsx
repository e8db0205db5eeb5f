import { screen } from '@testing-library/react'
import { afterAll, describe, expect, it } from 'vitest'
import { activateLanguage } from '../../../i18n/i18n'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { ModelCount } from './ModelCount'

describe('the model count above the model list (findmodelnum)', () => {
  afterAll(() => activateLanguage('en'))

  it('shows the totals by role in the user’s language, and reads them again when the list changes', async () => {
    const asked: string[] = []
    let total = 3
    const load = async (projectId: string) => {
      asked.push(projectId)
      return { count: total, shell: 1, floor: total - 1, model: 0 }
    }
    await activateLanguage('en')
    const view = renderWithI18n(<ModelCount projectId="p1" revision={1} load={load} />)
    expect(await screen.findByText('3 models: 1 shell, 2 floors, 0 other')).toBeTruthy()
    total = 4
    view.rerender(<ModelCount projectId="p1" revision={2} load={load} />)
    expect(await screen.findByText('4 models: 1 shell, 3 floors, 0 other')).toBeTruthy()
    expect(asked).toEqual(['p1', 'p1'])
    view.unmount()
    await activateLanguage('ko')
    renderWithI18n(<ModelCount projectId="p1" revision={3} load={load} />)
    expect(await screen.findByText('모델 4개: 외피 1, 층 3, 기타 0')).toBeTruthy()
  })
})
