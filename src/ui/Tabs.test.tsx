import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { type TabItem, Tabs } from './Tabs'
import { renderWithI18n } from './testing/render-with-i18n'

const items: TabItem[] = [
  { value: 'basic', label: 'Basic', content: 'Basic fields' },
  { value: 'labels', label: 'Model labels', content: 'Label list' },
  { value: 'static', label: 'Static attributes', content: 'Attribute table', isDisabled: true },
]

describe('Tabs', () => {
  it('shows the first tab until another is chosen', async () => {
    const onValueChange = vi.fn()
    renderWithI18n(<Tabs label="Template" items={items} onValueChange={onValueChange} />)
    expect(screen.getByRole('tabpanel').textContent).toBe('Basic fields')
    await userEvent.click(screen.getByRole('tab', { name: 'Model labels' }))
    expect(onValueChange).toHaveBeenCalledWith('labels')
    expect(screen.getByRole('tabpanel').textContent).toBe('Label list')
  })

  it('moves between tabs with the arrow keys', async () => {
    renderWithI18n(<Tabs label="Template" items={items} />)
    await userEvent.click(screen.getByRole('tab', { name: 'Basic' }))
    await userEvent.keyboard('{ArrowRight}')
    const labels = screen.getByRole('tab', { name: 'Model labels' })
    expect(document.activeElement).toBe(labels)
    expect(labels.getAttribute('aria-selected')).toBe('true')
  })

  it('will not open a locked tab', async () => {
    renderWithI18n(<Tabs label="Template" items={items} />)
    await userEvent.click(screen.getByRole('tab', { name: 'Static attributes' }))
    expect(screen.getByRole('tabpanel').textContent).toBe('Basic fields')
  })

  it('follows a controlled value', () => {
    const { rerender } = renderWithI18n(<Tabs label="Template" items={items} value="basic" />)
    rerender(<Tabs label="Template" items={items} value="labels" />)
    expect(screen.getByRole('tabpanel').textContent).toBe('Label list')
  })
})
