import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SmsPurpose } from '../../api/types'
import { session } from '../../state/session'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { stopSmsCountdown } from './sms-countdown'
import { TelCodePasswordForm } from './TelCodePasswordForm'

/** Records the calls the form makes instead of reaching a server. */
function recorder() {
  const codeRequests: Array<{ tel: string; purpose: SmsPurpose }> = []
  const submissions: Array<{ tel: string; code: string; password: string }> = []
  let done = 0
  return {
    codeRequests,
    submissions,
    doneCount: () => done,
    props: {
      requestCode: async (tel: string, purpose: SmsPurpose) => {
        codeRequests.push({ tel, purpose })
      },
      submit: async (tel: string, code: string, password: string) => {
        submissions.push({ tel, code, password })
      },
      onDone: () => {
        done += 1
      },
    },
  }
}

beforeEach(() => {
  // Only the countdown's interval is faked; user-event and React keep their real timeouts.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
  stopSmsCountdown()
})

afterEach(() => {
  stopSmsCountdown()
  vi.useRealTimers()
})

function setup(purpose: SmsPurpose = 'register') {
  const calls = recorder()
  renderWithI18n(<TelCodePasswordForm purpose={purpose} {...calls.props} />)
  const user = userEvent.setup()
  return { calls, user }
}

const codeButton = () => screen.getByTestId('sms-code-button') as HTMLButtonElement

describe('sign-up form', () => {
  it('shows a visible 60 s countdown after sending a code, then offers to resend', async () => {
    const { calls, user } = setup()
    await user.type(screen.getByLabelText(/Phone number/), '138 0000 0000')
    await user.click(screen.getByRole('button', { name: 'Get code' }))

    expect(calls.codeRequests).toEqual([{ tel: '13800000000', purpose: 'register' }])
    expect(codeButton().textContent).toBe('Resend in 60 s')
    expect(codeButton().disabled).toBe(true)

    await act(() => vi.advanceTimersByTimeAsync(1000))
    expect(codeButton().textContent).toBe('Resend in 59 s')
    expect(session.againSecond).toBe(59)

    await act(() => vi.advanceTimersByTimeAsync(58_000))
    expect(codeButton().textContent).toBe('Resend in 1 s')
    expect(codeButton().disabled).toBe(true)

    await act(() => vi.advanceTimersByTimeAsync(1000))
    expect(codeButton().textContent).toBe('Resend code')
    expect(codeButton().disabled).toBe(false)

    await user.click(codeButton())
    expect(calls.codeRequests).toHaveLength(2)
    expect(codeButton().textContent).toBe('Resend in 60 s')
  })

  it('refuses to send a code to an invalid phone number and starts no countdown', async () => {
    const { calls, user } = setup()
    await user.click(screen.getByRole('button', { name: 'Get code' }))
    expect(screen.getByText('Please enter your phone number.')).toBeTruthy()
    await user.type(screen.getByLabelText(/Phone number/), '12ab')
    await user.click(screen.getByRole('button', { name: 'Get code' }))
    expect(screen.getByText('Please enter a valid phone number.')).toBeTruthy()
    expect(calls.codeRequests).toEqual([])
    expect(codeButton().textContent).toBe('Get code')
  })

  it('shows every validation message on an empty submit and sends nothing', async () => {
    const { calls, user } = setup()
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(screen.getByText('Please enter your phone number.')).toBeTruthy()
    expect(screen.getByText('Please enter the verification code.')).toBeTruthy()
    expect(screen.getByText('Please enter a password.')).toBeTruthy()
    expect(screen.getByText('Please confirm the password.')).toBeTruthy()
    expect(calls.submissions).toEqual([])
  })

  it('explains a short password, a short code and a wrong confirmation', async () => {
    const { calls, user } = setup()
    await user.type(screen.getByLabelText(/Phone number/), '13800000000')
    await user.type(screen.getByLabelText(/Verification code/), '123')
    await user.type(screen.getByLabelText(/^Password/), 'short')
    await user.type(screen.getByLabelText(/Confirm password/), 'other')
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(screen.getByText('The verification code has 6 digits.')).toBeTruthy()
    expect(screen.getByText('The password needs at least 8 characters.')).toBeTruthy()
    expect(screen.getByText('The confirmed password is wrong.')).toBeTruthy()
    expect(calls.submissions).toEqual([])
  })

  it('submits a complete form once', async () => {
    const { calls, user } = setup()
    await user.type(screen.getByLabelText(/Phone number/), '+82 10-1234-5678')
    await user.type(screen.getByLabelText(/Verification code/), '654321')
    await user.type(screen.getByLabelText(/^Password/), 'long enough pw')
    await user.type(screen.getByLabelText(/Confirm password/), 'long enough pw')
    await user.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(calls.submissions).toEqual([
      { tel: '+821012345678', code: '654321', password: 'long enough pw' },
    ])
    expect(calls.doneCount()).toBe(1)
  })

  it('asks for the forgotten-password purpose on the reset form', async () => {
    const { calls, user } = setup('forget')
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeTruthy()
    await user.type(screen.getByLabelText(/Phone number/), '13800000000')
    await user.click(screen.getByRole('button', { name: 'Get code' }))
    expect(calls.codeRequests).toEqual([{ tel: '13800000000', purpose: 'forget' }])
  })

  it('checks a reset code with forgetPasswordVer before asking for the new password', async () => {
    const calls = recorder()
    const checks: Array<{ tel: string; code: string }> = []
    renderWithI18n(
      <TelCodePasswordForm
        purpose="forget"
        {...calls.props}
        verifyCode={async (tel, code) => {
          checks.push({ tel, code })
          if (code !== '246810') throw new Error('The verification code is wrong.')
        }}
      />,
    )
    const user = userEvent.setup()
    expect(screen.queryByLabelText(/New password/)).toBeNull()
    await user.type(screen.getByLabelText(/Phone number/), '138 0000 0000')
    await user.type(screen.getByLabelText(/Verification code/), '111111')
    await user.click(screen.getByRole('button', { name: 'Check the code' }))
    // a wrong code: still no password fields, and nothing was reset
    expect(checks).toEqual([{ tel: '13800000000', code: '111111' }])
    expect(screen.queryByLabelText(/New password/)).toBeNull()

    await user.clear(screen.getByLabelText(/Verification code/))
    await user.type(screen.getByLabelText(/Verification code/), '246810')
    await user.click(screen.getByRole('button', { name: 'Check the code' }))
    expect(screen.getByText('The code is right. Choose your new password.')).toBeTruthy()
    await user.type(screen.getByLabelText(/New password/), 'a new password')
    await user.type(screen.getByLabelText(/Confirm password/), 'a new password')
    await user.click(screen.getByRole('button', { name: 'Reset password' }))
    expect(calls.submissions).toEqual([
      { tel: '13800000000', code: '246810', password: 'a new password' },
    ])
    expect(calls.doneCount()).toBe(1)

    // changing the code after the check asks for a check again
    await user.clear(screen.getByLabelText(/Verification code/))
    await user.type(screen.getByLabelText(/Verification code/), '135790')
    expect(screen.getByRole('button', { name: 'Check the code' })).toBeTruthy()
    expect(screen.queryByLabelText(/New password/)).toBeNull()
  })
})
