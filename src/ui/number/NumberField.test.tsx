import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../testing/render-with-i18n'
import { NumberBlock, type NumberFieldProps, NumberInput } from './NumberField'

function Controlled({
  Field,
  initial,
  onChange,
  ...rest
}: Omit<NumberFieldProps, 'value' | 'onChange' | 'label'> & {
  Field: typeof NumberBlock
  initial: number
  onChange: (value: number) => void
}) {
  const [value, setValue] = useState(initial)
  return (
    <Field
      {...rest}
      label="Amount"
      value={value}
      onChange={(next) => {
        setValue(next)
        onChange(next)
      }}
    />
  )
}

describe('NumberBlock', () => {
  it('shows the value with two decimals and its range', () => {
    renderWithI18n(<NumberBlock label="Intensity" value={0.5} onChange={() => {}} />)
    const input = screen.getByRole('spinbutton', { name: 'Intensity' }) as HTMLInputElement
    expect(input.value).toBe('0.50')
    expect(input.getAttribute('aria-valuemin')).toBe('0')
    expect(input.getAttribute('aria-valuemax')).toBe('1')
  })

  it('steps by 0.01 with the arrow keys', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Field={NumberBlock} initial={0.3} onChange={onChange} />)
    const input = screen.getByRole('spinbutton', { name: 'Amount' }) as HTMLInputElement
    await userEvent.click(input)
    await userEvent.keyboard('{ArrowUp}{ArrowUp}{ArrowDown}')
    expect(onChange.mock.calls.map(([value]) => value)).toEqual([0.31, 0.32, 0.31])
    expect(input.value).toBe('0.31')
  })

  it('rounds a typed value to two decimals on Enter', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Field={NumberBlock} initial={0} onChange={onChange} />)
    const input = screen.getByRole('spinbutton', { name: 'Amount' }) as HTMLInputElement
    await userEvent.clear(input)
    await userEvent.type(input, '0.456{Enter}')
    expect(onChange).toHaveBeenLastCalledWith(0.46)
    expect(input.value).toBe('0.46')
  })

  it('clamps a typed value into 0..1 when leaving the field', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Field={NumberBlock} initial={0.2} onChange={onChange} />)
    const input = screen.getByRole('spinbutton', { name: 'Amount' }) as HTMLInputElement
    await userEvent.clear(input)
    await userEvent.type(input, '7')
    await userEvent.tab()
    expect(onChange).toHaveBeenLastCalledWith(1)
    expect(input.value).toBe('1.00')
  })

  it('puts back the last value when the text is not a number', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Field={NumberBlock} initial={0.2} onChange={onChange} />)
    const input = screen.getByRole('spinbutton', { name: 'Amount' }) as HTMLInputElement
    await userEvent.clear(input)
    await userEvent.type(input, 'abc{Enter}')
    expect(onChange).not.toHaveBeenCalled()
    expect(input.value).toBe('0.20')
  })

  it('honours a custom range and step', async () => {
    const onChange = vi.fn()
    renderWithI18n(
      <Controlled
        Field={NumberBlock}
        initial={5}
        min={0}
        max={10}
        step={0.5}
        onChange={onChange}
      />,
    )
    await userEvent.click(screen.getByRole('spinbutton', { name: 'Amount' }))
    await userEvent.keyboard('{ArrowUp}{End}')
    expect(onChange.mock.calls.map(([value]) => value)).toEqual([5.5, 10])
  })
})

describe('NumberInput', () => {
  it('clamps to 0..1000 by default', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Field={NumberInput} initial={10} onChange={onChange} />)
    const input = screen.getByRole('spinbutton', { name: 'Amount' }) as HTMLInputElement
    await userEvent.clear(input)
    await userEvent.type(input, '2500{Enter}')
    expect(onChange).toHaveBeenLastCalledWith(1000)
    await userEvent.clear(input)
    await userEvent.type(input, '-4{Enter}')
    expect(onChange).toHaveBeenLastCalledWith(0)
  })

  it('steps by one with the keys and the buttons', async () => {
    const onChange = vi.fn()
    renderWithI18n(<Controlled Field={NumberInput} initial={999} onChange={onChange} />)
    await userEvent.click(screen.getByRole('spinbutton', { name: 'Amount' }))
    await userEvent.keyboard('{ArrowUp}')
    expect(onChange).toHaveBeenLastCalledWith(1000)
    expect(screen.getByRole('button', { name: 'Increase' }).hasAttribute('disabled')).toBe(true)
    await userEvent.click(screen.getByRole('button', { name: 'Decrease' }))
    expect(onChange).toHaveBeenLastCalledWith(999)
  })
})
