import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { Select, type SelectOption } from './Select'
import { renderWithI18n } from './testing/render-with-i18n'

const skies: SelectOption[] = [
  { value: '1', label: 'Sunny sky' },
  { value: '2', label: 'Sky box' },
  { value: '3', label: 'Milky way', isDisabled: true },
  { value: '4', label: 'Rainy' },
]

function SkySelect({ onValueChange }: { onValueChange: (value: string) => void }) {
  const [sky, setSky] = useState<string | undefined>(undefined)
  return (
    <Select
      label="Sky"
      placeholder="Choose a sky"
      options={skies}
      value={sky}
      onValueChange={(value) => {
        setSky(value)
        onValueChange(value)
      }}
    />
  )
}

describe('Select', () => {
  it('is labelled and shows the placeholder until a choice is made', () => {
    renderWithI18n(<SkySelect onValueChange={() => {}} />)
    const trigger = screen.getByRole('combobox', { name: 'Sky' })
    expect(trigger.textContent).toContain('Choose a sky')
  })

  it('reports the chosen option and shows it', async () => {
    const onValueChange = vi.fn()
    renderWithI18n(<SkySelect onValueChange={onValueChange} />)
    await userEvent.click(screen.getByRole('combobox', { name: 'Sky' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Rainy' }))
    expect(onValueChange).toHaveBeenCalledWith('4')
    expect(screen.getByRole('combobox', { name: 'Sky' }).textContent).toContain('Rainy')
  })

  it('does not offer a disabled option', async () => {
    const onValueChange = vi.fn()
    renderWithI18n(<SkySelect onValueChange={onValueChange} />)
    await userEvent.click(screen.getByRole('combobox', { name: 'Sky' }))
    const milkyWay = await screen.findByRole('option', { name: 'Milky way' })
    expect(milkyWay.getAttribute('aria-disabled')).toBe('true')
    await userEvent.click(milkyWay)
    expect(onValueChange).not.toHaveBeenCalled()
  })

  it('shows the placeholder again when a controlled value is cleared', () => {
    const { rerender } = renderWithI18n(
      <Select label="Sky" placeholder="Choose a sky" options={skies} value="2" />,
    )
    expect(screen.getByRole('combobox', { name: 'Sky' }).textContent).toContain('Sky box')
    rerender(<Select label="Sky" placeholder="Choose a sky" options={skies} value={undefined} />)
    expect(screen.getByRole('combobox', { name: 'Sky' }).textContent).toContain('Choose a sky')
  })

  it('starts at its default value when uncontrolled', () => {
    renderWithI18n(<Select label="Sky" options={skies} defaultValue="4" />)
    expect(screen.getByRole('combobox', { name: 'Sky' }).textContent).toContain('Rainy')
  })

  it('marks itself invalid with the error message', () => {
    renderWithI18n(<Select label="Category" options={skies} error="Select the POI category" />)
    const trigger = screen.getByRole('combobox', { name: 'Category' })
    expect(trigger.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('alert').textContent).toBe('Select the POI category')
  })
})
