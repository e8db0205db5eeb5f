import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { User } from '../../api/types'
import { activateLanguage } from '../../i18n/i18n'
import { session } from '../../state/session'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { stopSmsCountdown } from '../sign/sms-countdown'
import {
  type ContactChangeServices,
  ContactChangeDialog,
  type ContactField,
} from './ContactChangeDialog'

/** Records the calls the dialog makes; the change answers the person with the new address. */
function recorder() {
  const sent: Array<[ContactField, string]> = []
  const changes: Array<[ContactField, string, string]> = []
  const services: ContactChangeServices = {
    sendCode: async (field, address) => {
      sent.push([field, address])
    },
    change: async (field, address, code) => {
      changes.push([field, address, code])
      return { id: 'u1', name: 'dee', [field]: address } as unknown as User
    },
  }
  return { sent, changes, services }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
  stopSmsCountdown()
})
afterEach(() => {
  stopSmsCountdown()
  vi.useRealTimers()
})
afterAll(() => activateLanguage('en'))

describe('the change of phone or e-mail in the person page', () => {
  it('sends a code to the new phone and changes it only with that code (ko)', async () => {
    await activateLanguage('ko')
    const calls = recorder()
    let closed = 0
    renderWithI18n(
      <ContactChangeDialog field="tel" onClose={() => (closed += 1)} services={calls.services} />,
    )
    const user = userEvent.setup()
    expect(screen.getByRole('dialog', { name: '휴대폰 번호 변경' })).toBeTruthy()
    // no code yet: the change is not sent
    await user.type(screen.getByLabelText(/새 휴대폰 번호/), '010 9876 5432')
    await user.click(screen.getByRole('button', { name: '변경' }))
    expect(calls.changes).toEqual([])
    await user.click(screen.getByRole('button', { name: '인증 코드 받기' }))
    expect(calls.sent).toEqual([['tel', '01098765432']])
    await user.type(screen.getByLabelText(/인증 코드/), '123456')
    await user.click(screen.getByRole('button', { name: '변경' }))
    expect(calls.changes).toEqual([['tel', '01098765432', '123456']])
    expect(session.userData?.tel).toBe('01098765432')
    expect(closed).toBe(1)
    // a change of phone asks for no password
    expect(screen.queryByLabelText(/비밀번호/)).toBeNull()
  })

  it('speaks zh and en for the e-mail', async () => {
    await activateLanguage('zh')
    const calls = recorder()
    const view = renderWithI18n(
      <ContactChangeDialog field="email" onClose={() => {}} services={calls.services} />,
    )
    expect(screen.getByRole('dialog', { name: '更换邮箱' })).toBeTruthy()
    expect(screen.getByLabelText(/新邮箱地址/)).toBeTruthy()
    view.unmount()
    await activateLanguage('en')
    renderWithI18n(
      <ContactChangeDialog field="email" onClose={() => {}} services={calls.services} />,
    )
    const user = userEvent.setup()
    await user.type(screen.getByLabelText(/New e-mail address/), ' Dee@Example.COM ')
    await user.click(screen.getByRole('button', { name: 'Get code' }))
    expect(calls.sent).toEqual([['email', 'dee@example.com']])
    await user.type(screen.getByLabelText(/Verification code/), '654321')
    await user.click(screen.getByRole('button', { name: 'Change' }))
    expect(calls.changes).toEqual([['email', 'dee@example.com', '654321']])
  })
})
