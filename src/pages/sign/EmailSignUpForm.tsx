import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { showErrorToast } from '../../components/feedback/error-text'
import { FormWrapper, PasswordField, TextField } from '../../ui'
import { SmsCodeField } from './SmsCodeField'
import { startSmsCountdown } from './sms-countdown'
import { confirmationProblem, newPasswordProblem, smsCodeProblem } from './validation'

/** Props of {@link EmailSignUpForm}. */
export interface EmailSignUpFormProps {
  /** `/register/verificationMail`. */
  requestCode: (email: string) => Promise<void>
  /** `/register/isexistemail`. */
  isTaken: (email: string) => Promise<boolean>
  /** `/register/registerbymail`. */
  submit: (email: string, code: string, password: string) => Promise<void>
  onDone: () => void
}

type FieldName = 'email' | 'code' | 'password' | 'confirmation'

/** A plausible address (the server's check is the real one). */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** What is wrong with an e-mail address, or null. */
export function emailProblem(email: string): MessageDescriptor | null {
  if (!email.trim()) return msg`Please enter your e-mail address.`
  if (!emailPattern.test(email.trim())) return msg`Please enter a valid e-mail address.`
  return null
}

const takenMessage = msg`An account already uses this e-mail address. Sign in or reset the password instead.`

/**
 * Sign-up by e-mail (SPEC §7 `registerbymail`, decisions.md "Accounts"): address, a code sent
 * to it, password and confirmation. Before a code is sent the address is checked with
 * `isexistemail`, so someone who has an account is told at once instead of after the code.
 */
export function EmailSignUpForm({ requestCode, isTaken, submit, onDone }: EmailSignUpFormProps) {
  const { i18n, t } = useLingui()
  const [values, setValues] = useState<Record<FieldName, string>>({
    email: '',
    code: '',
    password: '',
    confirmation: '',
  })
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const [emailError, setEmailError] = useState<MessageDescriptor | null>(null)

  const problems: Record<FieldName, MessageDescriptor | null> = {
    email: emailProblem(values.email),
    code: smsCodeProblem(values.code),
    password: newPasswordProblem(values.password),
    confirmation: confirmationProblem(values.password, values.confirmation),
  }
  const shownError = (field: FieldName) => {
    const problem =
      field === 'email' && emailError ? emailError : hasTriedSubmit ? problems[field] : null
    return problem ? i18n._(problem) : undefined
  }
  const update = (field: FieldName) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }))
    if (field === 'email') setEmailError(null)
  }

  async function sendCode(): Promise<boolean> {
    const problem = emailProblem(values.email)
    if (problem) {
      setEmailError(problem)
      return false
    }
    const email = values.email.trim().toLowerCase()
    try {
      if (await isTaken(email)) {
        setEmailError(takenMessage)
        return false
      }
      await requestCode(email)
      startSmsCountdown()
      return true
    } catch (error) {
      showErrorToast(error)
      return false
    }
  }

  async function handleSubmit() {
    setHasTriedSubmit(true)
    if (Object.values(problems).some(Boolean)) return
    try {
      await submit(values.email.trim().toLowerCase(), values.code.trim(), values.password)
      onDone()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormWrapper
      title={<Trans>Create an account with e-mail</Trans>}
      onSubmit={handleSubmit}
      submitLabel={<Trans>Sign up</Trans>}
    >
      <TextField
        label={t`E-mail`}
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(event) => update('email')(event.target.value)}
        error={shownError('email')}
        required
      />
      <SmsCodeField
        value={values.code}
        onValueChange={update('code')}
        error={shownError('code')}
        onRequestCode={sendCode}
      />
      <PasswordField
        label={t`Password`}
        autoComplete="new-password"
        value={values.password}
        onChange={(event) => update('password')(event.target.value)}
        error={shownError('password')}
        hint={t`8 to 128 characters.`}
        required
      />
      <PasswordField
        label={t`Confirm password`}
        autoComplete="new-password"
        value={values.confirmation}
        onChange={(event) => update('confirmation')(event.target.value)}
        error={shownError('confirmation')}
        required
      />
    </FormWrapper>
  )
}
