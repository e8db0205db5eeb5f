import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { TextArea } from './TextArea'
import { renderWithI18n } from './testing/render-with-i18n'

describe('TextArea', () => {
  it('counts characters against the default limit of 100', async () => {
    renderWithI18n(<TextArea label="Description" />)
    const textArea = screen.getByLabelText('Description')
    expect(screen.getByText('0/100')).toBeTruthy()
    await userEvent.type(textArea, 'Twelve chars')
    expect(screen.getByText('12/100')).toBeTruthy()
  })

  it('stops at the limit', async () => {
    const onValueChange = vi.fn()
    renderWithI18n(<TextArea label="Note" maxLength={5} onValueChange={onValueChange} />)
    const textArea = screen.getByLabelText('Note') as HTMLTextAreaElement
    await userEvent.type(textArea, 'abcdefgh')
    expect(textArea.value).toBe('abcde')
    expect(onValueChange).toHaveBeenLastCalledWith('abcde')
    expect(screen.getByText('5/5')).toBeTruthy()
  })

  it('counts Korean and Chinese characters one each', async () => {
    renderWithI18n(<TextArea label="설명" defaultValue="디지털 트윈 项目" />)
    expect(screen.getByText('9/100')).toBeTruthy()
  })

  it('describes the input with its count and error', () => {
    renderWithI18n(<TextArea label="Description" value="abc" error="Too vague" />)
    const textArea = screen.getByLabelText('Description')
    const describedBy = textArea.getAttribute('aria-describedby')?.split(' ') ?? []
    const texts = describedBy.map((id) => document.getElementById(id)?.textContent)
    expect(texts).toEqual(['3/100', 'Too vague'])
    expect(textArea.getAttribute('aria-invalid')).toBe('true')
  })
})
