import { i18n } from '@lingui/core'
import { act, screen } from '@testing-library/react'
import { useState } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import './theme.css'
import { Button } from './Button'
import { AltitudeSlider } from './Slider'
import { renderWithI18n } from './testing/render-with-i18n'

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
})

function Altitude({ onChange }: { onChange: (value: number) => void }) {
  const [millimetres, setMillimetres] = useState(0)
  return (
    <div style={{ width: 400, padding: 20 }}>
      <AltitudeSlider
        value={millimetres}
        onChange={(next) => {
          setMillimetres(next)
          onChange(next)
        }}
      />
    </div>
  )
}

describe('widget kit in a real browser', () => {
  it('paints the dark theme from the shared CSS variables', () => {
    expect(getComputedStyle(document.documentElement).getPropertyValue('--ts-bg').trim()).toBe(
      '#10141b',
    )
    expect(getComputedStyle(document.body).backgroundColor).toBe('rgb(16, 20, 27)')
  })

  it('snaps a pointer press on the altitude slider onto the 15 mm grid through 0', async () => {
    const values: number[] = []
    renderWithI18n(<Altitude onChange={(value) => values.push(value)} />)
    const root = document.querySelector('.ts-slider__root') as HTMLElement
    const { width, height } = root.getBoundingClientRect()
    // Three quarters along −500..500 is 250 mm, whose nearest grid value is 255.
    await userEvent.click(root, { position: { x: width * 0.75, y: height / 2 } })
    await act(async () => {})
    expect(values.at(-1)).toBe(255)
    expect(screen.getByRole('slider', { name: 'Altitude' }).getAttribute('aria-valuetext')).toBe(
      '255 mm',
    )
  })

  it('keeps a button with a long label inside its panel, wrapped between whole words', () => {
    renderWithI18n(
      <div data-testid="panel" style={{ width: 216 }}>
        <Button variant="primary">Upload oblique photography and more</Button>
      </div>,
    )
    const panel = screen.getByTestId('panel').getBoundingClientRect()
    const button = screen.getByRole('button').getBoundingClientRect()
    expect(button.right).toBeLessThanOrEqual(panel.right)
    // wrapped onto a second line, not cut and not scrolled
    expect(button.height).toBeGreaterThan(40)
    const buttonElement = screen.getByRole('button')
    expect(buttonElement.scrollWidth).toBeLessThanOrEqual(buttonElement.clientWidth)
  })

  it('keeps a short label on one line at the control height', () => {
    renderWithI18n(<Button>Save</Button>)
    expect(screen.getByRole('button', { name: 'Save' }).getBoundingClientRect().height).toBe(32)
  })
})
