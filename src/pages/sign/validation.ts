import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { passwordMaxLength } from '../../../contract/auth'

/** decisions.md "Accounts": passwords are 8–128 characters. */
export const passwordMinLength = 8
export { passwordMaxLength }
/** decisions.md "Accounts": SMS codes have 6 digits. */
export const smsCodeLength = 6

/**
 * A phone number: optional `+`, then 6–20 digits; spaces and hyphens people type are ignored.
 * Loose on purpose: the console serves several countries and the SMS gateway is the real check.
 */
const telPattern = /^\+?\d{6,20}$/

/** The phone number as sent to the server: without the spaces and hyphens people type. */
export function normaliseTel(tel: string): string {
  return tel.replace(/[\s-]/g, '')
}

/** What is wrong with a phone number, or null. */
export function telProblem(tel: string): MessageDescriptor | null {
  const normalised = normaliseTel(tel)
  if (!normalised) return msg`Please enter your phone number.`
  if (!telPattern.test(normalised)) return msg`Please enter a valid phone number.`
  return null
}

/** What is wrong with an SMS code, or null. */
export function smsCodeProblem(code: string): MessageDescriptor | null {
  if (!code.trim()) return msg`Please enter the verification code.`
  if (!new RegExp(`^\\d{${smsCodeLength}}$`).test(code.trim()))
    return msg`The verification code has 6 digits.`
  return null
}

/** What is wrong with a new password, or null. */
export function newPasswordProblem(password: string): MessageDescriptor | null {
  if (!password) return msg`Please enter a password.`
  if (password.length < passwordMinLength) return msg`The password needs at least 8 characters.`
  if (password.length > passwordMaxLength) return msg`The password may have at most 128 characters.`
  return null
}

/** SPEC §5: a password change needs a matching confirmation. */
export function confirmationProblem(
  password: string,
  confirmation: string,
): MessageDescriptor | null {
  if (!confirmation) return msg`Please confirm the password.`
  if (password !== confirmation) return msg`The confirmed password is wrong.`
  return null
}
