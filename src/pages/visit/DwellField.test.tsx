import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { DwellField } from './DwellField'

describe('dwell editing of a tour view', () => {
  it('saves the typed dwell once, clamped to 1–600 seconds', async () => {
    const onSave = vi.fn(async () => undefined)
    renderWithI18n(<DwellField name="Lobby" seconds={5} onSave={onSave} />)
    const input = screen.getByRole('spinbutton', { name: 'Dwell of Lobby' }) as HTMLInputElement
    await userEvent.clear(input)
    await userEvent.type(input, '900{Enter}')
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1))
    expect(onSave).toHaveBeenCalledWith(600)
    expect(input.value).toBe('600')
  })

  it('puts the saved dwell back when the save is refused', async () => {
    const onSave = vi.fn(async () => {
      throw new Error('refused')
    })
    renderWithI18n(<DwellField name="Roof" seconds={5} onSave={onSave} />)
    const input = screen.getByRole('spinbutton', { name: 'Dwell of Roof' }) as HTMLInputElement
    await userEvent.clear(input)
    await userEvent.type(input, '12{Enter}')
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(12))
    await waitFor(() => expect(input.value).toBe('5'))
  })
})
