import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../testing/render-with-i18n'
import { ColorPicker } from './ColorPicker'

function Controlled({ onChange, initial }: { onChange: (rgba: string) => void; initial?: string }) {
  const [color, setColor] = useState(initial)
  return (
    <ColorPicker
      label="Ground colour"
      value={color}
      onChange={(next) => {
        setColor(next)
        onChange(next)
      }}
    />
  )
}

describe('ColorPicker', () => {
  it('starts at white, half opaque, when given no colour', () => {
    renderWithI18n(<ColorPicker label="Sky" onChange={() => {}} />)
    expect(screen.getByText('rgba(255,255,255,0.5)')).toBeTruthy()
    expect((screen.getByLabelText('Colour') as HTMLInputElement).value).toBe('#ffffff')
    expect(screen.getByRole('slider', { name: 'Opacity' }).getAttribute('aria-valuenow')).toBe('50')
  })

  it('changes opacity in whole percents, reported as alpha with two decimals', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled onChange={onChange} initial="rgba(10,20,30,0.5)" />)
    const slider = screen.getByRole('slider', { name: 'Opacity' })
    slider.focus()
    await userEvent.keyboard('{ArrowRight}')
    expect(onChange).toHaveBeenLastCalledWith('rgba(10,20,30,0.51)')
    await userEvent.keyboard('{End}')
    expect(onChange).toHaveBeenLastCalledWith('rgba(10,20,30,1)')
    await userEvent.keyboard('{Home}')
    expect(onChange).toHaveBeenLastCalledWith('rgba(10,20,30,0)')
    expect(slider.getAttribute('aria-valuetext')).toBe('0%')
  })

  it('changes the colour and keeps the opacity', () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled onChange={onChange} initial="rgba(255,255,255,0.3)" />)
    fireEvent.input(screen.getByLabelText('Colour'), { target: { value: '#709fcd' } })
    expect(onChange).toHaveBeenLastCalledWith('rgba(112,159,205,0.3)')
    expect(screen.getByText('rgba(112,159,205,0.3)')).toBeTruthy()
  })

  it('shows the default colour for unreadable text', () => {
    renderWithI18n(<ColorPicker label="Light" value="not a colour" onChange={() => {}} />)
    expect(screen.getByText('rgba(255,255,255,0.5)')).toBeTruthy()
  })
})
