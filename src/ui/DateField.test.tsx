import { i18n } from '@lingui/core'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { DateField } from './DateField'
import { messages as koMessages } from './locales/ko.po'
import { messages as zhMessages } from './locales/zh.po'
import { renderWithI18n } from './testing/render-with-i18n'

function Birthday({ initial, onChange }: { initial: string; onChange?: (value: string) => void }) {
  const [value, setValue] = useState(initial)
  return (
    <DateField
      label="Birthday"
      value={value}
      onValueChange={(next) => {
        setValue(next)
        onChange?.(next)
      }}
    />
  )
}

const partLabels = () =>
  within(screen.getByRole('group', { name: 'Birthday' }))
    .getAllByRole('combobox')
    .map((box) => box.closest('.ts-field')?.querySelector('label')?.textContent)

describe('DateField', () => {
  it('writes a date as the UI language does, whatever the browser is set to', () => {
    const { unmount } = renderWithI18n(<Birthday initial="1990-03-07" />)
    expect(screen.getByTestId('date-field-summary').textContent).toBe('March 7, 1990')
    expect(partLabels()).toEqual(['Month', 'Day', 'Year'])
    unmount()

    act(() => i18n.loadAndActivate({ locale: 'ko', messages: koMessages }))
    const korean = renderWithI18n(<Birthday initial="1990-03-07" />)
    expect(screen.getByTestId('date-field-summary').textContent).toBe('1990년 3월 7일')
    expect(partLabels()).toEqual(['연도', '월', '일'])
    expect(screen.getByText('3월')).toBeTruthy()
    korean.unmount()

    act(() => i18n.loadAndActivate({ locale: 'zh', messages: zhMessages }))
    renderWithI18n(<Birthday initial="1990-03-07" />)
    expect(screen.getByTestId('date-field-summary').textContent).toBe('1990年3月7日')
    expect(partLabels()).toEqual(['年', '月', '日'])
  })

  it('answers YYYY-MM-DD once year, month and day are chosen, keeping the day in its month', async () => {
    const answers: string[] = []
    renderWithI18n(<Birthday initial="" onChange={(value) => answers.push(value)} />)
    const group = screen.getByRole('group', { name: 'Birthday' })
    expect(within(group).queryByTestId('date-field-summary')).toBeNull()
    const user = userEvent.setup()
    async function choose(label: string, option: string) {
      await user.click(within(group).getByRole('combobox', { name: label }))
      await user.click(await screen.findByRole('option', { name: option }))
    }
    await choose('Day', '31')
    await choose('Month', 'April')
    expect(answers).toEqual([])
    await choose('Year', '2001')
    // April has 30 days: the 31st became the 30th
    expect(answers).toEqual(['2001-04-30'])
    expect(screen.getByTestId('date-field-summary').textContent).toBe('April 30, 2001')
  })
})
