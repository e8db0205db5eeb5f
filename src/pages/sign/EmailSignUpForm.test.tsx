import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { EmailSignUpForm } from './EmailSignUpForm'
import { stopSmsCountdown } from './sms-countdown'

/** Records the calls the form makes; `taken` addresses have an account already. */
function setup(taken: string[] = []) {
  const codeRequests: string[] = []
  const checks: string[] = []
  const submissions: Array<{ email: string; code: string; password: string }> = []
  let done = 0
  renderWithI18n(
    <EmailSignUpForm
      requestCode={async (email) => {
        codeRequests.push(email)
      }}
      isTaken={async (email) => {
        checks.push(email)
        return taken.includes(email)
      }}
      submit={async (email, code, password) => {
        submissions.push({ email, code, password })
      }}
      onDone={() => {
        done += 1
      }}
    />,
  )
  return { codeRequests, checks, submissions, doneCount: () => done, user: userEvent.setup() }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
  stopSmsCountdown()
})
afterEach(() => {
  stopSmsCountdown()
  vi.useRealTimers()
})

describe('sign-up by e-mail (registerbymail, isexistemail)', () => {
  it('checks the address before sending a code, and says when an account uses it', async () => {
    const { codeRequests, checks, user } = setup(['ada@example.com'])
    await user.type(screen.getByLabelText(/E-mail/), 'Ada@Example.com')
    await user.click(screen.getByRole('button', { name: 'Get code' }))
    expect(checks).toEqual(['ada@example.com'])
    expect(codeRequests).toEqual([])
    expect(
      screen.getByText(
        'An account already uses this e-mail address. Sign in or reset the password instead.',
      ),
    ).toBeTruthy()
  })

  it('sends a code to a free address and signs up with it', async () => {
    const { codeRequests, submissions, doneCount, user } = setup()
    await user.type(screen.getByLabelText(/E-mail/), 'new@example.com')
    await user.click(screen.getByRole('button', { name: 'Get code' }))
    expect(codeRequests).toEqual(['new@example.com'])
    await user.type(screen.getByLabelText(/Verification code/), '654321')
    await user.type(screen.getByLabelText(/^Password/), 'long enough pw')
    await user.type(screen.getByLabelText(/Confirm password/), 'long enough pw')
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(submissions).toEqual([
      { email: 'new@example.com', code: '654321', password: 'long enough pw' },
    ])
    expect(doneCount()).toBe(1)
  })

  it('refuses an address that is not one, sending nothing', async () => {
    const { codeRequests, checks, submissions, user } = setup()
    await user.type(screen.getByLabelText(/E-mail/), 'not-an-address')
    await user.click(screen.getByRole('button', { name: 'Get code' }))
    expect(screen.getByText('Please enter a valid e-mail address.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect([codeRequests, checks, submissions]).toEqual([[], [], []])
  })
})
