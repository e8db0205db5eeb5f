import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { AltitudeSlider, type PresetSliderProps, RotationSlider } from './Slider'
import { renderWithI18n } from './testing/render-with-i18n'

function Controlled({
  Preset,
  initial,
  onChange,
  onCommit,
}: {
  Preset: (props: PresetSliderProps) => React.ReactNode
  initial: number
  onChange: (value: number) => void
  onCommit?: (value: number) => void
}) {
  const [value, setValue] = useState(initial)
  return (
    <Preset
      value={value}
      onCommit={onCommit}
      onChange={(next) => {
        setValue(next)
        onChange(next)
      }}
    />
  )
}

describe('RotationSlider', () => {
  it('runs from -180 to 180 and says degrees', () => {
    renderWithI18n(<RotationSlider value={45} onChange={() => {}} />)
    const thumb = screen.getByRole('slider', { name: 'Rotation' })
    expect(thumb.getAttribute('aria-valuemin')).toBe('-180')
    expect(thumb.getAttribute('aria-valuemax')).toBe('180')
    expect(thumb.getAttribute('aria-valuetext')).toBe('45°')
  })

  it('steps 15° with the arrow keys and stops at the ends', async () => {
    const onChange = vi.fn()
    const onCommit = vi.fn()
    renderWithI18n(
      <Controlled Preset={RotationSlider} initial={0} onChange={onChange} onCommit={onCommit} />,
    )
    screen.getByRole('slider', { name: 'Rotation' }).focus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowLeft}')
    expect(onChange.mock.calls.map(([value]) => value)).toEqual([15, 30, 15])
    expect(onCommit).toHaveBeenLastCalledWith(15)
    await userEvent.keyboard('{End}{ArrowRight}')
    expect(onChange).toHaveBeenLastCalledWith(180)
    await userEvent.keyboard('{Home}')
    expect(onChange).toHaveBeenLastCalledWith(-180)
  })
})

describe('AltitudeSlider', () => {
  it('runs from -500 to 500 mm in steps of 15 through 0', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Preset={AltitudeSlider} initial={0} onChange={onChange} />)
    const thumb = screen.getByRole('slider', { name: 'Altitude' })
    expect(thumb.getAttribute('aria-valuemin')).toBe('-500')
    expect(thumb.getAttribute('aria-valuemax')).toBe('500')
    thumb.focus()
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}')
    expect(onChange).toHaveBeenLastCalledWith(-30)
    expect(thumb.getAttribute('aria-valuetext')).toBe('-30 mm')
    expect(screen.getByText('-30 mm')).toBeTruthy()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    expect(onChange).toHaveBeenLastCalledWith(0)
  })

  it('reaches both ends and steps back onto the grid from them', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Preset={AltitudeSlider} initial={0} onChange={onChange} />)
    screen.getByRole('slider', { name: 'Altitude' }).focus()
    await userEvent.keyboard('{End}')
    expect(onChange).toHaveBeenLastCalledWith(500)
    await userEvent.keyboard('{ArrowLeft}')
    expect(onChange).toHaveBeenLastCalledWith(480)
    await userEvent.keyboard('{PageDown}')
    expect(onChange).toHaveBeenLastCalledWith(330)
    await userEvent.keyboard('{Home}{ArrowRight}')
    expect(onChange.mock.calls.slice(-2).map(([value]) => value)).toEqual([-500, -480])
  })
})
