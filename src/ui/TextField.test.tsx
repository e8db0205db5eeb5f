import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { PasswordField } from './PasswordField'
import { TextField } from './TextField'
import { renderWithI18n } from './testing/render-with-i18n'

describe('TextField', () => {
  it('is found by its label and takes typing', async () => {
    renderWithI18n(<TextField label="Project name" />)
    const input = screen.getByLabelText('Project name') as HTMLInputElement
    await userEvent.type(input, 'Harbour tower')
    expect(input.value).toBe('Harbour tower')
  })

  it('marks a required field for assistive technology', () => {
    renderWithI18n(<TextField label="Name" required />)
    const input = screen.getByRole('textbox', { name: /Name/ })
    expect(input.getAttribute('aria-required')).toBe('true')
    expect(input.hasAttribute('required')).toBe(true)
  })

  it('ties the error message to the input and marks it invalid', () => {
    renderWithI18n(<TextField label="Name" error="Please fill out the form." hint="Up to 20" />)
    const input = screen.getByRole('textbox', { name: 'Name' })
    expect(input.getAttribute('aria-invalid')).toBe('true')
    const message = screen.getByRole('alert')
    expect(message.textContent).toBe('Please fill out the form.')
    expect(input.getAttribute('aria-describedby')).toBe(message.id)
    expect(screen.queryByText('Up to 20')).toBeNull()
  })

  it('is valid and shows the hint without an error', () => {
    renderWithI18n(<TextField label="Name" hint="Up to 20" />)
    const input = screen.getByRole('textbox', { name: 'Name' })
    expect(input.hasAttribute('aria-invalid')).toBe(false)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByText('Up to 20')).toBeTruthy()
  })
})

describe('PasswordField', () => {
  it('hides the password until the toggle reveals it, and hides it again', async () => {
    renderWithI18n(<PasswordField label="Password" />)
    const input = screen.getByLabelText('Password') as HTMLInputElement
    await userEvent.type(input, 's3cret!')
    expect(input.type).toBe('password')
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }))
    expect(input.type).toBe('text')
    expect(input.value).toBe('s3cret!')
    const hide = screen.getByRole('button', { name: 'Hide password' })
    expect(hide.getAttribute('aria-pressed')).toBe('true')
    await userEvent.click(hide)
    expect(input.type).toBe('password')
  })

  it('lets password managers fill it', () => {
    renderWithI18n(<PasswordField label="New password" autoComplete="new-password" />)
    expect(screen.getByLabelText('New password').getAttribute('autocomplete')).toBe('new-password')
  })
})
